//! UserPromptSubmit: the always-on and keyword rules a prompt selects that
//! are due in this session (behaviour §5.3, prompt hook). With the shell
//! hook on, the first prompt also starts the session's shell check.

use rule_fairy_engine::delivery::selection::{codex_prompt_text, select_prompt_with, Selection};
use rule_fairy_engine::matching::index::PromptMatch;
use rule_fairy_engine::matching::project::Project;
use rule_fairy_engine::render::prefix::Trigger;

use super::failure::Kind;
use super::input::HookInput;
use super::output::{Event, HookOutput};
use super::session::{now_ms, OpenSession};
use super::{facts, failed, finish, load_project, note, problems, session_of, Outcome};
use crate::commands::explain::located;
use crate::stdfs::StdFs;

const EVENT: Event = Event::UserPromptSubmit;

pub fn run(input: &HookInput) -> Outcome {
    let (session, prompt) = match session_of(input)
        .and_then(|s| HookInput::required(&input.prompt, "prompt").map(|p| (s, p)))
    {
        Ok(found) => found,
        Err(problem) => return Outcome::Refused(problem),
    };
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EVENT, Kind::Prompt, &e),
    };
    let shell_hook = match project.config.shell_hook() {
        Ok(hook) => hook.codex,
        Err(e) => return failed(EVENT, Kind::Prompt, &located(&project.root, &e)),
    };
    // Selecting needs no lock; deciding what is due does.
    let selection = select_prompt_with(&project, prompt, &facts(input, &project));
    let mut problems = problems(&project, &selection.errors);
    let Trigger::Prompt(matches) = &selection.trigger else {
        unreachable!("a prompt selection has a prompt trigger")
    };
    if matches.is_empty() && !shell_hook {
        return finish(None, &problems);
    }
    let mut open = match OpenSession::open(&project.root, session, input.transcript_path.as_deref())
    {
        Ok(open) => open,
        Err(e) => return failed(EVENT, Kind::Prompt, &e),
    };
    if shell_hook {
        open.state.shell.start(now_ms());
    }
    let output = deliver(&project, &mut open, &selection, EVENT, Kind::Prompt);
    if let Err(e) = open.close() {
        note(&e);
        problems.push(e);
    }
    finish(output, &problems)
}

/// Under the lock: renders the due rules of a prompt-like selection (the
/// prompt hook's, or SessionStart's after a compaction) and records the
/// durable ones. Rendering comes first, so a rule that failed to render is
/// not marked as delivered.
pub(super) fn deliver(
    project: &Project,
    open: &mut OpenSession,
    selection: &Selection,
    event: Event,
    kind: Kind,
) -> Option<HookOutput> {
    let Trigger::Prompt(matches) = &selection.trigger else {
        unreachable!("a prompt selection has a prompt trigger")
    };
    let now = open.metrics();
    let due = open.state.due_in(selection, Some(&now));
    if due.is_empty() {
        return None;
    }
    let due_matches: Vec<PromptMatch> = matches
        .iter()
        .filter(|m| due.contains(&m.name))
        .cloned()
        .collect();
    match codex_prompt_text(&StdFs, project, &due_matches) {
        Ok(text) => {
            open.state.record_durable(selection, &due, Some(&now));
            Some(HookOutput::context(event, text))
        }
        Err(e) => {
            let detail = located(&project.root, &e.error);
            note(&detail);
            Some(super::failure::output(event, kind, &detail))
        }
    }
}
