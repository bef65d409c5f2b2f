//! `rule-fairy`: the native side of Rule Fairy. Today: `explain` (which
//! rules an event selects, and why), `check` (lint the configuration and
//! every rule), `test` (the rule tests), `status` (what each session has received), `doctor`
//! (whether the hosts and the project are set up), the Codex hooks, the
//! reviews and the gate.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[global_allocator]
static ALLOCATOR: arena::Allocator = arena::Allocator;

mod arena;
mod codex;
mod commands;
mod diagnostics;
mod doctor;
mod facts;
#[cfg(feature = "gate")]
mod gate;
mod location;
mod nested_folders;
mod output;
mod owned_dir;
mod plugin_manifest;
mod project_cache;
mod review;
mod stdfs;
mod streamed;
mod utc;

/// The command line's definition, for completions and the man page.
fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

#[derive(Parser)]
#[command(
    name = "rule-fairy",
    version,
    about = "A repository's own rules, delivered to coding agents"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show which rules fire for a prompt or for edited paths, and why.
    Explain(Box<ExplainArgs>),
    /// Check rule-fairy.edn and every rule; exit 1 on any error.
    Check(CheckArgs),
    /// Run the rule tests: each rule must fire for its `fires` events and
    /// stay silent for its `silent` ones; exit 1 on a failure, 2 when a
    /// test cannot run.
    Test(TestArgs),
    /// What each session has received: the rules delivered, when and why,
    /// their size, what waits, and the problems told.
    Status(StatusArgs),
    /// Whether Rule Fairy is set up in Claude Code, in Codex and in the
    /// project, each problem with its fix; exit 1 when something is broken.
    Doctor(doctor::DoctorArgs),
    /// Codex hooks: read the hook's JSON on stdin, print what Codex injects.
    Codex(codex::CodexArgs),
    /// Review a diff against the rules and instruction files that apply to
    /// it: `fetch (--pr <number> [--checkout] | --local | --base <ref>)`,
    /// `bundle [--patch <file>]`, `clean`.
    Review(review::ReviewArgs),
    /// Review a plan against the rules for the paths it will touch:
    /// `paths|bundle <plan-file> [--paths <path>...]`, `clean`.
    ReviewPlan(review::ReviewArgs),
    /// The repository's ast-grep rules: scan, check written files, test.
    #[cfg(feature = "gate")]
    Gate(gate::GateArgs),
    /// Print a shell's completion script: `rule-fairy completions bash`.
    Completions(CompletionsArgs),
    /// Print the man page (roff): `rule-fairy man > rule-fairy.1`.
    Man,
}

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("event").required(true).args(["prompt", "path"]))]
pub struct ExplainArgs {
    /// The project root (default: found from the working directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// A prompt, as the person would type it.
    #[arg(long, value_name = "TEXT")]
    prompt: Option<String>,
    /// Edited paths: relative to the project root, or absolute.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    path: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The directory a Codex session works in, relative to the project root
    /// (default: the root): an edit below it also brings the instruction
    /// files Codex did not read (behaviour §5.3), which `explain` lists.
    #[arg(long, value_name = "DIR")]
    working_dir: Option<String>,
    /// Print the delivery itself, as Codex's additionalContext carries it
    /// (`codex`, the default) or as Claude Code's frames (`claude`).
    #[arg(long, value_name = "HOST", num_args = 0..=1, require_equals = true,
          default_missing_value = "codex", conflicts_with = "json")]
    render: Option<RenderHost>,
    /// Why one rule does or does not fire for this event: each condition
    /// it declares, what it wanted, what the event had, and the verdict.
    #[arg(long, value_name = "RULE", conflicts_with = "render")]
    why_not: Option<String>,
    /// With --why-not: the session whose record says whether the rule would
    /// be held back (its state file in the project's `.rule-fairy/`).
    #[arg(long, value_name = "ID", requires = "why_not")]
    session: Option<String>,
    /// With --session: which host's session, when both have one of that id.
    #[arg(long, value_name = "HOST", requires = "session")]
    host: Option<StatusHost>,
    #[command(flatten)]
    facts: facts::FactArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderHost {
    Codex,
    Claude,
}

#[derive(Args)]
pub struct CheckArgs {
    /// The project root (default: found from the working directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    #[command(flatten)]
    output: diagnostics::OutputArgs,
}

#[derive(Args)]
pub struct TestArgs {
    /// The project root (default: found from the working directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Write a starter test of RULE from its globs and keywords (never
    /// over an existing file).
    #[arg(long, value_name = "RULE", conflicts_with_all = ["rules", "json"])]
    new: Option<String>,
    /// Only the tests of these rules (default: every test).
    #[arg(value_name = "RULE")]
    rules: Vec<String>,
}

#[derive(Args)]
pub struct StatusArgs {
    /// The project root (default: found from the working directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Only the session with this id (both hosts' when both have it).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Only the session saved last.
    #[arg(long, conflicts_with = "session")]
    latest: bool,
    /// Only the sessions of one host.
    #[arg(long, value_name = "HOST")]
    host: Option<StatusHost>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatusHost {
    Claude,
    Codex,
    Opencode,
}

impl StatusHost {
    fn host(self) -> rule_fairy_engine::status::SessionHost {
        match self {
            StatusHost::Claude => rule_fairy_engine::status::SessionHost::Claude,
            StatusHost::Codex => rule_fairy_engine::status::SessionHost::Codex,
            StatusHost::Opencode => rule_fairy_engine::status::SessionHost::Opencode,
        }
    }
}

impl Command {
    /// Whether the command was asked for JSON (`--json`, `--format json`).
    fn wants_json(&self) -> bool {
        match self {
            Command::Explain(args) => args.json,
            Command::Check(args) => args.output.format() == diagnostics::Format::Json,
            Command::Test(args) => args.json,
            Command::Status(args) => args.json,
            Command::Doctor(args) => args.json(),
            _ => false,
        }
    }
}

/// The exit status of a command that could not run: a usage error (as
/// clap exits), a missing project, unreadable input.
pub(crate) const CANNOT_RUN: u8 = 2;

/// A command's error as its JSON answer: `{"error": {"message", "exitCode"}}`.
pub(crate) fn json_error(message: &str) -> String {
    serde_json::json!({"error": {"message": message, "exitCode": CANNOT_RUN}}).to_string()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let json = cli.command.wants_json();
    let result = match cli.command {
        Command::Explain(args) => commands::explain::run(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Test(args) => commands::test::run(&args),
        Command::Status(args) => commands::status::run(&args),
        Command::Doctor(args) => doctor::run(&args),
        Command::Codex(args) => return codex::run(&args),
        Command::Review(args) => return review::run_diff(&args),
        Command::ReviewPlan(args) => return review::run_plan(&args),
        #[cfg(feature = "gate")]
        Command::Gate(args) => return gate::run(&args),
        Command::Completions(args) => commands::shell::completions(args.shell),
        Command::Man => commands::shell::man(),
    };
    match result {
        Ok(code) => code,
        // The exit-code policy (docs/commands.md): 1 is findings in the
        // user's files; a command that could not do its work exits 2.
        Err(message) => {
            crate::output::warn(format_args!("rule-fairy: {message}"));
            // Asked for JSON, the error comes as JSON too, on standard output
            // where the answer would have been.
            if json {
                let _ = crate::output::print_line(&json_error(&message));
            }
            ExitCode::from(CANNOT_RUN)
        }
    }
}
