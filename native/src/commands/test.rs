//! `rule-fairy test`: runs the project's rule tests and reports each rule
//! as passed, or each event it failed; `--new RULE` writes a starter test.

use std::process::ExitCode;

use rule_fairy_engine::rule_tests::{run_rule_tests, starter, Failure, TestRun};
use rule_fairy_engine::{describe_no_rule, paths, Project};

use super::explain::located;
use crate::location::project_root;
use crate::stdfs::StdFs;
use crate::TestArgs;

pub(crate) fn run(args: &TestArgs) -> Result<ExitCode, String> {
    let root = project_root(args.project.as_deref())?;
    // What cannot run is an `Err`: exit 2 (and JSON when asked), by main.
    let project = Project::load(&StdFs, &root).map_err(|error| located(&root, &error))?;
    if let Some(rule) = &args.new {
        return write_starter(&root, &project, rule);
    }
    let run = run_rule_tests(&StdFs, &project, &args.rules).map_err(|no| describe_no_rule(&no))?;
    if args.json {
        crate::output::print_line(&serde_json::to_string(&run).expect("test runs serialise"))?;
    } else {
        crate::output::print(&human(&run))?;
    }
    // A test file that could not be read: the run is not whole.
    Ok(if !run.problems.is_empty() {
        ExitCode::from(crate::CANNOT_RUN)
    } else if run.failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the starter test of `rule`, never over an existing file.
fn write_starter(root: &str, project: &Project, rule: &str) -> Result<ExitCode, String> {
    let starter = starter(&StdFs, project, rule).map_err(|no| describe_no_rule(&no))?;
    let path = std::path::PathBuf::from(paths::join(root, &starter.file));
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(format!(
            "{} exists, so it is not overwritten: add the events to it, or remove it first",
            starter.file
        ));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", starter.file))?;
    }
    // `create_new`: a file made meanwhile is not overwritten either.
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut file| std::io::Write::write_all(&mut file, starter.text.as_bytes()))
        .map_err(|e| format!("{}: {e}", starter.file))?;
    crate::output::print(&format!(
        "Wrote {}, a test of {}: check its events, then run `rule-fairy test {}`.\n",
        starter.file, starter.rule, starter.rule
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn human(run: &TestRun) -> String {
    let mut out = String::new();
    for report in &run.rules {
        let plural = if report.events == 1 { "" } else { "s" };
        if report.passed {
            out.push_str(&format!(
                "ok      {} ({} event{plural}, {})\n",
                report.rule, report.events, report.test
            ));
            continue;
        }
        out.push_str(&format!(
            "FAILED  {} ({} event{plural}, {})\n",
            report.rule, report.events, report.test
        ));
        for failure in &report.failures {
            let (label, line, event, verb, why) = match failure {
                Failure::Missing { line, event, why } => {
                    ("Missing", line, event, "did not select it", why)
                }
                Failure::Noisy { line, event, why } => ("Noisy", line, event, "selected it", why),
            };
            out.push_str(&format!(
                "  {label}: {}:{line}: {event} {verb}\n",
                report.test.file
            ));
            for reason in why {
                out.push_str(&format!("    {reason}\n"));
            }
        }
    }
    for problem in &run.problems {
        out.push_str(&format!("{}: error: {}\n", problem.place, problem.message));
    }
    let failed = run.rules.iter().filter(|r| !r.passed).count();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if run.files.is_empty() {
        out.push_str("No rule tests found: `rule-fairy test --new RULE` writes one.\n");
        return out;
    }
    out.push_str(&format!(
        "Tested {} in {}: {} passed, {} failed",
        plural(run.rules.len(), "rule"),
        plural(run.files.len(), "file"),
        run.rules.len() - failed,
        failed
    ));
    if !run.problems.is_empty() {
        out.push_str(&format!(
            ", {} could not run",
            plural(run.problems.len(), "test")
        ));
    }
    out.push_str(".\n");
    out
}
