//! A Claude Code session's state (behaviour §5.1, "Session state file"):
//! when each rule was last delivered, and the shell check. The mod keeps it
//! as JSON in `<project>/.rule-fairy/claude/<session id>.json`; only the mod
//! reads it, and JSON is what both sides of the WebAssembly boundary parse.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::hosts::journal::Journal;
use crate::hosts::shell::ShellState;
use crate::hosts::status::{report, SessionReport};
use crate::matching::held_back::HeldBy;

/// Everything the mod remembers about one session between events.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SessionState {
    /// Rule name to the epoch milliseconds of its last delivery: the
    /// one-minute record that covers tool calls running side by side.
    #[serde(default)]
    pub delivered: BTreeMap<String, i64>,
    #[serde(default)]
    pub shell: ShellState,
    /// The rule-loading problems last shown in this session, so they are
    /// shown again only when they change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// The last problem told of a gate check that could not run: told once
    /// per session, not after every write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate_problem: Option<String>,
    /// The last line told of the program's version beside the plugin's
    /// (behaviour §10.5): told once per session, again only when it
    /// changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_problem: Option<String>,
    /// What the session received, for `rule-fairy status` (behaviour
    /// §10.2).
    #[serde(default, skip_serializing_if = "Journal::is_empty")]
    pub journal: Journal,
    /// When the state was last saved, in epoch milliseconds.
    #[serde(default)]
    pub ts: i64,
}

impl SessionState {
    /// Reads a saved state. An empty file is a fresh session; anything that
    /// is not a state is an error saying what is wrong and where.
    pub(crate) fn parse(text: &str) -> Result<SessionState, String> {
        if text.trim().is_empty() {
            return Ok(SessionState::default());
        }
        // serde reads a struct from an array too; a state file is an object.
        if !text.trim_start().starts_with('{') {
            return Err("expected a JSON object".to_string());
        }
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The text to save, stamped with the time of the save.
    pub(crate) fn to_json(&self, now_ms: i64) -> String {
        let mut stamped = self.clone();
        stamped.ts = now_ms;
        serde_json::to_string(&stamped).expect("a state always serialises")
    }
}

/// A saved state's text as `rule-fairy status` reports it (behaviour
/// §10.2); `Err` says why it is not a state (empty, not JSON, unknown keys).
///
/// ```
/// use rule_fairy_engine::claude::session_report;
/// let report = session_report(r#"{"shell":{"checked_at_ms":5,"pending":["a.ts"]},"ts":9}"#).unwrap();
/// assert_eq!((report.pending_shell_paths, report.saved_at_ms), (vec!["a.ts".to_string()], Some(9)));
/// assert_eq!(session_report("").unwrap_err(), "the file is empty");
/// assert!(session_report(r#"{"name":"x"}"#).unwrap_err().contains("unknown field"));
/// ```
pub fn session_report(text: &str) -> Result<SessionReport, String> {
    if text.trim().is_empty() {
        return Err("the file is empty".to_string());
    }
    let state = SessionState::parse(text)?;
    Ok(report(
        state.journal,
        state.shell.pending,
        Some(state.ts).filter(|&ts| ts > 0),
    ))
}

/// What a saved state says of `rule` for `explain --why-not --session`
/// (behaviour §10.3): when it was last delivered. The record is cleared by
/// a compaction ([`after_compaction`]), so a rule it names was delivered
/// into the conversation as it is now, which the command cannot read: it
/// counts as held there.
///
/// ```
/// use rule_fairy_engine::claude::held_by;
/// use rule_fairy_engine::HeldBy;
/// let held = held_by(r#"{"delivered":{"a.mdc":5}}"#, "a.mdc", 9).unwrap();
/// assert_eq!(held, HeldBy::Claude { delivered_at: Some(5), in_conversation: true, now: 9 });
/// ```
pub fn held_by(text: &str, rule: &str, now_ms: i64) -> Result<HeldBy, String> {
    let state = SessionState::parse(text)?;
    let delivered_at = state.delivered.get(rule).copied();
    Ok(HeldBy::Claude {
        delivered_at,
        in_conversation: delivered_at.is_some(),
        now: now_ms,
    })
}

/// The saved state after the conversation was compacted: the one-minute
/// record is dropped, since it only stands in for context the conversation
/// is about to show, and a compaction just took every delivery out of it.
/// Without this, a rule delivered in the minute before a compaction would
/// be missing from the conversation until that minute passed. `None` when
/// there is nothing to change (or the state does not parse: the next event
/// reports that).
///
/// ```
/// use rule_fairy_engine::claude::after_compaction;
/// let saved = r#"{"delivered":{"a.mdc":5},"shell":{"checked_at_ms":5,"pending":[]},"ts":5}"#;
/// assert_eq!(
///     after_compaction(saved, 9).unwrap(),
///     r#"{"delivered":{},"shell":{"checked_at_ms":5,"pending":[]},"ts":9}"#
/// );
/// assert_eq!(after_compaction("", 9), None);
/// ```
pub fn after_compaction(saved: &str, now_ms: i64) -> Option<String> {
    let mut state = SessionState::parse(saved).ok()?;
    if state.delivered.is_empty() {
        return None;
    }
    state.delivered.clear();
    Some(state.to_json(now_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_example() {
        let state = SessionState::parse(r#"{"delivered":{"a.mdc":5},"ts":5}"#).unwrap();
        assert_eq!(state.delivered["a.mdc"], 5);
        assert!(SessionState::parse("").unwrap().delivered.is_empty());
        assert!(SessionState::parse("{:delivered {}}")
            .unwrap_err()
            .contains("line 1 column 2"));
        assert_eq!(
            SessionState::parse("[]").unwrap_err(),
            "expected a JSON object"
        );
    }

    #[test]
    fn saved_state_reads_back() {
        let mut state = SessionState::default();
        state.delivered.insert("a.mdc".into(), 1_000);
        state.shell.start(900);
        state.shell.record_check(1_000, &["src/x.ts".into()]);
        let text = state.to_json(2_000);
        assert_eq!(
            text,
            r#"{"delivered":{"a.mdc":1000},"shell":{"checked_at_ms":1000,"pending":["src/x.ts"]},"ts":2000}"#
        );
        let back = SessionState::parse(&text).unwrap();
        assert_eq!(back.delivered, state.delivered);
        assert_eq!(back.shell, state.shell);
        assert_eq!(back.ts, 2_000);
    }

    #[test]
    fn wrong_shapes_are_errors() {
        assert!(SessionState::parse("[]").is_err());
        assert!(SessionState::parse(r#"{"delivered":{"a.mdc":"soon"}}"#)
            .unwrap_err()
            .contains("invalid type"));
        assert!(SessionState::parse(r#"{"deliverd":{}}"#)
            .unwrap_err()
            .contains("unknown field"));
        assert!(SessionState::parse("{\"delivered\":{").is_err());
    }
}
