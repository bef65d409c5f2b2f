//! One Claude Code delivery decision (reference 5.2.2): select the event's
//! rules, drop those the model still holds or got less than a minute ago,
//! fit the rest into frames, and say what to record. The mod gathers the
//! inputs (rule files, the conversation, git, the clock) and carries the
//! outcome (context entries, the saved state); everything else is here.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::claude_labels::{delivery_failed, glob_problem};
use crate::claude_state::SessionState;
use crate::delivery::{claude_delivery, select_edit, select_prompt, select_shell, Selection};
use crate::frames::{DeliveryKind, FrameLimits};
use crate::fs::FileSource;
use crate::project::Project;

/// A rule delivered this long ago or less is not delivered again, whatever
/// the conversation shows: tool calls that run side by side read the
/// conversation before either one's context is in it.
pub const RECENT_DELIVERY_MS: i64 = 60_000;

/// What happened, as the mod hands it to the event.
#[derive(Debug, Clone)]
pub enum ClaudeEvent {
    Prompt {
        text: String,
    },
    /// An edit of one path, project-relative (reference 5.6).
    Edit {
        path: String,
    },
    /// A shell command; `paths` are the session's pending changed paths.
    Shell {
        paths: Vec<String>,
    },
}

impl ClaudeEvent {
    pub fn kind(&self) -> DeliveryKind {
        match self {
            ClaudeEvent::Prompt { .. } => DeliveryKind::Prompt,
            ClaudeEvent::Edit { .. } => DeliveryKind::Edit,
            ClaudeEvent::Shell { .. } => DeliveryKind::Shell,
        }
    }
}

/// The result of one delivery decision.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Context entries to attach, in order: the frames, error entries for
    /// rules too large to deliver, problems the event reached.
    pub entries: Vec<String>,
    /// Rules the frames carry, now recorded.
    pub delivered: Vec<String>,
    /// Rules left for the next matching event.
    pub deferred: Vec<String>,
    /// Lines for the transcript: what failed, when something did.
    pub log: Vec<String>,
    /// The session state to save.
    pub state: SessionState,
}

/// The matched rules that are due: distinct, in match order, less the rules
/// whole in the conversation and those delivered less than
/// [`RECENT_DELIVERY_MS`] before `now` (exactly that long ago is due).
///
/// ```
/// use std::collections::BTreeMap;
/// use rule_fairy_engine::claude_event::due_rules;
/// let delivered = BTreeMap::from([("b.mdc".to_string(), 1_000), ("c.mdc".to_string(), 0)]);
/// let matched = ["a.mdc", "b.mdc", "c.mdc", "d.mdc", "a.mdc"];
/// assert_eq!(due_rules(&matched, &["d.mdc"], &delivered, 60_000), vec!["a.mdc", "c.mdc"]);
/// ```
pub fn due_rules<M: AsRef<str>, C: AsRef<str>>(
    matched: &[M],
    in_context: &[C],
    delivered: &BTreeMap<String, i64>,
    now_ms: i64,
) -> Vec<String> {
    let mut due: Vec<String> = Vec::new();
    for rule in matched.iter().map(AsRef::as_ref) {
        let held = in_context.iter().any(|c| c.as_ref() == rule);
        let recent = delivered
            .get(rule)
            .is_some_and(|&at| now_ms - at < RECENT_DELIVERY_MS);
        if !held && !recent && !due.iter().any(|d| d == rule) {
            due.push(rule.to_string());
        }
    }
    due
}

/// The rules an event selects, in match order, and why.
pub fn select(project: &Project, event: &ClaudeEvent) -> Selection {
    match event {
        ClaudeEvent::Prompt { text } => select_prompt(project, text),
        ClaudeEvent::Edit { path } => select_edit(project, std::slice::from_ref(path)),
        ClaudeEvent::Shell { paths } => select_shell(project, paths),
    }
}

/// What one decision reads besides the project and the event.
#[derive(Debug, Clone, Copy)]
pub struct Circumstances<'a> {
    /// Names the delivery in its shard headers.
    pub delivery_id: &'a str,
    /// The rules the conversation holds whole
    /// ([`crate::claude_context::rules_in_context`]).
    pub in_context: &'a [String],
    pub now_ms: i64,
    pub limits: FrameLimits,
}

/// Decides one event. `state` is the session's saved state and comes back,
/// changed, in the outcome. A failure leaves nothing recorded: the outcome
/// then carries one error entry, and the shell paths stay pending for the
/// next command.
pub fn decide(
    fs: &dyn FileSource,
    project: &Project,
    event: &ClaudeEvent,
    mut state: SessionState,
    circumstances: Circumstances<'_>,
) -> Outcome {
    let Circumstances {
        delivery_id,
        in_context,
        now_ms,
        limits,
    } = circumstances;
    let kind = event.kind().as_str();
    let fail = |state: SessionState, detail: String| Outcome {
        entries: vec![delivery_failed(kind, "failed", &detail)],
        log: vec![format!("rule-fairy: {kind} delivery failed: {detail}")],
        state,
        ..Outcome::default()
    };
    if let ClaudeEvent::Prompt { .. } = event {
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
    let selection = select(project, event);
    let problems: Vec<String> = selection
        .errors
        .iter()
        .map(|error| glob_problem(&project.root, error))
        .collect();
    let due = due_rules(&selection.rules, in_context, &state.delivered, now_ms);
    let shell_paths = match event {
        ClaudeEvent::Shell { paths } => paths.as_slice(),
        _ => &[],
    };
    if due.is_empty() {
        state.shell.clear(shell_paths);
        return Outcome {
            entries: problems,
            state,
            ..Outcome::default()
        };
    }
    let delivery = match claude_delivery(fs, project, &selection.trigger, &due, delivery_id, limits)
    {
        Ok(delivery) => delivery,
        Err(error) => return fail(state, error.to_string()),
    };
    for rule in &delivery.delivered {
        state.delivered.insert(rule.clone(), now_ms);
    }
    if delivery.deferred.is_empty() && delivery.oversized.is_empty() {
        state.shell.clear(shell_paths);
    }
    // Frames first: Claude Code passes one event's entries whole only up
    // to a total size, and past it a short problem entry is what gets cut.
    let mut entries = delivery.entries();
    entries.extend(problems);
    Outcome {
        entries,
        delivered: delivery.delivered,
        deferred: delivery.deferred,
        log: Vec::new(),
        state,
    }
}
