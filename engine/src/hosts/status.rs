//! One session as `rule-fairy status` reports it (behaviour §10.2), from
//! the state file either host keeps: what was delivered, when and why,
//! what waits (deferred rules, pending shell paths), the problems told,
//! and the totals with their token estimate.

use serde::Serialize;

use crate::hosts::journal::{DeliveryRecord, Journal, ProblemRecord, Totals};

/// Characters per token in the estimate: the common rule of thumb for
/// English text and code, which is what rules are.
pub const CHARS_PER_TOKEN: u64 = 4;

/// The tokens `chars` characters are estimated at, rounded up.
///
/// ```
/// use rule_fairy_engine::status::estimated_tokens;
/// assert_eq!((estimated_tokens(0), estimated_tokens(1), estimated_tokens(8)), (0, 1, 2));
/// ```
pub fn estimated_tokens(chars: u64) -> u64 {
    chars.div_ceil(CHARS_PER_TOKEN)
}

/// The host whose state file it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionHost {
    /// `.rule-fairy/claude/<session>.json` (a subagent's:
    /// `<session>.agent-<id>.json`).
    Claude,
    /// `.rule-fairy/codex/<session>.json`.
    Codex,
    /// `.rule-fairy/opencode/<session>.json` (a subagent's:
    /// `<session>.agent-<id>.json`), kept in Claude Code's shape: the
    /// opencode plugin runs the same delivery code (behaviour §5.2.4).
    Opencode,
}

impl SessionHost {
    /// Every host, in the order `status` lists their sessions.
    pub const ALL: [SessionHost; 3] = [
        SessionHost::Claude,
        SessionHost::Codex,
        SessionHost::Opencode,
    ];

    /// The host as the command line names it (and its state directory).
    pub fn name(self) -> &'static str {
        match self {
            SessionHost::Claude => "claude",
            SessionHost::Codex => "codex",
            SessionHost::Opencode => "opencode",
        }
    }

    /// The host as people call it.
    pub fn title(self) -> &'static str {
        match self {
            SessionHost::Claude => "Claude Code",
            SessionHost::Codex => "Codex",
            SessionHost::Opencode => "opencode",
        }
    }

    /// Whether its state files are in Claude Code's shape (with a file of
    /// their own for each subagent).
    pub fn keeps_claude_state(self) -> bool {
        matches!(self, SessionHost::Claude | SessionHost::Opencode)
    }
}

/// What one session received.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionReport {
    /// The deliveries kept, oldest first.
    pub deliveries: Vec<DeliveryRecord>,
    /// Rules a delivery deferred that no later delivery carried.
    pub deferred: Vec<String>,
    /// Paths a shell command changed whose rules have not reached the
    /// agent yet (behaviour §5.4).
    pub pending_shell_paths: Vec<String>,
    /// The problems told, in the order first told.
    pub problems: Vec<ProblemRecord>,
    /// Every delivery of the session, kept or not.
    pub totals: Totals,
    /// The totals' characters as tokens ([`estimated_tokens`]).
    pub estimated_tokens: u64,
    /// When the state was last saved, in epoch milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved_at_ms: Option<i64>,
}

/// The report of a session state: its journal, the shell check's pending
/// paths, and when it was saved. Each host reads its own file and calls
/// this (`claude::session_report`, `codex::session_report`).
pub(crate) fn report(
    journal: Journal,
    pending: Vec<String>,
    saved_at_ms: Option<i64>,
) -> SessionReport {
    let mut deferred: Vec<String> = Vec::new();
    for delivery in &journal.deliveries {
        deferred.retain(|rule| !delivery.rules.iter().any(|r| r.name == *rule));
        for rule in &delivery.deferred {
            if !deferred.contains(rule) {
                deferred.push(rule.clone());
            }
        }
    }
    SessionReport {
        estimated_tokens: estimated_tokens(journal.totals.chars),
        deliveries: journal.deliveries,
        deferred,
        pending_shell_paths: pending,
        problems: journal.problems,
        totals: journal.totals,
        saved_at_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::journal::RuleRecord;

    #[test]
    fn a_rule_deferred_stays_deferred_until_a_later_delivery_carries_it() {
        let mut journal = Journal::default();
        let rule = |name: &str| RuleRecord {
            name: name.into(),
            ..RuleRecord::default()
        };
        journal.record_delivery(
            5,
            crate::matching::event::EventKind::Prompt,
            vec![rule("a.mdc")],
            vec!["b.mdc".into(), "c.mdc".into()],
            40,
        );
        journal.record_delivery(
            9,
            crate::matching::event::EventKind::Edit,
            vec![rule("b.mdc")],
            Vec::new(),
            21,
        );
        let report = report(journal, vec!["src/x.ts".into()], Some(9));
        assert_eq!(report.deferred, vec!["c.mdc"]);
        assert_eq!(report.pending_shell_paths, vec!["src/x.ts"]);
        assert_eq!((report.totals.chars, report.estimated_tokens), (61, 16));
    }
}
