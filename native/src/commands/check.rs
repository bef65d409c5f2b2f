//! `rule-fairy check`: every problem in the configuration and the rules.

use std::process::ExitCode;

use rule_fairy_engine::Severity;
use rule_fairy_engine::{check_project, Report};

use crate::location::{display_path, project_root};
use crate::stdfs::StdFs;
use crate::CheckArgs;

pub(crate) fn run(args: &CheckArgs) -> Result<ExitCode, String> {
    let root = project_root(args.project.as_deref())?;
    let mut report = check_project(&StdFs, &root);
    for finding in &mut report.findings {
        finding.place.file = display_path(&root, &finding.place.file);
    }
    // The gate's rules, listed with their languages and test coverage; a
    // gate that cannot load fails the check.
    #[cfg(feature = "gate")]
    let gate = crate::gate::listing::for_check(&root);
    #[cfg(not(feature = "gate"))]
    let gate = GateListing::default();
    if args.json {
        let mut text = serde_json::to_string(&report).expect("reports serialise");
        if let Some(listing) = &gate.json {
            let mut value: serde_json::Value = serde_json::from_str(&text).expect("reports parse");
            value["gate"] = listing.clone();
            text = value.to_string();
        }
        crate::output::print_line(&text)?;
    } else {
        crate::output::print(&format!("{}{}", human(&report), gate.text))?;
    }
    Ok(if report.has_errors() || gate.error {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// What the gate adds to `check`: its rules with their languages and test
/// coverage, for people and for `--json`, and whether it failed to load.
/// Empty when the project has no gate rules or the build has no gate.
#[derive(Default)]
pub(crate) struct GateListing {
    pub text: String,
    pub json: Option<serde_json::Value>,
    pub error: bool,
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
