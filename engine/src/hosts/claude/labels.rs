//! The error entries the Claude Code mod attaches (behaviour §4.7, 5.2.1).
//! None has a shard header, so none is ever read back as a delivery.

use crate::base::error::{Error, Place};
use crate::base::finding::{Finding, Severity};
use crate::base::paths;
use crate::render::labels::NOTHING_INJECTED;

/// Characters of detail an error entry carries, as the original keeps of
/// a failed process's standard error.
pub const DETAIL_CHARS: usize = 1_000;

/// `[rule-fairy error: <kind> delivery failed]`, LF, the detail (cut to
/// [`DETAIL_CHARS`]; left out with its line when empty), LF,
/// [`NOTHING_INJECTED`]: a delivery that stopped before anything was
/// recorded.
///
/// ```
/// use rule_fairy_engine::hosts::claude::labels::delivery_failed;
/// assert_eq!(
///     delivery_failed("prompt", "failed", ""),
///     "[rule-fairy error: prompt delivery failed]\nNo matched rules were injected or marked as injected."
/// );
/// ```
pub fn delivery_failed(kind: &str, how: &str, detail: &str) -> String {
    let detail: String = detail.trim().chars().take(DETAIL_CHARS).collect();
    if detail.is_empty() {
        format!("[rule-fairy error: {kind} delivery {how}]\n{NOTHING_INJECTED}")
    } else {
        format!("[rule-fairy error: {kind} delivery {how}]\n{detail}\n{NOTHING_INJECTED}")
    }
}

/// A problem found while loading the rules (an unreadable rule file, a
/// link loop), with its place relative to the project `root`: what it names
/// is left out and every other rule still works.
pub fn loading_problem(root: &str, finding: &Finding) -> String {
    let severity = match finding.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut entry = format!(
        "[rule-fairy {severity}: {}{}]",
        place_prefix(root, &finding.place),
        finding.message
    );
    if let Some(hint) = &finding.hint {
        entry.push_str(&format!("\nFix: {hint}."));
    }
    entry.push_str("\nIt was left out; the other rules are delivered as usual.");
    entry
}

/// An invalid glob an event reached: the rule's other globs still match,
/// and the other matched rules are delivered.
pub fn glob_problem(root: &str, error: &Error) -> String {
    let place = error
        .place
        .as_ref()
        .map(|place| place_prefix(root, place))
        .unwrap_or_default();
    format!(
        "[rule-fairy error: {place}{}]\nThe rules that matched were delivered as usual.",
        error.kind
    )
}

/// `<file>:<line>: ` with the file relative to the project root when it
/// is inside it: what a person can open from the project.
fn place_prefix(root: &str, place: &Place) -> String {
    let file = paths::strip_base(&place.file, root)
        .filter(|rest| !rest.is_empty())
        .unwrap_or(&place.file);
    match place.line {
        Some(line) => format!("{file}:{line}: "),
        None => format!("{file}: "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::error::ErrorKind;

    #[test]
    fn entries() {
        assert_eq!(
            delivery_failed("shell", "failed", "Rule import does not exist: doc/lib.md\n"),
            "[rule-fairy error: shell delivery failed]\nRule import does not exist: doc/lib.md\nNo matched rules were injected or marked as injected."
        );
        let long = "x".repeat(5_000);
        assert!(delivery_failed("edit", "threw", &long).len() < 1_200);
        let finding = Finding::error(
            Place::line("/p/.cursor/rules/bad.mdc", 3),
            "Rule file is not UTF-8",
        );
        assert_eq!(
            loading_problem("/p", &finding),
            "[rule-fairy error: .cursor/rules/bad.mdc:3: Rule file is not UTF-8]\nIt was left out; the other rules are delivered as usual."
        );
        let error = Error::at(
            Place::line("/p/.cursor/rules/g.mdc", 2),
            ErrorKind::InvalidGlob {
                glob: "src/[".to_string(),
            },
        );
        assert_eq!(
            glob_problem("/p", &error),
            "[rule-fairy error: .cursor/rules/g.mdc:2: Invalid rule glob: src/[]\nThe rules that matched were delivered as usual."
        );
    }
}
