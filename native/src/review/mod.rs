//! `rule-fairy review` and `rule-fairy review-plan` (behaviour §6): a diff
//! or a plan, and the bundle of rules and instruction files that apply to
//! the paths it touches, written under `.rule-fairy/review/<mode>/` for a
//! read-only reviewer. The skills start these through their `scripts/run`
//! launchers. Every failure prints `Error: <message>` and exits 2, and
//! leaves no new artifact behind. With `--json` the result is one JSON
//! object, and a failure `{"error": {...}}`, as every command gives them.

use std::process::ExitCode;

use clap::Args;
use rule_fairy_engine::bundle::{self, Bundle};
use rule_fairy_engine::Project;
use serde_json::{json, Value};

use crate::location::project_root;
use crate::stdfs::StdFs;

mod artifacts;
mod diff_bundle;
mod fetch;
mod git;
mod meta;
mod plan;
mod revision;
mod working_tree;

use artifacts::{Mode, ReviewDir};

/// The subcommand and its arguments, read by the review's own parser so
/// its messages and exit codes are the original's.
#[derive(Args)]
pub(crate) struct ReviewArgs {
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    args: Vec<String>,
}

pub(crate) const DIFF_USAGE: &str = "usage: review fetch (--pr <number> [--checkout] | --local | --base <ref>)\n       review bundle [--patch <file>]\n       review clean";

pub(crate) const PLAN_USAGE: &str = "usage: review-plan paths <plan-file> [--paths <path>...]\n       review-plan bundle <plan-file> [--paths <path>...]\n       review-plan clean";

/// What a review command did: the line or lines for people, and the same
/// as one JSON object (camelCase keys) for `--json`.
pub(super) struct Done {
    text: String,
    json: Value,
}

impl Done {
    pub(super) fn new(text: String, json: Value) -> Self {
        Done { text, json }
    }
}

/// `rule-fairy review ...`.
pub(crate) fn run_diff(args: &ReviewArgs) -> ExitCode {
    let (args, json) = take_json(&args.args);
    if asks_help(&args) {
        return finish(Ok(usage(DIFF_USAGE)), json);
    }
    finish(diff(&args), json)
}

/// `rule-fairy review-plan ...`.
pub(crate) fn run_plan(args: &ReviewArgs) -> ExitCode {
    let (args, json) = take_json(&args.args);
    if asks_help(&args) {
        return finish(Ok(usage(PLAN_USAGE)), json);
    }
    finish(plan::run(&args), json)
}

/// The arguments without `--json`, and whether it was among them: the
/// review reads its own arguments, so the flag may stand anywhere.
fn take_json(args: &[String]) -> (Vec<String>, bool) {
    let rest: Vec<String> = args.iter().filter(|a| *a != "--json").cloned().collect();
    let json = rest.len() != args.len();
    (rest, json)
}

fn usage(text: &str) -> Done {
    Done::new(text.to_string(), json!({ "usage": text }))
}

/// `--help` or `-h` anywhere (`review fetch --help`): the usage, exit 0,
/// as every other command answers it.
fn asks_help(args: &[String]) -> bool {
    args.iter().any(|arg| arg == "--help" || arg == "-h")
}

fn finish(result: Result<Done, String>, json: bool) -> ExitCode {
    match result {
        Ok(done) => {
            let report = match json {
                true => done.json.to_string(),
                false => done.text,
            };
            match crate::output::print_line(&report) {
                Ok(()) => ExitCode::SUCCESS,
                Err(problem) => {
                    crate::output::warn(format_args!("Error: {problem}"));
                    ExitCode::FAILURE
                }
            }
        }
        // A review that cannot be made (a usage error, a git failure)
        // could not run: exit 2, by the one policy (docs/commands.md).
        Err(message) => {
            crate::output::warn(format_args!("Error: {message}"));
            if json {
                let _ = crate::output::print_line(&crate::json_error(&message));
            }
            ExitCode::from(crate::CANNOT_RUN)
        }
    }
}

fn diff(args: &[String]) -> Result<Done, String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(DIFF_USAGE.to_string());
    };
    match command.as_str() {
        "fetch" => {
            let source = fetch::parse(rest)?;
            fetch::fetch(&root()?, &source)
        }
        "bundle" => {
            let patch = diff_bundle::parse(rest)?;
            diff_bundle::bundle(&root()?, patch)
        }
        "clean" => clean(rest, Mode::Diff, DIFF_USAGE),
        other => Err(format!("Unknown command: {other}\n{DIFF_USAGE}")),
    }
}

/// The project: `RULE_FAIRY_PROJECT_DIR`, else found from the working
/// directory as the hooks find it (the checkout root, or the nearest
/// directory below it holding `rule-fairy.edn` or `.cursor/rules`).
fn root() -> Result<String, String> {
    project_root(None)
}

fn clean(args: &[String], mode: Mode, usage: &str) -> Result<Done, String> {
    if !args.is_empty() {
        return Err(format!("clean takes no arguments\n{usage}"));
    }
    let review = ReviewDir::new(std::path::Path::new(&root()?), mode);
    let dir = review.path().display().to_string();
    Ok(match review.clean()? {
        Some(kept) => Done::new(kept, json!({ "directory": dir, "removed": false })),
        None => Done::new(
            format!("Removed {dir}"),
            json!({ "directory": dir, "removed": true }),
        ),
    })
}

fn load_project(root: &str) -> Result<Project, String> {
    Project::load(&StdFs, root).map_err(|e| e.to_string())
}

/// A line for each broken rule the bundle left out (it names them too),
/// after the command's `Wrote` line; empty when there is none.
fn broken_lines(built: &Bundle) -> String {
    built
        .broken
        .iter()
        .map(|rule| {
            format!(
                "\nLeft out a broken rule, named in the bundle: {}",
                rule.located()
            )
        })
        .collect()
}

/// What both bundles tell in JSON: the rules and instruction files
/// applied, the paths, the duplicates omitted and the broken rules left out.
fn bundle_json(built: &Bundle, written: &std::path::Path) -> Value {
    json!({
        "bundle": written.display().to_string(),
        "rules": built.rule_names,
        "ruleFiles": built.rule_count,
        "instructionFiles": built.instruction_paths,
        "changedPaths": built.changed_paths,
        "duplicatesOmitted": built.omissions.len(),
        "brokenRules": built
            .broken
            .iter()
            .map(|rule| json!({
                "rule": rule.rule,
                "file": rule.file,
                "line": rule.line,
                "message": rule.why,
            }))
            .collect::<Vec<_>>(),
    })
}

/// The bundle for `changed` paths; `@~/` imports resolve from `HOME`. The
/// rules' conditions see what this machine tells (os, ci, the branch, the
/// project's tags); a review has no model, agent or tools.
fn build_bundle<S: AsRef<str>>(project: &Project, changed: &[S]) -> Result<Bundle, String> {
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    let facts = crate::facts::host_facts(project, None, None, None);
    bundle::build(&StdFs, project, changed, home.as_deref(), &facts).map_err(|e| e.to_string())
}
