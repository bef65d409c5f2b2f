//! SessionStart, registered for source `compact`: Codex removes every
//! earlier hook context when it compacts, so the rules that need no prompt
//! (always-on rules, and rules whose conditions hold on the session's facts)
//! go back into the conversation at once, right after the summary, instead
//! of waiting for the next prompt. Keyword and glob rules come back with the
//! next event that selects them. The engine decides
//! (`hosts::codex::hook`); this gathers whether the session was compacted.

use rule_fairy_engine::gate_check::GateRun;
use rule_fairy_engine::{Event, EventKind};

use super::input::HookInput;
use super::{failed, hook, load_project, session_of, Outcome};

pub(super) fn run(input: &HookInput) -> Outcome {
    let session = match session_of(input) {
        Ok(session) => session,
        Err(problem) => return Outcome::Refused(problem),
    };
    let compacted = input.source.as_deref() == Some("compact");
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EventKind::SessionStart, &e),
    };
    let event = Event::SessionStart { compacted };
    hook::run(input, project, session, &event, GateRun::Clean)
}

/// SubagentStart: a subagent's context is its own, and its task is not
/// given to hooks, so it starts as a session does after a compaction: the
/// rules that need no prompt (and the index of requestable rules) at once,
/// into its own record.
pub(super) fn subagent(input: &HookInput) -> Outcome {
    super::output::answer_subagent_start();
    let session = match session_of(input) {
        Ok(session) => session,
        Err(problem) => return Outcome::Refused(problem),
    };
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EventKind::SessionStart, &e),
    };
    let event = Event::SessionStart { compacted: false };
    hook::run(input, project, session, &event, GateRun::Clean)
}
