//! PostToolUse: rules for the files an edit tool names, or, after a shell
//! command with the shell hook on, for the files the shell check finds
//! (behaviour §5.3, post-edit hook; 5.4). The context is plain
//! `additionalContext`: it reaches the model before its next step, and the
//! tool's real result stays visible.

use rule_fairy_engine::delivery::codex_text::EditSource;
use rule_fairy_engine::delivery::selection::{
    codex_post_edit_text, select_edit_with, select_shell_with, Selection,
};
use rule_fairy_engine::matching::project::Project;
use serde_json::Value;

use super::edited_path::project_relative;
use super::failure::{self, Kind};
use super::gate;
use super::input::HookInput;
use super::output::{Event, HookOutput};
use super::session::{now_ms, OpenSession};
use super::session_id::SessionId;
use super::shell_check::changed_paths;
use super::tool_paths::edited_paths;
use super::{facts, failed, finish, load_project, note, problems, session_of, Outcome};
use crate::commands::explain::located;
use crate::stdfs::StdFs;

const EVENT: Event = Event::PostToolUse;

/// Codex's name for its shell tool in hook input, whatever the model
/// called it (`exec_command`, `shell`).
const SHELL_TOOL: &str = "Bash";

pub fn run(input: &HookInput) -> Outcome {
    let checked = session_of(input).and_then(|session| {
        let tool = HookInput::required(&input.tool_name, "tool_name")?;
        let tool_input = input
            .tool_input
            .as_ref()
            .ok_or("the hook input has no `tool_input`, so there is nothing to do")?;
        Ok((session, tool, tool_input))
    });
    let (session, tool, tool_input) = match checked {
        Ok(found) => found,
        Err(problem) => return Outcome::Refused(problem),
    };
    let transcript = input.transcript_path.as_deref();
    if tool == SHELL_TOOL {
        shell(input, session, transcript)
    } else {
        edit(input, session, tool_input, transcript)
    }
}

fn edit(
    input: &HookInput,
    session: SessionId,
    tool_input: &Value,
    transcript: Option<&str>,
) -> Outcome {
    let written = edited_paths(tool_input);
    if written.is_empty() {
        return Outcome::Nothing;
    }
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EVENT, Kind::Edit, &e),
    };
    // Codex runs hooks in the session's working directory; tool paths are
    // relative to it (stdin `cwd` can be a shell call's workdir instead).
    let session_dir = match std::env::current_dir() {
        Ok(dir) => dir.to_string_lossy().into_owned(),
        Err(e) => {
            return failed(
                EVENT,
                Kind::Edit,
                &format!("cannot read the working directory: {e}"),
            )
        }
    };
    let relative: Vec<String> = written
        .iter()
        .map(|path| project_relative(&project.root, &session_dir, path))
        .collect();
    let selection = select_edit_with(&StdFs, &project, &relative, &facts(input, &project));
    let mut problems = problems(&project, &selection.errors);
    let findings = gate::check(&project, &session_dir, &written);
    if selection.rules.is_empty() && findings.is_clean() {
        return finish(None, &problems);
    }
    let mut open = match OpenSession::open(&project.root, session, transcript) {
        Ok(open) => open,
        Err(e) => return failed(EVENT, Kind::Edit, &e),
    };
    let output = deliver(&project, &mut open, &selection, EditSource::Tool)
        .unwrap_or_else(|detail| Some(failure::output(EVENT, Kind::Edit, &detail)));
    let output = findings.attach(output, &mut open.state, &mut problems);
    if let Err(e) = open.close() {
        note(&e);
        problems.push(e);
    }
    finish(output, &problems)
}

fn shell(input: &HookInput, session: SessionId, transcript: Option<&str>) -> Outcome {
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EVENT, Kind::Shell, &e),
    };
    match project.config.shell_hook() {
        // Off (the default for Codex): no git process, nothing recorded.
        Ok(hook) if !hook.codex => return Outcome::Nothing,
        Ok(_) => {}
        Err(e) => return failed(EVENT, Kind::Shell, &located(&project.root, &e)),
    }
    let mut open = match OpenSession::open(&project.root, session, transcript) {
        Ok(open) => open,
        Err(e) => return failed(EVENT, Kind::Shell, &e),
    };
    // Taken before git runs, so a write during the check is seen next time.
    let started = now_ms();
    let found = match open.state.shell.checked_at_ms {
        None => Vec::new(),
        Some(marker) => match changed_paths(&project.root, marker) {
            Ok(found) => found,
            Err(e) => {
                // The marker stays, so the next check covers this window.
                let _ = open.close();
                return failed(EVENT, Kind::Shell, &e);
            }
        },
    };
    let pending = open.state.shell.record_check(started, &found).to_vec();
    let mut problems = Vec::new();
    let mut output = None;
    if !pending.is_empty() {
        let selection = select_shell_with(&StdFs, &project, &pending, &facts(input, &project));
        problems = super::problems(&project, &selection.errors);
        match deliver(&project, &mut open, &selection, EditSource::Shell) {
            Ok(delivered) => {
                // A path leaves the pending list once its rules reached the
                // agent; an invalid glob keeps it, so fixing the rule still
                // delivers for the change.
                if selection.errors.is_empty() {
                    open.state.shell.clear(&pending);
                }
                output = delivered;
            }
            Err(detail) => output = Some(failure::output(EVENT, Kind::Shell, &detail)),
        }
    }
    if let Err(e) = open.close() {
        note(&e);
        problems.push(e);
    }
    finish(output, &problems)
}

/// Under the lock: renders the selection's due rules and records the
/// durable ones. `Ok(None)` when none is due; `Err` with the located
/// problem when rendering failed, and then nothing is recorded.
fn deliver(
    project: &Project,
    open: &mut OpenSession,
    selection: &Selection,
    source: EditSource,
) -> Result<Option<HookOutput>, String> {
    let now = open.metrics();
    let due = open.state.due_in(selection, Some(&now));
    if due.is_empty() {
        return Ok(None);
    }
    match codex_post_edit_text(&StdFs, project, &due, &selection.matched_paths, source) {
        Ok(text) => {
            open.state.record_durable(selection, &due, Some(&now));
            Ok(Some(HookOutput::context(EVENT, text)))
        }
        Err(e) => {
            let detail = located(&project.root, &e.error);
            note(&detail);
            Err(detail)
        }
    }
}
