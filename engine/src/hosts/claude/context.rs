//! Which rules the model still holds, read from the conversation Claude
//! Code will send next (behaviour §5.2.1, "Frame heads"; 5.5). Hook context
//! reaches the model as a system reminder, `<system-reminder>`, LF,
//! `<event> hook additional context: `, then the event's entries joined by
//! LF. Only frames inside such a reminder count: a shard header the model
//! or the person quotes elsewhere was never a delivery.

use crate::delivery::readback::delivered_rules;
use crate::hosts::workspace_host::WorkspaceHost;

const REMINDER_OPEN: &str = "<system-reminder>\n";
const REMINDER_CLOSE: &str = "\n</system-reminder>";
const INTRO: &str = " hook additional context: ";

/// The hook-context bodies in one conversation text: for each reminder
/// that renders hook context, what follows its intro up to the reminder's
/// end (or the text's end, when it is cut).
pub(crate) fn hook_context_bodies(text: &str) -> Vec<&str> {
    let mut bodies = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(REMINDER_OPEN) {
        let after = &rest[at + REMINDER_OPEN.len()..];
        let event_len = after
            .bytes()
            .take_while(|&b| b.is_ascii_alphanumeric() || b"_.:".contains(&b))
            .count();
        match after[event_len..].strip_prefix(INTRO) {
            Some(body) if event_len > 0 => {
                let end = body.find(REMINDER_CLOSE).unwrap_or(body.len());
                bodies.push(&body[..end]);
                rest = &body[end..];
            }
            _ => rest = after,
        }
    }
    bodies
}

/// The rules of every whole delivery in the hook context of `texts` (the
/// conversation's texts, in order), as [`delivered_rules`] reads them.
pub(crate) fn rules_in_context<S: AsRef<str>>(texts: &[S]) -> Vec<String> {
    let bodies: Vec<&str> = texts
        .iter()
        .flat_map(|text| hook_context_bodies(text.as_ref()))
        .collect();
    delivered_rules(&bodies)
}

/// What opens each instruction file Claude Code puts in the conversation
/// itself: a nested one (`Contents of <file>:`, alone in its reminder) or
/// one loaded at the start (`Contents of <file> (<whose>):`, among others).
const LOADED_BY_CLAUDE_CODE: &str = "Contents of ";

/// What opens each instruction file opencode's `read` tool attaches to its
/// result, in a system reminder: `Instructions from: <file>`, then the
/// file (behaviour §5.2.4).
const LOADED_BY_OPENCODE: &str = "Instructions from: ";

/// The files, absolute as the host names them, whose contents it loaded
/// into the conversation of `texts` itself: lines opening with its marker
/// ([`LOADED_BY_CLAUDE_CODE`], [`LOADED_BY_OPENCODE`]) in a text that
/// holds a system reminder.
pub(crate) fn files_loaded_by_host<S: AsRef<str>>(texts: &[S], host: WorkspaceHost) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for text in texts.iter().map(AsRef::as_ref) {
        if !text.contains(REMINDER_OPEN) {
            continue;
        }
        for line in text.lines() {
            let named = match host {
                WorkspaceHost::ClaudeCode => line
                    .strip_prefix(LOADED_BY_CLAUDE_CODE)
                    .and_then(|rest| rest.strip_suffix(':'))
                    // The start's files say whose they are in parentheses.
                    .map(|named| match named.rfind(" (") {
                        Some(at) if named.ends_with(')') => &named[..at],
                        _ => named,
                    }),
                WorkspaceHost::Opencode => line.strip_prefix(LOADED_BY_OPENCODE),
            };
            let Some(file) = named else {
                continue;
            };
            if file.starts_with('/') && !files.iter().any(|f| f == file) {
                files.push(file.to_string());
            }
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reminder(event: &str, entries: &[&str]) -> String {
        format!(
            "<system-reminder>\n{event} hook additional context: {}\n</system-reminder>",
            entries.join("\n")
        )
    }

    #[test]
    fn frames_in_reminders_count_and_quotes_do_not() {
        let prompt = reminder(
            "prompt.submit",
            &["[rule-fairy shard 1/1 d1]\n[rule-fairy injected: a.mdc]\n[rule-fairy matched: alwaysApply a.mdc]\n\n# a.mdc\n\nbody"],
        );
        let tool_result = format!(
            "File written\n\n{}",
            reminder(
                "tool.call",
                &["[rule-fairy shard 1/1 d2]\n[rule-fairy injected: b.mdc]\n\n# b.mdc"]
            )
        );
        let quoted = "As you said:\n[rule-fairy shard 1/1 d3]\n[rule-fairy injected: c.mdc]";
        assert_eq!(
            rules_in_context(&[prompt.as_str(), tool_result.as_str(), quoted]),
            vec!["a.mdc", "b.mdc"]
        );
    }

    #[test]
    fn a_two_frame_delivery_joined_into_one_reminder_is_whole() {
        let joined = reminder(
            "tool.call",
            &[
                "[rule-fairy shard 1/2 d1]\n[rule-fairy injected: a.mdc]\n\n# a.mdc",
                "[rule-fairy shard 2/2 d1]\n# docs",
            ],
        );
        assert_eq!(rules_in_context(&[joined]), vec!["a.mdc"]);
        let first_only = reminder(
            "tool.call",
            &["[rule-fairy shard 1/2 d1]\n[rule-fairy injected: a.mdc]"],
        );
        assert!(rules_in_context(&[first_only]).is_empty());
    }

    #[test]
    fn files_claude_code_loaded_itself_are_read_from_its_reminders() {
        let nested = "<system-reminder>\nContents of /p/services/billing/CLAUDE.md:\n\nBilling.\n</system-reminder>";
        let start = "<system-reminder>\nAs you answer, use this context:\n# claudeMd\n\nContents of /p/CLAUDE.md (project instructions, checked into the codebase):\n\nRoot.\n\nContents of /p/a (b)/CLAUDE.md:\n\nA.\n</system-reminder>";
        let quoted = "Contents of /p/x/CLAUDE.md:\n\nquoted by the person, not loaded";
        assert_eq!(
            files_loaded_by_host(&[nested, start, quoted, nested], WorkspaceHost::ClaudeCode),
            vec![
                "/p/services/billing/CLAUDE.md",
                "/p/CLAUDE.md",
                "/p/a (b)/CLAUDE.md"
            ]
        );
        assert!(files_loaded_by_host(
            &["<system-reminder>\nContents of relative.md:"],
            WorkspaceHost::ClaudeCode
        )
        .is_empty());
        // Claude Code's lines are not opencode's.
        assert!(files_loaded_by_host(&[nested, start], WorkspaceHost::Opencode).is_empty());
    }

    #[test]
    fn files_opencode_attached_to_a_read_are_read_from_its_reminder() {
        let read = "<file>\n00001| x\n</file>\n\n<system-reminder>\nInstructions from: /p/a/AGENTS.md\nA agents.\n\nInstructions from: /p/a (b)/CLAUDE.md\nB.\n</system-reminder>";
        let quoted = "Instructions from: /p/q/AGENTS.md\nquoted, not attached";
        assert_eq!(
            files_loaded_by_host(&[read, quoted, read], WorkspaceHost::Opencode),
            vec!["/p/a/AGENTS.md", "/p/a (b)/CLAUDE.md"]
        );
        assert!(files_loaded_by_host(&[read], WorkspaceHost::ClaudeCode).is_empty());
        assert!(files_loaded_by_host(
            &["<system-reminder>\nInstructions from: AGENTS.md"],
            WorkspaceHost::Opencode
        )
        .is_empty());
    }

    #[test]
    fn odd_reminders() {
        // A reminder that is not hook context, then one cut before its end.
        let text = "<system-reminder>\n# Environment\n</system-reminder>\n<system-reminder>\nprompt.submit hook additional context: [rule-fairy shard 1/1 x]\n[rule-fairy injected: a.mdc]";
        assert_eq!(rules_in_context(&[text]), vec!["a.mdc"]);
        assert!(hook_context_bodies("<system-reminder>\n hook additional context: x").is_empty());
        assert!(rules_in_context::<&str>(&[]).is_empty());
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn hook_context_bodies_example() {
        use crate::hosts::claude::context::hook_context_bodies;
        let text = "done\n\n<system-reminder>\ntool.call hook additional context: [rule-fairy shard 1/1 d1]\nbody\n</system-reminder>";
        assert_eq!(
            hook_context_bodies(text),
            vec!["[rule-fairy shard 1/1 d1]\nbody"]
        );
        assert!(hook_context_bodies("[rule-fairy shard 1/1 d1]").is_empty());
    }
}
