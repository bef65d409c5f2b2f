//! `rule-fairy check`: every problem in the configuration and the rules.

use std::process::ExitCode;

use rule_fairy_engine::Severity;
use rule_fairy_engine::{check_project_with, Code, Report};

use crate::diagnostics::{self, Diagnostic, Format, Level, Note, RuleInfo};
use crate::location::{display_path, project_root};
use crate::stdfs::StdFs;
use crate::CheckArgs;

pub(crate) fn run(args: &CheckArgs) -> Result<ExitCode, String> {
    let root = project_root(args.project.as_deref())?;
    let report = report(&root);
    // The gate's rules, listed with their languages and test coverage; a
    // gate that cannot load fails the check.
    #[cfg(feature = "gate")]
    let gate = crate::gate::listing::for_check(&root);
    #[cfg(not(feature = "gate"))]
    let gate = GateListing::default();
    let format = args.output.format();
    if format == Format::Json {
        let mut value = serde_json::to_value(&report).expect("reports serialise");
        if let Some(listing) = &gate.json {
            value["gate"] = listing.clone();
        }
        crate::output::print_line(&value.to_string())?;
    } else {
        let diagnostics: Vec<Diagnostic> = report.findings.iter().map(diagnostic).collect();
        let rules: Vec<RuleInfo> = Code::ALL
            .iter()
            .map(|code| RuleInfo {
                id: code.name().to_string(),
                description: code.description().to_string(),
            })
            .collect();
        let colored = args.output.colored();
        let mut text = diagnostics::render(
            format,
            &diagnostics,
            &rules,
            std::path::Path::new(&root),
            colored,
        );
        if matches!(format, Format::Human | Format::Short) {
            text.push_str(&summary(&report));
            text.push_str(&untested_note(&report.untested));
            text.push_str(&gate.text);
        }
        crate::output::print(&text)?;
    }
    Ok(if report.has_errors() || gate.error {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Every finding of the project at `root`, files shown relative to it:
/// what `check` prints, and what `doctor` counts.
pub(crate) fn report(root: &str) -> Report {
    let files = project_files(root);
    let mut report = check_project_with(&StdFs, root, files.as_deref());
    for finding in &mut report.findings {
        finding.place.file = display_path(root, &finding.place.file);
    }
    report
}

/// A note, never an error: a rule without a test still works.
fn untested_note(untested: &[String]) -> String {
    match untested.len() {
        0 => String::new(),
        n => format!(
            "note[{}]: {n} rule{} no test: {}\n  fix: `rule-fairy test --new RULE` writes a starter test\n",
            Code::TestMissing.name(),
            if n == 1 { " has" } else { "s have" },
            untested.join(", ")
        ),
    }
}

/// The most files `check` lists to try each glob against; a larger tree
/// gets no glob warnings rather than a slow check.
const MAX_FILES: usize = 200_000;

/// The project's files, relative to `root` with `/`, as git sees the
/// working tree (`.gitignore` honoured, hidden files kept, `.git` left
/// out, links not followed); `None` past [`MAX_FILES`].
fn project_files(root: &str) -> Option<Vec<String>> {
    let mut walk = ignore::WalkBuilder::new(root);
    walk.hidden(false)
        .require_git(false)
        .filter_entry(|entry| entry.file_name() != ".git");
    let base = std::path::Path::new(root);
    let mut files = Vec::new();
    for entry in walk.build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if files.len() == MAX_FILES {
            return None;
        }
        if let Ok(relative) = entry.path().strip_prefix(base) {
            let parts: Vec<_> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect();
            files.push(parts.join("/"));
        }
    }
    Some(files)
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

fn diagnostic(finding: &rule_fairy_engine::Finding) -> Diagnostic {
    let line = finding.place.line;
    Diagnostic {
        level: match finding.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        },
        rule: finding.code.name().to_string(),
        file: finding.place.file.clone(),
        line,
        span: finding
            .span
            .zip(line)
            .map(|(span, line)| diagnostics::Span {
                column: span.column,
                end_line: line,
                end_column: span.end_column,
            }),
        message: finding.message.clone(),
        note: finding.hint.clone().map(Note::Fix),
    }
}

fn summary(report: &Report) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "Checked {}: {}, {}.\n",
        plural(report.rules, "rule"),
        plural(report.errors, "error"),
        plural(report.warnings, "warning")
    )
}
