//! UserPromptSubmit: the always-on and keyword rules a prompt selects that
//! are due in this session (behaviour §5.3, prompt hook). With the shell
//! hook on, the first prompt also starts the session's shell check. The
//! engine decides (`hosts::codex::hook`); this gathers the prompt.

use rule_fairy_engine::gate_check::GateRun;
use rule_fairy_engine::{Event, EventKind};

use super::input::HookInput;
use super::{failed, hook, load_project, session_of, Outcome};

pub(super) fn run(input: &HookInput) -> Outcome {
    let (session, prompt) = match session_of(input)
        .and_then(|s| HookInput::required(&input.prompt, "prompt").map(|p| (s, p)))
    {
        Ok(found) => found,
        Err(problem) => return Outcome::Refused(problem),
    };
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EventKind::Prompt, &e),
    };
    let event = Event::prompt(prompt);
    hook::run(input, project, session, &event, GateRun::Clean)
}
