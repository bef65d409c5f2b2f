//! The hook process's side of one Codex decision (the engine's
//! `hosts::codex::hook`): it gathers what the decision asks for (the lock
//! and the saved state, the transcript, git, the clock) and carries the
//! answer out (the output Codex reads, the saved state).

use std::path::Path;

use rule_fairy_engine::codex::{decide, decide_shell, Answer, Delivered, Host};
use rule_fairy_engine::codex::{Metrics, SessionState};
use rule_fairy_engine::gate_check::GateRun;
use rule_fairy_engine::Error;
use rule_fairy_engine::Project;
use rule_fairy_engine::{Event, EventKind};

use super::input::HookInput;
use super::output::HookOutput;
use super::session::{now_ms, plugin_root, OpenSession};
use super::session_id::SessionId;
use super::shell_check::changed_paths;
use super::{emit, facts, failed, finish, note, problems, Outcome};
use crate::commands::explain::located;
use crate::plugin_manifest::read_version;
use crate::stdfs::StdFs;

/// What the engine reaches through [`Host`]: the session, opened when the
/// decision asks for it.
struct Session<'a> {
    id: Option<SessionId>,
    transcript: Option<&'a str>,
    open: Option<OpenSession>,
    /// A subagent's hook: its own record, but its parent's session tells
    /// the person of the plugin's version.
    subagent: bool,
}

impl Host for Session<'_> {
    fn tell(&mut self, project: &Project, errors: &[Error]) -> Vec<String> {
        problems(project, errors)
    }

    fn located(&self, project: &Project, error: &Error) -> String {
        located(&project.root, error)
    }

    fn open(&mut self, project: &Project) -> Result<SessionState, String> {
        let id = self.id.take().ok_or("the session is open already")?;
        let mut open = OpenSession::open(&project.root, id, self.transcript, super::deadline())?;
        let state = std::mem::take(&mut open.state);
        self.open = Some(open);
        Ok(state)
    }

    fn transcript(&mut self, state: &mut SessionState) -> Option<Metrics> {
        self.open.as_ref()?.transcript_metrics(state)
    }

    fn now_ms(&mut self) -> i64 {
        now_ms()
    }

    fn changed_since(&mut self, project: &Project, marker_ms: i64) -> Result<Vec<String>, String> {
        changed_paths(project, marker_ms)
    }

    /// `.codex-plugin/plugin.json` under the plugin's root (the launcher's
    /// `RULE_FAIRY_PLUGIN_ROOT`, or Codex's `PLUGIN_ROOT`). A manifest
    /// that cannot be read is noted on standard error only: the plugin
    /// still runs, and `doctor` reports it.
    fn program_path(&self) -> Option<String> {
        let path = std::env::current_exe().ok()?;
        path.to_str().map(str::to_string)
    }

    fn plugin_version(&mut self) -> Option<String> {
        if self.subagent {
            return None;
        }
        let manifest = Path::new(&plugin_root()?).join(".codex-plugin/plugin.json");
        read_version(&manifest)
            .map_err(|problem| {
                note(&format!(
                    "{problem}; the plugin's version was not compared with the program's"
                ));
            })
            .ok()
    }

    /// Codex runs its hooks in the session's working directory.
    fn working_dir(&self, project: &Project) -> Option<String> {
        let dir = std::env::current_dir().ok()?;
        let dir = dir.to_string_lossy();
        let relative = super::edited_path::project_relative(&project.root, &dir, ".");
        let relative = match relative.as_str() {
            "." => "",
            other => other.trim_end_matches('/'),
        };
        // Outside the project (above it, or elsewhere): none is delivered.
        let outside = rule_fairy_engine::paths::is_absolute(relative)
            || relative == ".."
            || relative.starts_with("../");
        (!outside).then(|| relative.to_string())
    }
}

/// Decides `event` with the engine and carries the answer out: the output
/// is written first, and the state saved only once it was written whole,
/// so a reader that went away (or a hook killed before it printed) leaves
/// no rule recorded that never arrived. `gate` is the check of the files
/// an edit tool wrote.
pub(super) fn run(
    input: &HookInput,
    project: &Project,
    session: SessionId,
    event: &Event,
    gate: GateRun,
) -> Outcome {
    carry(input, project, session, event.kind(), |facts, host| {
        decide(&StdFs, project, event, facts, gate, host)
    })
}

/// [`run`] for a shell command: `read` are the project-relative paths the
/// command names, whose requestable rules come with it (behaviour §9.2).
pub(super) fn run_shell(
    input: &HookInput,
    project: &Project,
    session: SessionId,
    read: &[String],
) -> Outcome {
    carry(input, project, session, EventKind::Shell, |facts, host| {
        decide_shell(&StdFs, project, read, facts, host)
    })
}

/// Decides with `decision` and carries the answer out.
fn carry(
    input: &HookInput,
    project: &Project,
    session: SessionId,
    kind: EventKind,
    decision: impl FnOnce(&rule_fairy_engine::Facts, &mut Session<'_>) -> Answer,
) -> Outcome {
    // `{:subagents false}` leaves a subagent's hooks alone (behaviour §1.1);
    // a bad value is the subagent's error, as in Claude Code.
    if input.agent_id.is_some() {
        match project.config.subagents() {
            Ok(true) => {}
            Ok(false) => return Outcome::Nothing,
            Err(e) => return super::failed(kind, &super::located(&project.root, &e)),
        }
    }
    let mut host = Session {
        id: Some(session),
        transcript: input.transcript_path.as_deref(),
        open: None,
        subagent: input.agent_id.is_some(),
    };
    let facts = facts(input, project);
    match decision(&facts, &mut host) {
        Answer::Failed { detail, state } => {
            let (code, whole) = emit(failed(kind, &detail));
            if let (Some(mut open), Some(state), true) = (host.open.take(), state, whole) {
                open.state = state;
                let _ = open.close();
            }
            Outcome::Emitted(code)
        }
        Answer::Done {
            delivered,
            gate,
            mut problems,
            notice,
            state,
        } => {
            let mut output = delivered.map(|delivered| match delivered {
                Delivered::Context(text) => HookOutput::context(kind, text),
                Delivered::Failed(detail) => {
                    note(&detail);
                    super::failure::output(kind, &detail)
                }
            });
            if let Some(entry) = gate {
                output = Some(HookOutput::appended(output, kind, entry));
            }
            let open = host.open.take();
            if let Some(problem) = open.as_ref().and_then(|o| o.unrecorded.clone()) {
                problems.push(problem);
            }
            // The person's line comes first, the problems after it.
            if let (Some(line), Some(shown)) = (notice, output.as_mut()) {
                shown.system_message = Some(line);
            }
            let (code, whole) = emit(finish(output, &problems));
            if let (Some(mut open), Some(state), true) = (open, state, whole) {
                open.state = state;
                if let Err(e) = open.close() {
                    // Told on standard error only: the output is out.
                    note(&format!("{e}; the rules delivered may be delivered again"));
                }
            }
            Outcome::Emitted(code)
        }
    }
}
