//! `rule-fairy codex prompt|post-tool|session-start`: the Codex hooks; and
//! `rule-fairy codex trust`, which trusts them in Codex.
//!
//! Each reads the hook's JSON on standard input and prints exactly one
//! JSON object Codex accepts, or nothing when nothing is due. Codex drops
//! the whole output on one unknown key or any stray text, and treats exit
//! codes other than 0 and 2 as a failed hook (2 would block the prompt), so
//! diagnostics go to standard error only and the exit code is 0, or 1 when
//! the input was refused.

pub(crate) mod app_server;
mod atomic;
mod edited_path;
mod failure;
mod gate;
mod hook;
mod input;
mod lock;
mod output;
mod post_tool;
mod prompt;
mod session;
mod session_id;
mod session_start;
mod shell_check;
mod state_dir;

pub(crate) use state_dir::STATE_CAP;
mod tool_paths;
mod transcript_file;
pub(crate) mod trust;

use std::io::Read;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use rule_fairy_engine::EventKind;
use rule_fairy_engine::Project;

use crate::commands::explain::located;
use crate::location::project_root;
use input::HookInput;
use output::HookOutput;
use session_id::SessionId;

#[derive(Args)]
pub(crate) struct CodexArgs {
    #[command(subcommand)]
    command: CodexCommand,
}

#[derive(Subcommand)]
enum CodexCommand {
    /// UserPromptSubmit: always-on and keyword rules that are due.
    Prompt,
    /// PostToolUse: rules for the files an edit or a shell command changed.
    PostTool,
    /// SessionStart (source `compact`): always-on rules again at once.
    SessionStart,
    /// SubagentStart: a subagent's own always-on rules, before its first
    /// request.
    SubagentStart,
    /// Trust Rule Fairy's hooks in Codex (needed after every install or
    /// update of the plugin; Codex skips untrusted hooks silently).
    Trust(trust::TrustArgs),
}

/// What a hook ends with.
enum Outcome {
    /// Nothing is due: print nothing.
    Nothing,
    Output(HookOutput),
    /// The input could not be used: a message on standard error, no output.
    Refused(String),
    /// Already written out (a delivery, which is recorded only once its
    /// output was written whole), with this exit code.
    Emitted(ExitCode),
}

/// A hook's time: reading the transcript stops at its end, and the lock is
/// never waited for past it. Well inside Codex's 60-second hook timeout,
/// so the hook still prints what it has and releases the lock itself.
pub(super) const BUDGET: Duration = Duration::from_secs(30);

/// The most read from standard input: a hook input is a prompt or a tool
/// call, patches included.
const INPUT_CAP: u64 = 64 * 1024 * 1024;

/// When this hook's [`BUDGET`] ends, counted from its start.
fn deadline() -> Instant {
    static STARTED: OnceLock<Instant> = OnceLock::new();
    *STARTED.get_or_init(Instant::now) + BUDGET
}

pub(crate) fn run(args: &CodexArgs) -> ExitCode {
    let hook = match &args.command {
        CodexCommand::Trust(trust) => return trust::run(trust),
        CodexCommand::Prompt => prompt::run,
        CodexCommand::PostTool => post_tool::run,
        CodexCommand::SessionStart => session_start::run,
        CodexCommand::SubagentStart => session_start::subagent,
    };
    deadline();
    let mut stdin = Vec::new();
    let outcome = match std::io::stdin()
        .lock()
        .take(INPUT_CAP + 1)
        .read_to_end(&mut stdin)
    {
        Err(e) => Outcome::Refused(format!("cannot read the hook input: {e}")),
        Ok(_) if stdin.len() as u64 > INPUT_CAP => Outcome::Refused(format!(
            "the hook input on standard input is too large (over {INPUT_CAP} bytes); nothing was delivered or recorded"
        )),
        Ok(_) => match input::parse(&stdin) {
            Err(problem) => Outcome::Refused(problem),
            Ok(None) => Outcome::Nothing,
            Ok(Some(input)) => hook(&input),
        },
    };
    emit(outcome).0
}

/// Writes an outcome out: the exit code, and whether the output (if any)
/// was written whole. A reader that went away is told on standard error
/// and is no failure of the hook.
fn emit(outcome: Outcome) -> (ExitCode, bool) {
    match outcome {
        Outcome::Nothing => (ExitCode::SUCCESS, true),
        Outcome::Emitted(code) => (code, true),
        Outcome::Output(output) => {
            match crate::output::write_stdout(&format!("{}\n", output.to_json())) {
                Ok(()) => (ExitCode::SUCCESS, true),
                Err(e) => {
                    note(&format!("cannot write the hook's output ({e}); it was not delivered, and nothing was recorded"));
                    (ExitCode::SUCCESS, false)
                }
            }
        }
        Outcome::Refused(problem) => {
            note(&problem);
            (ExitCode::FAILURE, true)
        }
    }
}

/// A line on standard error, where Codex keeps hook diagnostics.
fn note(message: &str) {
    crate::output::warn(format_args!("rule-fairy: {message}"));
}

/// The session id, checked before it names any file.
/// The session a hook's records belong to: a subagent's own (behaviour
/// §5.3), named by its parent's session and its id, since its context is
/// its own; otherwise the session's.
fn session_of(input: &HookInput) -> Result<SessionId, String> {
    let session = HookInput::required(&input.session_id, "session_id")?;
    match &input.agent_id {
        Some(agent) => SessionId::parse(&format!("{session}.agent-{agent}")),
        None => SessionId::parse(session),
    }
}

/// The project of the session's working directory (`RULE_FAIRY_PROJECT_DIR`
/// overrides), loaded; an error names the file and line.
/// Whether `path` lies inside the installed plugin, where nothing may be
/// written (Codex would distrust the plugin's hooks).
pub(crate) fn inside_plugin(path: &std::path::Path) -> bool {
    session::plugin_root().is_some_and(|root| session::refuse_inside_plugin(path, &root).is_err())
}

fn load_project() -> Result<&'static Project, String> {
    let root = project_root(None)?;
    crate::project_cache::load(&root).map_err(|e| located(&root, &e))
}

/// Problems this event touched that do not stop it: rule files left out
/// and invalid globs reached. Each goes to standard error and to the
/// person's warning line.
fn problems(project: &Project, errors: &[rule_fairy_engine::Error]) -> Vec<String> {
    let left_out = project
        .rules
        .findings
        .iter()
        .filter(|f| f.is_error())
        .map(|f| {
            format!(
                "{}: {} (this rule was left out)",
                crate::location::display_path(&project.root, &f.place.to_string()),
                f.message
            )
        });
    let reached = errors.iter().map(|e| located(&project.root, e));
    let all: Vec<String> = left_out.chain(reached).collect();
    for problem in &all {
        note(problem);
    }
    all
}

/// The facts Codex reports for rule conditions: the turn's model and a
/// subagent's type; the rest comes from the machine and git. Codex lists no
/// tools to a hook, so a `tools` condition never holds here.
fn facts(input: &HookInput, project: &Project) -> rule_fairy_engine::Facts {
    crate::facts::host_facts(project, input.model.clone(), input.agent_type.clone(), None)
}

/// The outcome of a delivery (or none) and the problems beside it.
fn finish(output: Option<HookOutput>, problems: &[String]) -> Outcome {
    match output {
        Some(output) => Outcome::Output(output.with_problems(problems)),
        None if problems.is_empty() => Outcome::Nothing,
        None => Outcome::Output(HookOutput::default().with_problems(problems)),
    }
}

/// A delivery that failed before anything was decided.
fn failed(kind: EventKind, detail: &str) -> Outcome {
    note(detail);
    Outcome::Output(failure::output(kind, detail))
}
