//! The JSON object Codex writes to a hook's standard input (one object, no
//! trailing newline). Only the fields Rule Fairy uses are read; Codex adds
//! fields over time, and unknown ones are ignored.

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Default, Deserialize)]
pub(super) struct HookInput {
    pub session_id: Option<String>,
    /// The rollout file; `null` when the session runs with `--ephemeral`.
    pub transcript_path: Option<String>,
    pub prompt: Option<String>,
    pub tool_name: Option<String>,
    pub tool_input: Option<Value>,
    /// The directory the hook's event happened in: for a shell call, the
    /// directory the command ran in.
    pub cwd: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear`, `compact` or `fork`.
    pub source: Option<String>,
    /// The model of the turn, for `model:` conditions.
    pub model: Option<String>,
    /// A subagent's type, for `agent:` conditions (absent on the main thread).
    pub agent_type: Option<String>,
    /// A subagent's id (its thread's): its hooks carry its parent's
    /// `session_id` beside it, and its own `transcript_path`.
    pub agent_id: Option<String>,
}

/// Why the input could not be used; printed on standard error.
pub(super) type InputError = String;

/// Parses standard input. `Ok(None)` for blank input (nothing to do).
pub(super) fn parse(bytes: &[u8]) -> Result<Option<HookInput>, InputError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        format!(
            "the hook input on standard input is not JSON: line {}, column {}: {e}",
            e.line(),
            e.column()
        )
    })?;
    if !value.is_object() {
        return Err("the hook input on standard input is not a JSON object".to_string());
    }
    serde_json::from_value(value)
        .map(Some)
        .map_err(|e| format!("the hook input on standard input has a field of the wrong type: {e}"))
}

impl HookInput {
    /// A field the hook needs, or the error naming it.
    pub(super) fn required<'a>(
        field: &'a Option<String>,
        name: &str,
    ) -> Result<&'a str, InputError> {
        field
            .as_deref()
            .ok_or_else(|| format!("the hook input has no `{name}`, so there is nothing to do"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_and_ignores_the_rest() {
        let input = parse(br#"{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/p","hook_event_name":"UserPromptSubmit","model":"m","prompt":"hi"}"#)
            .unwrap()
            .unwrap();
        assert_eq!(input.session_id.as_deref(), Some("s"));
        assert_eq!(input.prompt.as_deref(), Some("hi"));
        assert!(input.transcript_path.is_none());
    }

    #[test]
    fn blank_input_is_nothing_and_bad_input_says_where() {
        assert!(parse(b"  \n").unwrap().is_none());
        let err = parse(b"{\n  \"session_id\": \"s\",\n  oops\n}").unwrap_err();
        assert!(err.contains("line 3, column 3"), "{err}");
        assert!(parse(b"[1]").unwrap_err().contains("not a JSON object"));
        assert!(parse(br#"{"prompt": 5}"#)
            .unwrap_err()
            .contains("wrong type"));
    }
}
