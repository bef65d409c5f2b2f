//! `rule-fairy check`: every problem in the configuration and the rules.

use std::process::ExitCode;

use rule_fairy_engine::check::{check_project, Report};
use rule_fairy_engine::finding::Severity;

use crate::location::{display_path, project_root};
use crate::stdfs::StdFs;
use crate::CheckArgs;

pub fn run(args: &CheckArgs) -> Result<ExitCode, String> {
    let root = project_root(args.project.as_deref())?;
    let mut report = check_project(&StdFs, &root);
    for finding in &mut report.findings {
        finding.place.file = display_path(&root, &finding.place.file);
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialise")
        );
    } else {
        print!("{}", human(&report));
    }
    Ok(if report.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn human(report: &Report) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        let severity = match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        out.push_str(&format!(
            "{}: {severity}: {}\n",
            finding.place, finding.message
        ));
        if let Some(hint) = &finding.hint {
            out.push_str(&format!("  fix: {hint}\n"));
        }
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    out.push_str(&format!(
        "Checked {}: {}, {}.\n",
        plural(report.rules, "rule"),
        plural(report.errors, "error"),
        plural(report.warnings, "warning")
    ));
    out
}
