//! What a hook prints. Codex validates the output against a schema with
//! `additionalProperties: false` and silently drops all of it on one
//! unknown key, a missing `hookEventName`, or any text around the JSON. So
//! the output is built from these types only, never by hand, and nothing
//! else is written to standard output.

use std::sync::OnceLock;

use rule_fairy_engine::EventKind;
use serde::Serialize;

/// The Codex hook event a `SubagentStart` process answers: its decision is
/// a session start's (kind [`EventKind::SessionStart`]), and Codex drops
/// output naming another event than its own.
static ANSWERING_SUBAGENT_START: OnceLock<()> = OnceLock::new();

/// Marks this process as the `SubagentStart` hook's.
pub(super) fn answer_subagent_start() {
    let _ = ANSWERING_SUBAGENT_START.set(());
}

/// The Codex hook event that answers an event of `kind`: `UserPromptSubmit`
/// a prompt, `PostToolUse` an edit tool's or a shell command's result,
/// `SessionStart` a session start (`SubagentStart` in that hook's process).
pub(super) fn hook_event_name(kind: EventKind) -> &'static str {
    if kind == EventKind::SessionStart && ANSWERING_SUBAGENT_START.get().is_some() {
        return "SubagentStart";
    }
    match kind {
        EventKind::Prompt => "UserPromptSubmit",
        EventKind::Edit | EventKind::Shell | EventKind::Read => "PostToolUse",
        EventKind::SessionStart => "SessionStart",
    }
}

/// One hook output. `systemMessage` is shown to the person (not sent to
/// the model); the context goes to the model as a developer message. Post-
/// edit context is plain context: `continue: false` would not stop the turn
/// on Codex 0.169, it would only hide the tool's real result.
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(super) struct HookOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<SpecificOutput>,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(super) struct SpecificOutput {
    pub hook_event_name: &'static str,
    pub additional_context: String,
}

impl HookOutput {
    pub(super) fn context(kind: EventKind, text: String) -> HookOutput {
        HookOutput {
            system_message: None,
            hook_specific_output: Some(SpecificOutput {
                hook_event_name: hook_event_name(kind),
                additional_context: text,
            }),
        }
    }

    /// `output` with `text` after its context, a blank line between; or
    /// `text` alone.
    pub(super) fn appended(
        output: Option<HookOutput>,
        kind: EventKind,
        text: String,
    ) -> HookOutput {
        let Some(mut output) = output else {
            return HookOutput::context(kind, text);
        };
        match output.hook_specific_output.as_mut() {
            Some(specific) => {
                specific.additional_context = format!("{}\n\n{text}", specific.additional_context);
            }
            None => return HookOutput::context(kind, text),
        }
        output
    }

    /// Adds problems for the person to see; several are joined by lines.
    pub(super) fn with_problems(mut self, problems: &[String]) -> HookOutput {
        if !problems.is_empty() {
            let mut lines: Vec<String> = self.system_message.take().into_iter().collect();
            lines.extend(problems.iter().map(|p| format!("Rule Fairy: {p}")));
            self.system_message = Some(lines.join("\n"));
        }
        self
    }

    pub(super) fn to_json(&self) -> String {
        serde_json::to_string(self).expect("hook outputs serialise")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_schema_keys() {
        let plain = HookOutput::context(EventKind::Edit, "ctx".into());
        assert_eq!(
            plain.to_json(),
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}"#
        );
        let warned = HookOutput::context(EventKind::SessionStart, "c".into())
            .with_problems(&["a".into(), "b".into()]);
        assert_eq!(
            warned.to_json(),
            r#"{"systemMessage":"Rule Fairy: a\nRule Fairy: b","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}"#
        );
        assert_eq!(
            HookOutput::default().with_problems(&["m".into()]).to_json(),
            r#"{"systemMessage":"Rule Fairy: m"}"#
        );
    }
}
