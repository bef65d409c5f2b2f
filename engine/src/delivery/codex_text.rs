//! The context texts of the Codex hooks (behaviour §4.8). Codex gets one
//! unsharded text per event; the JSON around it is the adapter's job.
//!
//! Where we differ from the original: the post-edit text goes out as plain
//! `additionalContext`. The original also sets `continue: false`, which
//! Codex 0.169 does not honour as "stop and read the rules": it only hides
//! the tool's real result from the model.

use crate::matching::index::PromptMatch;
use crate::render::labels;
use crate::render::prefix::{injected_markers, reason_lines};
use crate::rules::instructions;

/// What a post-edit delivery asks of the agent.
pub(crate) const EDIT_CONTRACT: &str =
    "Apply these rules on the next pass over this edit. If the completed edit conflicts with them, revise it before moving on.";

/// The prompt hook's text: a marker per delivered rule and the reason
/// lines (behaviour §2.5), a blank line, then the full rendering
/// (behaviour §4.2) of exactly those rules.
pub(crate) fn prompt_context(delivered: &[PromptMatch], full_rendering: &str) -> String {
    let names: Vec<&str> = delivered.iter().map(|m| m.name.as_str()).collect();
    let mut lines = injected_markers(&names);
    lines.extend(reason_lines(delivered));
    format!("{}\n\n{full_rendering}", lines.join("\n"))
}

/// A read's text (behaviour §9.2): a marker per delivered rule, the lines
/// naming the files read, a blank line, then the full rendering.
pub(crate) fn read_context<S: AsRef<str>>(
    delivered: &[S],
    read_lines: Vec<String>,
    full_rendering: &str,
) -> String {
    let mut lines = injected_markers(delivered);
    lines.extend(read_lines);
    lines.extend(instructions_line(delivered));
    format!("{}\n\n{full_rendering}", lines.join("\n"))
}

/// How the edited paths of a post-edit delivery changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EditSource {
    /// An edit tool (`apply_patch`, `Edit`, `Write`, an MCP edit).
    Tool,
    /// A shell command, found by the shell check.
    Shell,
}

/// The post-edit hook's text: a marker per delivered rule, the matched
/// line naming every path that has a matching rule (with no length budget,
/// as in the original), a blank line, the contract, a blank line, then
/// the full rendering.
pub(crate) fn post_edit_context<S: AsRef<str>, P: AsRef<str>>(
    delivered: &[S],
    paths: &[P],
    source: EditSource,
    full_rendering: &str,
) -> String {
    let paths: Vec<&str> = paths.iter().map(AsRef::as_ref).collect();
    let mut lines = injected_markers(delivered);
    let rules = delivered
        .iter()
        .any(|name| instructions::delivered_path(name.as_ref()).is_none());
    if rules {
        lines.push(match source {
            EditSource::Tool => labels::matched_glob(&paths.join(", ")),
            EditSource::Shell => labels::matched_glob_by_shell(&paths.join(", ")),
        });
    }
    lines.extend(instructions_line(delivered));
    format!(
        "{}\n\n{EDIT_CONTRACT}\n\n{full_rendering}",
        lines.join("\n")
    )
}

/// The line saying why instruction files came, when `delivered` holds one.
fn instructions_line<S: AsRef<str>>(delivered: &[S]) -> Option<String> {
    delivered
        .iter()
        .any(|name| instructions::delivered_path(name.as_ref()).is_some())
        .then(|| labels::MATCHED_INSTRUCTIONS.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_context_is_markers_reasons_blank_line_rendering() {
        let delivered = [
            PromptMatch {
                name: "base.mdc".into(),
                always_apply: true,
                keywords: vec![],
                durable: true,
                mentions: vec![],
            },
            PromptMatch {
                name: "widget.mdc".into(),
                always_apply: false,
                keywords: vec!["widget".into()],
                durable: true,
                mentions: vec![],
            },
        ];
        assert_eq!(
            prompt_context(&delivered, "# base.mdc\n\nBase.\n\n---\n\n# widget.mdc\n\nWidget."),
            "[rule-fairy injected: base.mdc]\n[rule-fairy injected: widget.mdc]\n[rule-fairy matched: alwaysApply base.mdc]\n[rule-fairy matched: keyword \"widget\"]\n\n# base.mdc\n\nBase.\n\n---\n\n# widget.mdc\n\nWidget."
        );
    }

    #[test]
    fn post_edit_context_names_every_path_and_carries_the_contract() {
        let text = post_edit_context(
            &["ui.mdc", "testing.mdc"],
            &["src/a.clj", "test/a_test.clj"],
            EditSource::Tool,
            "# ui.mdc\n\nUI.",
        );
        assert_eq!(
            text,
            "[rule-fairy injected: ui.mdc]\n[rule-fairy injected: testing.mdc]\n[rule-fairy matched: glob on src/a.clj, test/a_test.clj]\n\nApply these rules on the next pass over this edit. If the completed edit conflicts with them, revise it before moving on.\n\n# ui.mdc\n\nUI."
        );
        let long: Vec<String> = (0..40)
            .map(|i| format!("{i:02}{}", "p".repeat(58)))
            .collect();
        let shell = post_edit_context(&["ui.mdc"], &long, EditSource::Shell, "R");
        assert!(shell.contains(&format!(
            "[rule-fairy matched: glob on {}, changed by a shell command]\n\n",
            long.join(", ")
        )));
        // Plain additionalContext: nothing here asks Codex to stop.
        assert!(!shell.contains("continue") && !shell.contains("stopReason"));
    }
}
