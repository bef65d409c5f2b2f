//! SessionStart, registered for source `compact`: Codex removes every
//! earlier hook context when it compacts, so the rules that need no prompt
//! (always-on rules, and rules whose conditions hold on the session's facts)
//! go back into the conversation at once, right after the summary, instead
//! of waiting for the next prompt. Keyword and glob rules come back with the
//! next event that selects them.

use rule_fairy_engine::delivery::selection::select_prompt_with;

use super::failure::Kind;
use super::input::HookInput;
use super::output::Event;
use super::prompt::deliver;
use super::session::OpenSession;
use super::{facts, failed, finish, load_project, note, problems, session_of, Outcome};

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
    // An empty prompt selects the rules that need none.
    let selection = select_prompt_with(&project, "", &facts(input, &project));
    let mut problems = problems(&project, &selection.errors);
    if selection.rules.is_empty() && !compacted {
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
    let output = deliver(&project, &mut open, &selection, EVENT, Kind::SessionStart);
    if let Err(e) = open.close() {
        note(&e);
        problems.push(e);
    }
    finish(output, &problems)
}
