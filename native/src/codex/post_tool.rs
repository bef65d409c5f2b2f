//! PostToolUse: rules for the files an edit tool names, or, after a shell
//! command with the shell hook on, for the files the shell check finds
//! (behaviour §5.3, post-edit hook; §5.4). The context is plain
//! `additionalContext`: it reaches the model before its next step, and the
//! tool's real result stays visible. The engine decides
//! (`hosts::codex::hook`); this gathers the edited paths and the gate's
//! check of the written files.

use rule_fairy_engine::{paths_in_command, Event, EventKind};
use serde_json::Value;

use super::edited_path::project_relative;
use super::gate;
use super::input::HookInput;
use super::session_id::SessionId;
use super::tool_paths::edited_paths;
use super::{failed, hook, load_project, session_of, Outcome};

/// Codex's name for its shell tool in hook input, whatever the model
/// called it (`exec_command`, `shell`).
const SHELL_TOOL: &str = "Bash";

pub(super) fn run(input: &HookInput) -> Outcome {
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
    if tool == SHELL_TOOL {
        shell(input, session, tool_input)
    } else {
        edit(input, session, tool_input)
    }
}

fn edit(input: &HookInput, session: SessionId, tool_input: &Value) -> Outcome {
    let written = edited_paths(tool_input);
    if written.is_empty() {
        return Outcome::Nothing;
    }
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EventKind::Edit, &e),
    };
    // Codex runs hooks in the session's working directory; tool paths are
    // relative to it (stdin `cwd` can be a shell call's workdir instead).
    let session_dir = match std::env::current_dir() {
        Ok(dir) => dir.to_string_lossy().into_owned(),
        Err(e) => {
            return failed(
                EventKind::Edit,
                &format!("cannot read the working directory: {e}"),
            )
        }
    };
    let relative: Vec<String> = written
        .iter()
        .map(|path| project_relative(&project.root, &session_dir, path))
        .collect();
    let event = Event::Edit { paths: relative };
    let findings = gate::check(project, &session_dir, &written);
    hook::run(input, project, session, &event, findings)
}

/// A shell command: the shell check runs under the session's lock, when
/// the engine asks for it (the shell hook is off for Codex by default: no
/// git process, nothing recorded), and the requestable rules whose files
/// the command names come with it either way (behaviour §9.2).
fn shell(input: &HookInput, session: SessionId, tool_input: &Value) -> Outcome {
    let project = match load_project() {
        Ok(project) => project,
        Err(e) => return failed(EventKind::Shell, &e),
    };
    let command = tool_input
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or("");
    // The stdin `cwd` of a shell call is the directory it ran in.
    let cwd = input
        .cwd
        .clone()
        .filter(|dir| rule_fairy_engine::paths::is_absolute(dir))
        .or_else(|| {
            std::env::current_dir()
                .ok()
                .map(|d| d.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| project.root.clone());
    let read = paths_in_command(&project.root, &cwd, command);
    hook::run_shell(input, project, session, &read)
}
