//! SessionStart, registered for source `compact`: Codex removes every
//! earlier hook context when it compacts, so the always-on rules go back
//! into the conversation at once, right after the summary, instead of
//! waiting for the next prompt. Keyword and glob rules come back with the
//! next event that selects them.

use rule_fairy_engine::delivery::{codex_prompt_text, select_prompt};
use rule_fairy_engine::index::PromptMatch;
use rule_fairy_engine::prefix::Trigger;

use super::failure::Kind;
use super::input::HookInput;
use super::output::{Event, HookOutput};
use super::session::OpenSession;
use super::{failed, finish, load_project, note, problems, session_of, Outcome};
use crate::commands::explain::located;
use crate::stdfs::StdFs;

const EVENT: Event = Event::SessionStart;

pub fn run(input: &HookInput) -> Outcome {
    let session = match session_of(input) {
        Ok(session) => session,
        Err(problem) => return Outcome::Refused(problem),
    };
    let compacted = input.source.as_deref() == Some("compact");
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EVENT, Kind::SessionStart, &e),
    };
    // An empty prompt selects exactly the always-on rules.
    let selection = select_prompt(&project, "");
    let mut problems = problems(&project, &selection.errors);
    let Trigger::Prompt(always_on) = &selection.trigger else {
        unreachable!("a prompt selection has a prompt trigger")
    };
    if always_on.is_empty() && !compacted {
        return finish(None, &problems);
    }
    let mut open = match OpenSession::open(&project.root, session, input.transcript_path.as_deref())
    {
        Ok(open) => open,
        Err(e) => return failed(EVENT, Kind::SessionStart, &e),
    };
    let transcript = open.transcript_metrics();
    if transcript.is_none() && compacted {
        // No transcript to count it in: remember the compaction here, so
        // every delivered rule is due again.
        open.state.announced_compactions += 1;
    }
    let now = transcript.unwrap_or_else(|| open.state.metrics_without_transcript());
    let due = open
        .state
        .due(always_on.iter().map(|m| m.name.as_str()), Some(&now));
    let output = if due.is_empty() {
        None
    } else {
        let due_matches: Vec<PromptMatch> = always_on
            .iter()
            .filter(|m| due.contains(&m.name))
            .cloned()
            .collect();
        match codex_prompt_text(&StdFs, &project, &due_matches) {
            Ok(text) => {
                open.state.record(&due, Some(&now));
                Some(HookOutput::context(EVENT, text))
            }
            Err(e) => {
                let detail = located(&project.root, &e.error);
                note(&detail);
                Some(super::failure::output(EVENT, Kind::SessionStart, &detail))
            }
        }
    };
    if let Err(e) = open.close() {
        note(&e);
        problems.push(e);
    }
    finish(output, &problems)
}
