//! How the gate's results are printed: findings in the formats of
//! [`crate::diagnostics`] (for people: rule id, `file:line:column`, the
//! code frame, the note verbatim) or as JSON lines, and test runs.

use rule_fairy_gate::{Failure, Finding, Gate, ScanReport, Severity, TestReport, Unchecked};

use crate::diagnostics::{self, Diagnostic, Level, Note, OutputArgs, RuleInfo};

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The findings in a format other than JSON, against the gate's rules.
pub(super) fn render(gate: &Gate, scan: &ScanReport, output: &OutputArgs) -> String {
    if output.format() == diagnostics::Format::Short {
        let lines: Vec<String> = scan.findings.iter().map(Finding::human).collect();
        return lines.join("\n");
    }
    let diagnostics: Vec<Diagnostic> = scan.findings.iter().map(diagnostic).collect();
    let rules: Vec<RuleInfo> = gate
        .rules()
        .iter()
        .map(|rule| RuleInfo {
            id: rule.id().to_string(),
            description: if rule.config.message.is_empty() {
                rule.id().to_string()
            } else {
                rule.config.message.clone()
            },
        })
        .collect();
    diagnostics::render(
        output.format(),
        &diagnostics,
        &rules,
        gate.root(),
        output.colored(),
    )
}

fn diagnostic(finding: &Finding) -> Diagnostic {
    Diagnostic {
        level: match finding.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
            Severity::Info | Severity::Hint | Severity::Off => Level::Note,
        },
        rule: finding.rule_id.clone(),
        file: finding.file.clone(),
        line: Some(finding.line),
        span: Some(diagnostics::Span {
            column: finding.column,
            end_line: finding.end_line,
            end_column: finding.end_column,
        }),
        message: finding.message.clone(),
        note: finding.note.clone().map(Note::Note),
    }
}

/// One JSON object per line, per finding.
pub(super) fn json_lines(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| serde_json::to_string(f).expect("findings serialise") + "\n")
        .collect()
}

/// `rule-fairy gate: could not check fully: <file>: <reason>` for each file
/// not judged whole that fails the run; with `allowed`, also those
/// `:gate :unchecked` lists, marked `(allowed by :gate :unchecked)`.
pub(super) fn unchecked(files: &[Unchecked], allowed: bool) -> Vec<String> {
    files
        .iter()
        .filter(|u| allowed || !u.allowed)
        .map(|u| {
            let mark = if u.allowed {
                " (allowed by :gate :unchecked)"
            } else {
                ""
            };
            format!("rule-fairy gate: {u}{mark}")
        })
        .collect()
}

pub(super) fn scan_summary(gate: &Gate, scan: &ScanReport) -> String {
    if gate.rules().is_empty() {
        return "No gate rules in this project (sgconfig.yml, .kairoku/rules, :gate in rule-fairy.edn): nothing to check.".to_string();
    }
    let count = |s: Severity| scan.findings.iter().filter(|f| f.severity == s).count();
    let errors = count(Severity::Error);
    let others = scan.findings.len() - errors;
    let failing = scan.unchecked.iter().filter(|u| !u.allowed).count();
    let allowed = scan.unchecked.len() - failing;
    let mut tail = String::new();
    if failing > 0 {
        tail.push_str(&format!("; {} not checked fully", plural(failing, "file")));
    }
    if allowed > 0 {
        tail.push_str(&format!(
            "; {} not checked fully, as :gate :unchecked allows",
            plural(allowed, "file")
        ));
    }
    format!(
        "{}, {} in {} checked against {}{tail}.",
        plural(errors, "error"),
        plural(others, "other finding"),
        plural(scan.files_scanned, "file"),
        plural(gate.rules().len(), "rule"),
    )
}

fn indented(code: &str) -> String {
    code.trim_end_matches('\n')
        .lines()
        .map(|l| format!("    {l}\n"))
        .collect()
}

/// `gate test --json`: the run as one object, keys in camelCase.
pub(super) fn tests_json(report: &TestReport) -> serde_json::Value {
    let failures: Vec<serde_json::Value> = report
        .failures
        .iter()
        .map(|f| {
            serde_json::json!({
                "ruleId": f.rule_id,
                "file": f.file,
                "line": f.line,
                "kind": match f.failure {
                    Failure::Noisy => "noisy",
                    Failure::Missing => "missing",
                },
                "case": match f.failure {
                    Failure::Noisy => "valid",
                    Failure::Missing => "invalid",
                },
                "index": f.index,
                "code": f.code,
            })
        })
        .collect();
    let unknown: Vec<serde_json::Value> = report
        .unknown_rules
        .iter()
        .map(|(id, file, line)| serde_json::json!({"ruleId": id, "file": file, "line": line}))
        .collect();
    serde_json::json!({
        "passed": report.passed(),
        "cases": report.cases,
        "failures": failures,
        "unknownRules": unknown,
        "skippedRules": report.skipped_rules,
        "untestedRules": report.untested_rules,
    })
}

pub(super) fn tests(gate: &Gate, report: &TestReport) -> String {
    let mut out = String::new();
    for failure in &report.failures {
        let (word, kind, why) = match failure.failure {
            Failure::Noisy => ("Noisy", "valid", "matched, but must not"),
            Failure::Missing => ("Missing", "invalid", "did not match, but must"),
        };
        out.push_str(&format!(
            "FAIL {} ({word}): {kind} case {} at {}:{} {why}:\n{}",
            failure.rule_id,
            failure.index,
            failure.file,
            failure.line,
            indented(&failure.code)
        ));
    }
    for (id, file, line) in &report.unknown_rules {
        out.push_str(&format!(
            "FAIL {id}: {file}:{line} tests a rule that no rule file defines\n"
        ));
    }
    if !report.skipped_rules.is_empty() {
        out.push_str(&format!(
            "Skipped (severity: off): {}\n",
            report.skipped_rules.join(", ")
        ));
    }
    if !report.untested_rules.is_empty() {
        out.push_str(&format!("Untested: {}\n", report.untested_rules.join(", ")));
    }
    let failed = report.failures.len();
    out.push_str(&format!(
        "{}: {} of {} passed{}.\n",
        plural(gate.rules().len(), "rule"),
        report.cases - failed,
        plural(report.cases, "case"),
        if report.unknown_rules.is_empty() {
            String::new()
        } else {
            format!(
                ", {} for unknown rules",
                plural(report.unknown_rules.len(), "test")
            )
        }
    ));
    out
}
