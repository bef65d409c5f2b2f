//! What a session has received (behaviour §10.2): each delivery with its
//! rules, why and how large, and the problems told, kept in the session
//! state of both hosts for `rule-fairy status` and the person's line. Only
//! the newest records are kept, so the state stays small whatever the
//! session's length; the totals count every delivery.

use serde::{Deserialize, Serialize};

use crate::base::text::utf16_len;
use crate::matching::event::EventKind;
use crate::matching::explain::Reason;

/// Deliveries kept in full; older ones are counted in the totals only.
/// Every hook reads and writes the state, so this bounds what the journal
/// adds to an event: at 100 records about 5% of a Codex prompt hook that
/// delivers nothing (docs/benchmarks.md).
pub(crate) const KEPT_DELIVERIES: usize = 100;
/// Distinct problems kept; a problem told again is counted, not kept twice.
pub(crate) const KEPT_PROBLEMS: usize = 50;

/// A session's record of what it received.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Journal {
    /// The newest deliveries, oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deliveries: Vec<DeliveryRecord>,
    /// The problems told, in the order first told.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<ProblemRecord>,
    /// Every delivery of the session, kept or not.
    pub totals: Totals,
}

/// One delivery.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeliveryRecord {
    /// When, in epoch milliseconds.
    pub at_ms: i64,
    /// The event, as labels name it (`prompt`, `edit`, `shell`, `read`,
    /// `session start`).
    pub event: String,
    /// The rules delivered, in delivery order.
    pub rules: Vec<RuleRecord>,
    /// Rules that did not fit and come with the next matching event.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deferred: Vec<String>,
    /// The characters (UTF-16 units, as the hosts count them) the delivery
    /// put in the context: every rule, the documentation they import, and
    /// the labels around them.
    pub chars: u64,
}

/// One rule of a delivery.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleRecord {
    /// The rule's name (an instruction file's or the index's as delivered).
    pub name: String,
    /// Why the event selected it.
    pub reasons: Vec<Reason>,
    /// The characters of the rule's own block (its heading and text, the
    /// documentation it imports not counted).
    pub chars: u64,
}

/// One problem told to the person.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProblemRecord {
    /// The line the person was shown.
    pub text: String,
    /// When it was first told, in epoch milliseconds.
    pub first_at_ms: i64,
    /// When it was last told.
    pub last_at_ms: i64,
    /// How many times it was told.
    pub count: u64,
}

/// Every delivery of the session, whether its record is kept or not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Totals {
    /// Deliveries made.
    pub deliveries: u64,
    /// Rules delivered, counting a rule delivered again each time.
    pub rules: u64,
    /// Characters delivered, as [`DeliveryRecord::chars`] counts them.
    pub chars: u64,
}

impl Journal {
    /// Whether nothing was recorded (a state saved without a journal).
    pub fn is_empty(&self) -> bool {
        self.deliveries.is_empty() && self.problems.is_empty() && self.totals.deliveries == 0
    }

    /// Records a delivery of `rules` at `at_ms`; nothing when no rule was
    /// delivered.
    pub(crate) fn record_delivery(
        &mut self,
        at_ms: i64,
        event: EventKind,
        rules: Vec<RuleRecord>,
        deferred: Vec<String>,
        chars: u64,
    ) {
        if rules.is_empty() {
            return;
        }
        self.totals.deliveries += 1;
        self.totals.rules += rules.len() as u64;
        self.totals.chars += chars;
        self.deliveries.push(DeliveryRecord {
            at_ms,
            event: event.name().to_string(),
            rules,
            deferred,
            chars,
        });
        if self.deliveries.len() > KEPT_DELIVERIES {
            let over = self.deliveries.len() - KEPT_DELIVERIES;
            self.deliveries.drain(..over);
        }
    }

    /// Records the problems told at `at_ms`: one told before is counted
    /// again; past [`KEPT_PROBLEMS`] the oldest go.
    pub(crate) fn record_problems<S: AsRef<str>>(&mut self, at_ms: i64, told: &[S]) {
        for text in told {
            let text = text.as_ref();
            if let Some(known) = self.problems.iter_mut().find(|p| p.text == text) {
                known.count += 1;
                known.last_at_ms = at_ms;
                continue;
            }
            self.problems.push(ProblemRecord {
                text: text.to_string(),
                first_at_ms: at_ms,
                last_at_ms: at_ms,
                count: 1,
            });
        }
        if self.problems.len() > KEPT_PROBLEMS {
            let over = self.problems.len() - KEPT_PROBLEMS;
            self.problems.drain(..over);
        }
    }
}

/// The characters of `text` as the journal counts them.
pub(crate) fn chars_of(text: &str) -> u64 {
    utf16_len(text) as u64
}

/// Each delivered rule's record: its reasons, and the size of its own block
/// from `sizes` (name and characters; 0 when absent).
pub(crate) fn rule_records(
    reasons: Vec<(String, Vec<Reason>)>,
    sizes: &[(String, u64)],
) -> Vec<RuleRecord> {
    reasons
        .into_iter()
        .map(|(name, reasons)| {
            let chars = sizes
                .iter()
                .filter(|(sized, _)| *sized == name)
                .map(|(_, chars)| chars)
                .sum();
            RuleRecord {
                name,
                reasons,
                chars,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(name: &str) -> RuleRecord {
        RuleRecord {
            name: name.into(),
            reasons: vec![Reason::AlwaysApply],
            chars: 10,
        }
    }

    #[test]
    fn the_newest_deliveries_are_kept_and_all_are_counted() {
        let mut journal = Journal::default();
        for at in 0..(KEPT_DELIVERIES as i64 + 5) {
            journal.record_delivery(at, EventKind::Prompt, vec![rule("a.mdc")], Vec::new(), 30);
        }
        journal.record_delivery(9_999, EventKind::Edit, Vec::new(), Vec::new(), 0);
        assert_eq!(journal.deliveries.len(), KEPT_DELIVERIES);
        assert_eq!(journal.deliveries[0].at_ms, 5);
        assert_eq!(
            journal.totals,
            Totals {
                deliveries: KEPT_DELIVERIES as u64 + 5,
                rules: KEPT_DELIVERIES as u64 + 5,
                chars: 30 * (KEPT_DELIVERIES as u64 + 5)
            }
        );
    }

    #[test]
    fn a_problem_told_again_is_counted_once() {
        let mut journal = Journal::default();
        journal.record_problems(1, &["x broke", "y broke"]);
        journal.record_problems(5, &["x broke"]);
        assert_eq!(journal.problems.len(), 2);
        assert_eq!(
            (
                journal.problems[0].count,
                journal.problems[0].first_at_ms,
                journal.problems[0].last_at_ms
            ),
            (2, 1, 5)
        );
        for n in 0..KEPT_PROBLEMS {
            journal.record_problems(10, &[format!("p{n}")]);
        }
        assert_eq!(journal.problems.len(), KEPT_PROBLEMS);
        assert_eq!(journal.problems[0].text, "p0");
    }

    #[test]
    fn a_journal_reads_back() {
        let mut journal = Journal::default();
        journal.record_delivery(
            7,
            EventKind::Edit,
            vec![rule("t.mdc")],
            vec!["u.mdc".into()],
            99,
        );
        let text = serde_json::to_string(&journal).unwrap();
        assert_eq!(
            text,
            r#"{"deliveries":[{"atMs":7,"event":"edit","rules":[{"name":"t.mdc","reasons":[{"kind":"alwaysApply"}],"chars":10}],"deferred":["u.mdc"],"chars":99}],"totals":{"deliveries":1,"rules":1,"chars":99}}"#
        );
        assert_eq!(serde_json::from_str::<Journal>(&text).unwrap(), journal);
    }
}
