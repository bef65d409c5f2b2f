//! One Claude Code delivery decision (behaviour §5.2.2): select the event's
//! rules, drop those the model still holds or got less than a minute ago,
//! fit the rest into frames, and say what to record. The mod gathers the
//! inputs (rule files, the conversation, git, the clock) and carries the
//! outcome (context entries, the saved state); everything else is here.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::base::fs::FileSource;
use crate::delivery::broken::{broken_entry, broken_summary, BrokenRule};
use crate::delivery::frames::FrameLimits;
use crate::delivery::notice::reasons_of;
use crate::delivery::selection::{
    frames_delivery, select, with_instructions_left_out, Frames, Selection,
};
use crate::hosts::claude::state::SessionState;
use crate::hosts::failure::{delivery_failed, failure_summary};
use crate::hosts::journal::{chars_of, rule_records};
use crate::matching::event::{Event, Query};
use crate::matching::project::Project;
use crate::render::labels::{line_safe, thread_delivery_line};
use crate::rules::instructions::HostLoading;

use crate::matching::held_back::RECENT_DELIVERY_MS;

/// The result of one delivery decision.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Outcome {
    /// Context entries to attach, in order: the frames, then the one entry
    /// naming the broken rules left out and the invalid globs reached.
    pub entries: Vec<String>,
    /// Frames of the rules on per-turn facts, for a host that sends them
    /// with the turn's model calls only (opencode); empty for Claude Code,
    /// whose entries carry them.
    pub per_turn: Vec<String>,
    /// Rules the frames carry, now recorded.
    pub delivered: Vec<String>,
    /// Rules left for the next matching event.
    pub deferred: Vec<String>,
    /// Lines for the transcript: what failed, or the broken rules left
    /// out, when something did.
    pub log: Vec<String>,
    /// The session state to save.
    pub state: SessionState,
}

/// Whether a delivered rule is still held: whole in the conversation, or
/// delivered less than [`RECENT_DELIVERY_MS`] before `now` (exactly that
/// long ago is not).
pub(crate) fn is_held(
    rule: &str,
    in_context: &[String],
    delivered: &BTreeMap<String, i64>,
    now_ms: i64,
) -> bool {
    // The conversation names a rule as its marker wrote it, line-safe.
    let marked = line_safe(rule);
    in_context.iter().any(|c| *c == marked)
        || delivered
            .get(rule)
            .is_some_and(|&at| now_ms - at < RECENT_DELIVERY_MS)
}

/// The selected rules to deliver now, in match order: every ephemeral
/// rule, and each durable rule not [`is_held`] (the one engine decision,
/// [`Selection::due`]).
pub(crate) fn due_in(
    selection: &Selection,
    in_context: &[String],
    delivered: &BTreeMap<String, i64>,
    now_ms: i64,
) -> Vec<String> {
    selection.due(|rule| is_held(rule, in_context, delivered, now_ms))
}

/// What one decision reads besides the project and the event.
#[derive(Clone, Copy)]
pub(crate) struct Circumstances<'a> {
    /// Names the delivery in its shard headers.
    pub delivery_id: &'a str,
    /// The rules the conversation holds whole
    /// ([`crate::hosts::claude::context::rules_in_context`]).
    pub in_context: &'a [String],
    pub now_ms: i64,
    pub limits: FrameLimits,
    /// Whether an instruction file (project-relative) may be there, as far
    /// as git's listing tells (behaviour §5.2.2): only those are looked for.
    pub may_exist_instructions: &'a dyn Fn(&str) -> bool,
    /// Which instruction files the host loads itself (behaviour §5.2.2,
    /// §5.2.4): the others are delivered.
    pub loading: HostLoading,
    /// The thread the person's line names when it is not the main one
    /// (`subagent a1b2`, `new subagent`).
    pub thread: Option<&'a str>,
    /// Whether the rules on per-turn facts go apart, as
    /// [`Outcome::per_turn`] (behaviour §5.2.4).
    pub per_turn_apart: bool,
}

/// Decides one event. `state` is the session's saved state and comes back,
/// changed, in the outcome. A broken rule is left out, named in one entry
/// and not recorded, and the other rules are delivered. A failure leaves
/// nothing recorded: the outcome then carries one error entry, and the
/// shell paths stay pending for the next command.
pub(crate) fn decide(
    fs: &dyn FileSource,
    project: &Project,
    query: &Query<'_>,
    mut state: SessionState,
    circumstances: Circumstances<'_>,
) -> Outcome {
    let Circumstances {
        delivery_id,
        in_context,
        now_ms,
        limits,
        may_exist_instructions,
        loading,
        thread,
        per_turn_apart,
    } = circumstances;
    let event = query.event;
    let kind = event.kind().name();
    let fail = |mut state: SessionState, detail: String| {
        let log = vec![format!(
            "rule-fairy: {}",
            failure_summary(kind, "failed", &detail)
        )];
        state.journal.record_problems(now_ms, &log);
        Outcome {
            entries: vec![delivery_failed(kind, "failed", &detail)],
            log,
            state,
            ..Outcome::default()
        }
    };
    if let Event::Prompt { .. } = event {
        // The prompt starts the shell check, so the first command reports
        // only what changed after the session began working.
        match project.config.shell_hook() {
            Ok(hook) if hook.claude => {
                state.shell.start(now_ms);
            }
            Ok(_) => {}
            Err(error) => return fail(state, error.to_string()),
        }
    }
    let selection = with_instructions_left_out(
        fs,
        project,
        select(project, query),
        event,
        loading,
        may_exist_instructions,
    );
    // Invalid globs and patterns the event reached: named with the broken
    // rules of the delivery, in one entry (behaviour §4.10).
    let reached = selection.reached_broken(project);
    let due = due_in(&selection, in_context, &state.delivered, now_ms);
    let shell_paths = match event {
        Event::Shell { paths } => paths.as_slice(),
        _ => &[],
    };
    if due.is_empty() {
        state.shell.clear(shell_paths);
        let log = broken_log(&reached);
        state.journal.record_problems(now_ms, &log);
        return Outcome {
            entries: broken_entry(&reached).into_iter().collect(),
            log,
            state,
            ..Outcome::default()
        };
    }
    // Where the host sends per-turn rules apart, they are fitted into
    // frames of their own, named by a delivery id of their own.
    let (durable, per_turn): (Vec<String>, Vec<String>) = if per_turn_apart {
        due.into_iter().partition(|rule| selection.is_durable(rule))
    } else {
        (due, Vec::new())
    };
    let fitted = |rules: &[String], delivery_id: &str| {
        if rules.is_empty() {
            return Ok(Default::default());
        }
        let frames = Frames {
            delivery_id,
            limits,
            loading,
        };
        frames_delivery(fs, project, &selection.trigger, rules, frames)
    };
    let mut delivery = match fitted(&durable, delivery_id) {
        Ok(delivery) => delivery,
        Err(error) => return fail(state, error.to_string()),
    };
    let per_turn = match fitted(&per_turn, &format!("{delivery_id}t")) {
        Ok(turn) => {
            delivery.delivered.extend(turn.delivered);
            delivery.deferred.extend(turn.deferred);
            delivery.broken.extend(turn.broken);
            delivery.sizes.extend(turn.sizes);
            turn.frames
        }
        Err(error) => return fail(state, error.to_string()),
    };
    // Ephemeral rules are never recorded: they come with every event they
    // hold for, whatever the conversation or the last minute holds.
    for rule in delivery
        .delivered
        .iter()
        .filter(|r| selection.is_durable(r))
    {
        state.delivered.insert(rule.clone(), now_ms);
    }
    // A shell path leaves once its rules reached the agent; one a deferred
    // or broken rule matched stays for the next command (behaviour §5.4).
    let left_out: Vec<&str> = delivery
        .deferred
        .iter()
        .map(String::as_str)
        .chain(delivery.broken.iter().map(|b| b.rule.as_str()))
        .collect();
    state
        .shell
        .clear(&selection.settled_paths(shell_paths, &left_out));
    let mut broken = delivery.broken.clone();
    broken.extend(reached.iter().cloned());
    let entries = delivery.entries_with(&reached);
    let problems = broken_log(&broken);
    state.journal.record_problems(now_ms, &problems);
    // The person's line goes first, the problems after it (behaviour §10.1).
    let reasons = reasons_of(project, query, &selection.trigger, &delivery.delivered);
    let mut log: Vec<String> = (!reasons.is_empty() && project.config.notify())
        .then(|| thread_delivery_line(thread, &reasons, &delivery.deferred))
        .into_iter()
        .collect();
    log.extend(problems);
    let framed: u64 = delivery
        .frames
        .iter()
        .chain(&per_turn)
        .map(|frame| chars_of(frame))
        .sum();
    state.journal.record_delivery(
        now_ms,
        event.kind(),
        rule_records(reasons, &delivery.sizes),
        delivery.deferred.clone(),
        framed,
    );
    Outcome {
        entries,
        per_turn,
        delivered: delivery.delivered,
        deferred: delivery.deferred,
        log,
        state,
    }
}

/// The transcript line for the broken rules an event left out.
fn broken_log(broken: &[BrokenRule]) -> Vec<String> {
    broken_summary(broken)
        .map(|summary| format!("rule-fairy: {summary}"))
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_named_with_a_line_break_is_held_as_its_marker_names_it() {
        // The marker wrote the name line-safe; the conversation is read in
        // that form, and the rule still counts as held.
        let in_context = ["a\\nb.mdc".to_string()];
        let none = std::collections::BTreeMap::new();
        assert!(is_held("a\nb.mdc", &in_context, &none, 0));
        assert!(!is_held("a.mdc", &in_context, &none, 0));
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn is_held_example() {
        use crate::hosts::claude::event::is_held;
        use std::collections::BTreeMap;
        let delivered = BTreeMap::from([("b.mdc".to_string(), 1_000), ("c.mdc".to_string(), 0)]);
        let in_context = ["d.mdc".to_string()];
        let held = |rule| is_held(rule, &in_context, &delivered, 60_000);
        assert_eq!(
            (held("a.mdc"), held("b.mdc"), held("c.mdc"), held("d.mdc")),
            (false, true, false, true)
        );
    }
}
