//! Whether a rule that fires would still be held back by what the session
//! already delivered: a durable rule is delivered once, and held back
//! while the conversation holds it or for a minute after its delivery in
//! Claude Code (behaviour §5.2.2), until a compaction in Codex (§5.3); an
//! ephemeral rule (§2.4) is never held back. Given a view of the session's
//! record the answer is exact; without one it is the rule, stated.

use serde::{Deserialize, Serialize};

/// How long Claude Code holds back a durable rule after delivering it,
/// whatever the conversation shows: hooks of tool calls run in parallel
/// read the conversation before each other's results land (§5.2.2).
pub(crate) const RECENT_DELIVERY_MS: i64 = 60_000;

/// What a session's record says of one rule, as a host read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "host", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum HeldBy {
    /// Claude Code's record and conversation.
    #[serde(rename_all = "camelCase")]
    Claude {
        /// When the rule was last delivered (milliseconds since the epoch),
        /// as the record holds it; `None` when it never was.
        delivered_at: Option<i64>,
        /// Whether the conversation's frame heads still name it (§5.5).
        in_conversation: bool,
        /// The time now, in the same unit.
        now: i64,
    },
    /// Codex's session record.
    #[serde(rename_all = "camelCase")]
    Codex {
        /// Whether the record holds a delivery of the rule.
        delivered: bool,
        /// Whether it is due again since: the compaction count grew, or the
        /// transcript grew by 2 MiB (§5.3).
        due_again: bool,
    },
}

/// Why a rule that fires is held back or delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum HoldReason {
    /// Ephemeral: delivered every turn it holds.
    Ephemeral,
    /// Never delivered in this session.
    NeverDelivered,
    /// Claude Code's conversation still holds its delivery.
    InConversation,
    /// Claude Code delivered it less than a minute ago.
    DeliveredRecently,
    /// Delivered before, but gone from the conversation a minute or more
    /// after (Claude Code), or due again after a compaction (Codex).
    DueAgain,
    /// Codex delivered it and nothing since made it due.
    Delivered,
}

/// Whether a delivery record holds the rule back, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct HoldBack {
    /// Held back: it would fire, and still not be delivered.
    pub held: bool,
    /// Why.
    pub reason: HoldReason,
    /// For a Claude Code delivery, how long ago it was (milliseconds).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub ago_ms: Option<i64>,
}

/// What a delivery record does with a rule once it fires.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Delivery {
    /// Ephemeral (per-turn facts): never recorded, never held back;
    /// otherwise durable, delivered once per session.
    pub ephemeral: bool,
    /// The session's answer, when a view of its record was given; without
    /// one the rule above is all there is to say.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub session: Option<HoldBack>,
}

/// What a record does with a rule, `ephemeral` or durable.
pub(crate) fn delivery(ephemeral: bool, held_by: Option<&HeldBy>) -> Delivery {
    let session = held_by.map(|held_by| hold_back(ephemeral, held_by));
    Delivery { ephemeral, session }
}

fn hold_back(ephemeral: bool, held_by: &HeldBy) -> HoldBack {
    let answer = |held, reason, ago_ms| HoldBack {
        held,
        reason,
        ago_ms,
    };
    if ephemeral {
        return answer(false, HoldReason::Ephemeral, None);
    }
    match *held_by {
        HeldBy::Claude {
            delivered_at,
            in_conversation,
            now,
        } => {
            let ago = delivered_at.map(|at| now.saturating_sub(at));
            if in_conversation {
                answer(true, HoldReason::InConversation, ago)
            } else {
                match ago {
                    None => answer(false, HoldReason::NeverDelivered, None),
                    // Exactly a minute ago is due (§5.2.2: strictly less holds).
                    Some(ms) if ms < RECENT_DELIVERY_MS => {
                        answer(true, HoldReason::DeliveredRecently, ago)
                    }
                    Some(_) => answer(false, HoldReason::DueAgain, ago),
                }
            }
        }
        HeldBy::Codex {
            delivered,
            due_again,
        } => match (delivered, due_again) {
            (false, _) => answer(false, HoldReason::NeverDelivered, None),
            (true, true) => answer(false, HoldReason::DueAgain, None),
            (true, false) => answer(true, HoldReason::Delivered, None),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude(delivered_at: Option<i64>, in_conversation: bool) -> HoldBack {
        let view = HeldBy::Claude {
            delivered_at,
            in_conversation,
            now: 100_000,
        };
        delivery(false, Some(&view)).session.unwrap()
    }

    #[test]
    fn claude_code_holds_a_durable_rule_while_the_conversation_has_it_or_for_a_minute() {
        assert_eq!(claude(None, false).reason, HoldReason::NeverDelivered);
        let held = claude(Some(10_000), true);
        assert!(held.held && held.reason == HoldReason::InConversation);
        let recent = claude(Some(40_001), false);
        assert_eq!(
            recent,
            HoldBack {
                held: true,
                reason: HoldReason::DeliveredRecently,
                ago_ms: Some(59_999)
            }
        );
        let minute = claude(Some(40_000), false);
        assert!(!minute.held && minute.reason == HoldReason::DueAgain);
    }

    #[test]
    fn codex_holds_a_durable_rule_until_it_is_due_again() {
        let codex = |delivered, due_again| {
            let view = HeldBy::Codex {
                delivered,
                due_again,
            };
            delivery(false, Some(&view)).session.unwrap()
        };
        assert!(codex(true, false).held);
        assert_eq!(codex(true, true).reason, HoldReason::DueAgain);
        assert_eq!(codex(false, false).reason, HoldReason::NeverDelivered);
    }

    #[test]
    fn an_ephemeral_rule_is_never_held_back_and_no_view_states_the_rule() {
        let view = HeldBy::Claude {
            delivered_at: Some(99_000),
            in_conversation: true,
            now: 100_000,
        };
        let ephemeral = delivery(true, Some(&view));
        assert_eq!(ephemeral.session.unwrap().reason, HoldReason::Ephemeral);
        assert_eq!(
            delivery(false, None),
            Delivery {
                ephemeral: false,
                session: None
            }
        );
        let json: HeldBy = serde_json::from_value(serde_json::json!(
            {"host": "claude", "deliveredAt": 5, "inConversation": false, "now": 6}
        ))
        .unwrap();
        assert_eq!(
            hold_back(false, &json),
            HoldBack {
                held: true,
                reason: HoldReason::DeliveredRecently,
                ago_ms: Some(1)
            }
        );
    }
}
