//! A Codex session's state and the reinjection decision (behaviour §5.1,
//! 5.3). One record per session, shared by every hook, so a rule the edit
//! hook delivered is not delivered again by the prompt hook, and the
//! reverse. The adapter keeps it in a JSON file under a lock; what is in it
//! and what it means is decided here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::delivery::selection::Selection;
use crate::hosts::codex::transcript::ScanCursor;
use crate::hosts::journal::Journal;
use crate::hosts::shell::ShellState;
use crate::hosts::status::{report, SessionReport};
use crate::matching::held_back::HeldBy;

/// Transcript growth after which a delivered rule is sent again even
/// without a compaction record: a fallback for context cleanup that leaves
/// no record (behaviour §5.3).
pub(crate) const GROWTH_FALLBACK_BYTES: u64 = 2 * 1024 * 1024;

/// The shortest line a compaction record can be (`{"type":"compacted"}`
/// and its LF): a cursor cannot have counted more compactions than its
/// bytes hold lines this long.
const SHORTEST_COMPACTION: u64 = 21;

/// More compactions than any session has: a count above it in a state
/// file was not written by a hook.
const MOST_COMPACTIONS: u64 = 1 << 32;

/// What the transcript says about the conversation at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metrics {
    /// The transcript's size in bytes, partial last line included; `None`
    /// when the session has no transcript (`codex exec --ephemeral`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Compactions so far in this session.
    pub compaction_count: u64,
}

/// Everything Rule Fairy remembers about one Codex session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionState {
    /// Each delivered rule and the metrics when it was delivered.
    pub injected: BTreeMap<String, Metrics>,
    /// How far the transcript has been read.
    pub transcript_scan: ScanCursor,
    /// Compactions announced by `SessionStart` (source `compact`) while the
    /// session had no transcript to count them in. Without this, a session
    /// run with `--ephemeral` would never see a rule again after a
    /// compaction; the original never reinjects there.
    pub announced_compactions: u64,
    /// The shell check: when it last ran and the paths not yet delivered.
    pub shell: ShellState,
    /// The last gate problem reported (a rule file that cannot be parsed,
    /// say): a check the hook cannot run is reported once per session, not
    /// with every write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate_problem: Option<String>,
    /// Whether the plugin's version was compared with the program's
    /// (behaviour §10.5): once per session, so the manifest is read by
    /// one hook only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub version_checked: bool,
    /// When the state was last saved, in milliseconds since the epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved_at_ms: Option<i64>,
    /// What the session received, for `rule-fairy status` (behaviour
    /// §10.2).
    #[serde(skip_serializing_if = "Journal::is_empty")]
    pub journal: Journal,
}

/// The keys of a saved state: an object with none of them is another
/// program's JSON, which the lenient reading would take for an empty state.
const STATE_KEYS: &[&str] = &[
    "injected",
    "transcript_scan",
    "shell",
    "saved_at_ms",
    "journal",
];

/// A saved state's text as `rule-fairy status` reports it (behaviour
/// §10.2); `Err` says why it is not a state (empty, not JSON, another
/// program's object).
///
/// ```
/// use rule_fairy_engine::codex::session_report;
/// let report = session_report(r#"{"injected":{},"saved_at_ms":3}"#).unwrap();
/// assert_eq!((report.deliveries.len(), report.saved_at_ms), (0, Some(3)));
/// assert_eq!(session_report("[1]").unwrap_err(), "expected a JSON object");
/// assert_eq!(session_report(r#"{"name":"x"}"#).unwrap_err(), "it has none of a session state's keys");
/// ```
pub fn session_report(text: &str) -> Result<SessionReport, String> {
    let state = saved_state(text)?;
    Ok(report(
        state.journal,
        state.shell.pending,
        state.saved_at_ms,
    ))
}

/// What a saved state says of `rule` for `explain --why-not --session`
/// (behaviour §10.3): whether it is recorded as delivered, and whether a
/// compaction the hooks counted since makes it due again (the transcript's
/// growth since the last hook is not read here).
///
/// ```
/// use rule_fairy_engine::codex::held_by;
/// use rule_fairy_engine::HeldBy;
/// let text = r#"{"injected":{"a.mdc":{"compaction_count":0}},"transcript_scan":{"scanned_bytes":500,"compaction_count":1}}"#;
/// assert_eq!(held_by(text, "a.mdc").unwrap(), HeldBy::Codex { delivered: true, due_again: true });
/// ```
pub fn held_by(text: &str, rule: &str) -> Result<HeldBy, String> {
    let (state, _) = saved_state(text)?.validated();
    let then = state.injected.get(rule);
    let now = Metrics {
        size: None,
        compaction_count: state
            .transcript_scan
            .compaction_count
            .max(state.announced_compactions),
    };
    Ok(HeldBy::Codex {
        delivered: then.is_some(),
        due_again: then.is_some_and(|then| needs_injection(Some(then), Some(&now))),
    })
}

/// A state file's text read strictly: empty, not an object, or an object
/// with none of a state's keys (another program's JSON, which the lenient
/// reading would take for an empty state) is an error.
fn saved_state(text: &str) -> Result<SessionState, String> {
    if text.trim().is_empty() {
        return Err("the file is empty".to_string());
    }
    if !text.trim_start().starts_with('{') {
        return Err("expected a JSON object".to_string());
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if !value
        .as_object()
        .is_some_and(|object| object.keys().any(|key| STATE_KEYS.contains(&key.as_str())))
    {
        return Err("it has none of a session state's keys".to_string());
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// Whether a rule is due, given the metrics at its last delivery (`None`:
/// never delivered in this session) and now (`None`: unknown).
///
/// A rule never delivered is due. A delivered one is due again after a
/// compaction, or once the transcript grew by [`GROWTH_FALLBACK_BYTES`]
/// since; with the current metrics unknown it is not.
pub(crate) fn needs_injection(delivered: Option<&Metrics>, now: Option<&Metrics>) -> bool {
    let Some(then) = delivered else {
        return true;
    };
    let Some(now) = now else {
        return false;
    };
    if now.compaction_count > then.compaction_count {
        return true;
    }
    match (then.size, now.size) {
        (Some(then), Some(now)) => now.saturating_sub(then) >= GROWTH_FALLBACK_BYTES,
        _ => false,
    }
}

impl SessionState {
    /// The state as read from a file, its counters checked (behaviour §5.1,
    /// "Session state"): they are never trusted, since a state file is a
    /// file anyone can edit. A transcript cursor that counted more
    /// compactions than its bytes can hold, announced compactions beyond
    /// 2^32, or a delivery recorded at a count not reached
    /// yet, cannot have been written by a hook: the cursor starts over, the
    /// announced count from zero, and the records that are not possible
    /// are dropped (with a bad cursor, all of them), so those rules are
    /// due again once. Returns the problem found, for a note.
    pub fn validated(mut self) -> (SessionState, Option<String>) {
        let mut problems = Vec::new();
        let scan = self.transcript_scan;
        if scan.compaction_count > scan.scanned_bytes / SHORTEST_COMPACTION {
            problems.push(format!(
                "its transcript cursor counts {} compactions in {} bytes",
                scan.compaction_count, scan.scanned_bytes
            ));
            self.transcript_scan = ScanCursor::default();
            self.injected.clear();
        }
        if self.announced_compactions > MOST_COMPACTIONS {
            problems.push(format!(
                "it counts {} announced compactions",
                self.announced_compactions
            ));
            self.announced_compactions = 0;
        }
        let reached = self
            .transcript_scan
            .compaction_count
            .max(self.announced_compactions);
        let before = self.injected.len();
        self.injected
            .retain(|_, metrics| metrics.compaction_count <= reached);
        if self.injected.len() < before {
            problems.push(format!(
                "{} rules are recorded at a compaction count above {reached}",
                before - self.injected.len()
            ));
        }
        let problem = (!problems.is_empty()).then(|| {
            format!(
                "counters that no hook could have written ({}); they were reset, and the rules concerned are due again",
                problems.join("; ")
            )
        });
        (self, problem)
    }

    /// Counts a compaction `SessionStart` announced (saturating).
    pub fn announce_compaction(&mut self) {
        self.announced_compactions = self.announced_compactions.saturating_add(1);
    }

    /// The metrics to decide with when the transcript could not be read:
    /// only the compactions `SessionStart` announced, and no size.
    pub fn metrics_without_transcript(&self) -> Metrics {
        Metrics {
            size: None,
            compaction_count: self.announced_compactions,
        }
    }

    /// The rules among `candidates` that are due, in the order given.
    pub fn due<'a, S: AsRef<str> + ?Sized + 'a>(
        &self,
        candidates: impl IntoIterator<Item = &'a S>,
        now: Option<&Metrics>,
    ) -> Vec<String> {
        candidates
            .into_iter()
            .map(AsRef::as_ref)
            .filter(|name| needs_injection(self.injected.get(*name), now))
            .map(str::to_string)
            .collect()
    }

    /// The rules of a selection to deliver now: its ephemeral rules every
    /// time they hold, its durable rules when `needs_injection` says so.
    pub fn due_in(&self, selection: &Selection, now: Option<&Metrics>) -> Vec<String> {
        let needed = self.due(selection.rules.iter(), now);
        selection.due(|name| !needed.iter().any(|n| n == name))
    }

    /// Records the durable rules among `delivered`; ephemeral rules are
    /// never recorded, so they come again with the next event they hold for.
    pub fn record_durable<S: AsRef<str>>(
        &mut self,
        selection: &Selection,
        delivered: &[S],
        now: Option<&Metrics>,
    ) {
        let durable: Vec<&str> = delivered
            .iter()
            .map(AsRef::as_ref)
            .filter(|name| selection.is_durable(name))
            .collect();
        self.record(&durable, now);
    }

    /// Whether a gate problem should be told: it differs from the last one
    /// told in this session. Remembers it.
    pub fn tell_gate_problem(&mut self, problem: &str) -> bool {
        crate::hosts::gate_check::tell_once(&mut self.gate_problem, problem)
    }

    /// The transcript got shorter than what was already read: it was
    /// replaced or truncated, and the records describe a conversation that
    /// is gone. Every rule is due again (once) rather than trusted to be
    /// in a context nobody can see any more.
    pub fn transcript_restarted(&mut self) {
        self.injected.clear();
    }

    /// Records `rules` as delivered now. Unknown metrics record as zero
    /// compactions and no size, so a later compaction still makes them due.
    pub fn record<S: AsRef<str>>(&mut self, rules: &[S], now: Option<&Metrics>) {
        let metrics = now.copied().unwrap_or_default();
        for rule in rules {
            self.injected.insert(rule.as_ref().to_string(), metrics);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(size: u64, compaction_count: u64) -> Metrics {
        Metrics {
            size: Some(size),
            compaction_count,
        }
    }

    #[test]
    fn the_reference_reinjection_cases() {
        let mut state = SessionState::default();
        state.record(&["a.mdc"], Some(&metrics(100, 1)));
        let due = |now: Metrics| state.due(["new.mdc", "a.mdc"], Some(&now));
        assert_eq!(due(metrics(101, 1)), vec!["new.mdc"]);
        assert_eq!(due(metrics(101, 2)), vec!["new.mdc", "a.mdc"]);
        assert_eq!(
            due(metrics(100 + GROWTH_FALLBACK_BYTES - 1, 1)),
            vec!["new.mdc"]
        );
        assert_eq!(
            due(metrics(100 + GROWTH_FALLBACK_BYTES, 1)),
            vec!["new.mdc", "a.mdc"]
        );
    }

    #[test]
    fn without_metrics_only_new_rules_are_due() {
        let mut state = SessionState::default();
        state.record(&["a.mdc"], None);
        assert_eq!(state.injected["a.mdc"], Metrics::default());
        assert_eq!(state.due(["a.mdc", "b.mdc"], None), vec!["b.mdc"]);
        // A rule recorded without a transcript, then a compaction counted.
        assert_eq!(state.due(["a.mdc"], Some(&metrics(5, 1))), vec!["a.mdc"]);
    }

    #[test]
    fn a_restarted_transcript_makes_every_rule_due() {
        let mut state = SessionState::default();
        state.record(&["a.mdc"], Some(&metrics(100, 3)));
        state.transcript_restarted();
        assert_eq!(state.due(["a.mdc"], Some(&metrics(10, 0))), vec!["a.mdc"]);
    }

    #[test]
    fn announced_compactions_stand_in_for_a_missing_transcript() {
        let mut state = SessionState::default();
        let now = state.metrics_without_transcript();
        state.record(&["a.mdc"], Some(&now));
        assert!(state
            .due(["a.mdc"], Some(&state.metrics_without_transcript()))
            .is_empty());
        state.announced_compactions += 1;
        assert_eq!(
            state.due(["a.mdc"], Some(&state.metrics_without_transcript())),
            vec!["a.mdc"]
        );
    }

    #[test]
    fn state_round_trips_through_json_and_tolerates_missing_and_unknown_keys() {
        let mut state = SessionState::default();
        state.record(&["a.mdc"], Some(&metrics(100, 1)));
        state.transcript_scan = ScanCursor {
            scanned_bytes: 90,
            compaction_count: 1,
        };
        state.saved_at_ms = Some(1_700_000_000_000);
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(
            json,
            r#"{"injected":{"a.mdc":{"size":100,"compaction_count":1}},"transcript_scan":{"scanned_bytes":90,"compaction_count":1},"announced_compactions":0,"shell":{"pending":[]},"saved_at_ms":1700000000000}"#
        );
        assert_eq!(serde_json::from_str::<SessionState>(&json).unwrap(), state);
        let sparse: SessionState =
            serde_json::from_str(r#"{"injected":{"b.mdc":{"compaction_count":0}},"later":1}"#)
                .unwrap();
        assert_eq!(sparse.injected["b.mdc"], Metrics::default());
        assert_eq!(sparse.transcript_scan, ScanCursor::default());
    }

    #[test]
    fn ephemeral_rules_are_due_every_time_and_never_recorded() {
        use crate::base::fs::MemoryFs;
        use crate::delivery::selection::select;
        use crate::matching::event::{Event, Query};
        use crate::matching::facts::Facts;
        use crate::matching::project::Project;
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "---\nalwaysApply: true\n---\nA")
            .add_file("/p/.cursor/rules/m.mdc", "---\nmodel: [gpt-5]\n---\nM");
        let project = Project::load(&fs, "/p").unwrap();
        let facts = Facts {
            model: Some("gpt-5".into()),
            ..Facts::default()
        };
        let selection = select(&project, &Query::new(&Event::prompt("x"), &facts));
        let mut state = SessionState::default();
        let now = metrics(10, 0);
        let first = state.due_in(&selection, Some(&now));
        assert_eq!(first, vec!["a.mdc", "m.mdc"]);
        state.record_durable(&selection, &first, Some(&now));
        assert_eq!(state.injected.keys().collect::<Vec<_>>(), vec!["a.mdc"]);
        assert_eq!(state.due_in(&selection, Some(&now)), vec!["m.mdc"]);
        assert_eq!(
            state.due_in(&selection, Some(&metrics(10, 1))),
            vec!["a.mdc", "m.mdc"]
        );
    }

    #[test]
    fn impossible_counters_are_reset_and_never_overflow() {
        let mut state = SessionState::default();
        state.record(&["a.mdc"], Some(&metrics(100, 1)));
        state.record(&["b.mdc"], Some(&metrics(100, u64::MAX)));
        state.transcript_scan = ScanCursor {
            scanned_bytes: 100,
            compaction_count: 1,
        };
        let (checked, problem) = state.validated();
        assert_eq!(checked.injected.keys().collect::<Vec<_>>(), vec!["a.mdc"]);
        assert!(problem
            .unwrap()
            .contains("1 rules are recorded at a compaction count above 1"));
        let mut forged = SessionState::default();
        forged.record(&["a.mdc"], Some(&metrics(100, 3)));
        forged.transcript_scan = ScanCursor {
            scanned_bytes: 100,
            compaction_count: u64::MAX,
        };
        forged.announced_compactions = u64::MAX;
        let (mut checked, problem) = forged.validated();
        assert_eq!(checked.transcript_scan, ScanCursor::default());
        assert!(checked.injected.is_empty());
        assert_eq!(checked.announced_compactions, 0);
        let problem = problem.unwrap();
        assert!(
            problem.contains("counts 18446744073709551615 compactions in 100 bytes"),
            "{problem}"
        );
        checked.announced_compactions = u64::MAX;
        checked.announce_compaction();
        assert_eq!(checked.announced_compactions, u64::MAX);
        // A state a hook wrote passes unchanged.
        let (same, none) = SessionState::default().validated();
        assert_eq!(same, SessionState::default());
        assert!(none.is_none());
    }

    #[test]
    fn a_gate_problem_is_told_once_until_it_changes() {
        let mut state = SessionState::default();
        assert!(state.tell_gate_problem("bad rule"));
        assert!(!state.tell_gate_problem("bad rule"));
        assert!(state.tell_gate_problem("other"));
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn needs_injection_example() {
        use crate::hosts::codex::state::{needs_injection, Metrics};
        let then = Metrics {
            size: Some(100),
            compaction_count: 1,
        };
        let later = Metrics {
            size: Some(101),
            compaction_count: 1,
        };
        let compacted = Metrics {
            size: Some(101),
            compaction_count: 2,
        };
        assert!(needs_injection(None, Some(&later)));
        assert!(!needs_injection(Some(&then), Some(&later)));
        assert!(needs_injection(Some(&then), Some(&compacted)));
        assert!(!needs_injection(Some(&then), None));
    }
}
