//! The error entries the Claude Code mod attaches (behaviour §4.7, 5.2.1);
//! a failed delivery's entry is shared with Codex, in `hosts::failure`.
//! None has a shard header, so none is ever read back as a delivery, and
//! every outside text in them (a file, a message, a glob) is line-safe
//! (`labels::line_safe`), so none can forge one.

use crate::base::error::Place;
use crate::base::finding::{Finding, Severity};
use crate::base::paths;
use crate::render::labels::line_safe;

/// A problem found while loading the rules (an unreadable rule file, a
/// link loop), with its place relative to the project `root`: what it names
/// is left out and every other rule still works.
pub(crate) fn loading_problem(root: &str, finding: &Finding) -> String {
    let severity = match finding.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut entry = format!(
        "[rule-fairy {severity}: {}{}]",
        place_prefix(root, &finding.place),
        line_safe(&finding.message)
    );
    if let Some(hint) = &finding.hint {
        entry.push_str(&format!("\nFix: {}.", line_safe(hint)));
    }
    entry.push_str("\nIt was left out; the other rules are delivered as usual.");
    entry
}

/// `<file>:<line>: ` with the file relative to the project root when it
/// is inside it: what a person can open from the project.
fn place_prefix(root: &str, place: &Place) -> String {
    let file = paths::strip_base(&place.file, root)
        .filter(|rest| !rest.is_empty())
        .unwrap_or(&place.file);
    let file = line_safe(file);
    match place.line {
        Some(line) => format!("{file}:{line}: "),
        None => format!("{file}: "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries() {
        let finding = Finding::error(
            crate::base::finding::Code::RuleUnreadable,
            Place::line("/p/.cursor/rules/bad.mdc", 3),
            "Rule file is not UTF-8",
        );
        assert_eq!(
            loading_problem("/p", &finding),
            "[rule-fairy error: .cursor/rules/bad.mdc:3: Rule file is not UTF-8]\nIt was left out; the other rules are delivered as usual."
        );
    }
}
