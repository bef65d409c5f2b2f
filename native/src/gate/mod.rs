//! `rule-fairy gate`: the repository's ast-grep rules, in a scan of record
//! that fails closed, a per-write check for the hooks, and rule tests.
//!
//! Exit status, for every subcommand: 0 clean (warnings allowed), 1 an
//! error-severity finding or a failed rule test, 2 the gate could not run
//! (a rule it cannot parse, a language it cannot check, a missing path) or
//! could not judge a file whole (behaviour §8.2: too large, or a syntax
//! error; each told as `could not check fully: <file>: <reason>` after the
//! findings it did find).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use rule_fairy_engine::gate_check;
use rule_fairy_gate::{Gate, GateError, ScanReport};

use crate::diagnostics::{Format, OutputArgs};
use crate::location::project_root;

pub(crate) mod listing;
mod report;

#[derive(Args)]
pub(crate) struct GateArgs {
    #[command(subcommand)]
    command: GateCommand,
}

#[derive(Subcommand)]
enum GateCommand {
    /// Scan the project (honouring .gitignore) or the given paths against
    /// every rule; exit 1 on an error-severity finding.
    Scan(ScanArgs),
    /// Check files that were just written (what the hooks run).
    Check(CheckArgs),
    /// Run the rule tests: valid cases must not match, invalid cases must.
    Test(TestArgs),
}

#[derive(Args)]
struct Common {
    /// The project root (default: found from the working directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Read the gate's configuration, rules and tests from this git ref
    /// (like origin/main) instead of the working tree.
    #[arg(long, value_name = "REF")]
    rules_from: Option<String>,
}

#[derive(Args)]
struct ScanArgs {
    /// Files or directories to scan (default: the whole project).
    paths: Vec<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct CheckArgs {
    /// The written files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct TestArgs {
    #[command(flatten)]
    common: Common,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The engine reads the status back when a host runs `gate check` as a
/// process.
const CANNOT_RUN: u8 = rule_fairy_engine::gate_check::CANNOT_RUN as u8;

pub(crate) fn run(args: &GateArgs) -> ExitCode {
    let result = match &args.command {
        GateCommand::Scan(scan) => run_scan(scan),
        GateCommand::Check(check) => run_check(check),
        GateCommand::Test(test) => run_test(test),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            crate::output::warn(format_args!("rule-fairy gate: {message}"));
            crate::output::warn(format_args!(
                "rule-fairy gate: {}",
                rule_fairy_engine::gate_check::NOTHING_JUDGED
            ));
            ExitCode::from(CANNOT_RUN)
        }
    }
}

fn load(common: &Common) -> Result<Gate, String> {
    let root = project_root(common.project.as_deref())?;
    let root = Path::new(&root);
    let gate = match &common.rules_from {
        Some(reference) => Gate::load_from_ref(root, reference),
        None => Gate::load(root),
    };
    gate.map_err(|e: GateError| e.to_string())
}

/// Paths on the command line are the shell's: relative to the working
/// directory, whatever the project root.
fn from_here(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    paths
        .iter()
        .map(|p| std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect()
}

fn failed_if(errors: bool) -> ExitCode {
    if errors {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// 2 when a file could not be judged whole, else 1 on an error finding:
/// what was not judged outranks what was.
fn scan_status(scan: &ScanReport) -> ExitCode {
    if scan.complete() {
        failed_if(scan.has_errors())
    } else {
        ExitCode::from(CANNOT_RUN)
    }
}

/// The findings on standard output; each file not checked whole on
/// standard error, one line each (those `:gate :unchecked` lists, marked
/// so, in all but JSON).
fn print_report(gate: &Gate, scan: &ScanReport, output: &OutputArgs) -> Result<(), String> {
    let json = output.format() == Format::Json;
    if json {
        crate::output::print(&report::json_lines(&scan.findings))?;
    } else {
        crate::output::print(&report::render(gate, scan, output))?;
    }
    for line in report::unchecked(&scan.unchecked, !json) {
        crate::output::warn(format_args!("{line}"));
    }
    Ok(())
}

fn run_scan(args: &ScanArgs) -> Result<ExitCode, String> {
    let gate = load(&args.common)?;
    let paths = from_here(&args.paths)?;
    let scan = gate.scan(&paths).map_err(|e| e.to_string())?;
    print_report(&gate, &scan, &args.output)?;
    if args.output.format() != Format::Json {
        crate::output::warn(format_args!("{}", report::scan_summary(&gate, &scan)));
    }
    Ok(scan_status(&scan))
}

fn run_check(args: &CheckArgs) -> Result<ExitCode, String> {
    // A plugin that names its version hears the program's first, before
    // anything can fail (behaviour §10.5).
    if args.output.format() == Format::Json
        && std::env::var_os(gate_check::PLUGIN_VERSION_VARIABLE).is_some_and(|v| !v.is_empty())
    {
        let path = std::env::current_exe().ok();
        crate::output::print_line(&gate_check::program_version_line(
            rule_fairy_engine::version::VERSION,
            path.as_deref().and_then(std::path::Path::to_str),
        ))?;
    }
    let root = project_root(args.common.project.as_deref())?;
    let files = from_here(&args.files)?;
    // Only the rules that can judge these files are loaded (behaviour §8.4).
    let gate = Gate::load_for(Path::new(&root), args.common.rules_from.as_deref(), &files)
        .map_err(|e| e.to_string())?;
    let scan = gate.check_files(&files).map_err(|e| e.to_string())?;
    print_report(&gate, &scan, &args.output)?;
    Ok(scan_status(&scan))
}

fn run_test(args: &TestArgs) -> Result<ExitCode, String> {
    let gate = load(&args.common)?;
    let report = gate.test().map_err(|e| e.to_string())?;
    if args.json {
        crate::output::print_line(&report::tests_json(&report).to_string())?;
    } else {
        crate::output::print(&report::tests(&gate, &report))?;
    }
    Ok(failed_if(!report.passed()))
}
