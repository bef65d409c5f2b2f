//! Rule tests as `ast-grep test` runs them: `<testDir>/<rule-id>-test.yml`
//! holds `id`, `valid` snippets the rule must not match and `invalid`
//! snippets it must, so a rule that stops catching its own defect fails.
//! Snapshots of labels are not compared.

use serde::Deserialize;

use crate::config::GateConfig;
use crate::error::GateError;
use crate::finding::Severity;
use crate::rules::Rule;
use crate::scan::scan_source;
use crate::tree::RuleTree;
use crate::yaml;

/// The cases of one rule, from one test document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleTests {
    /// The `id` of the rule the cases test.
    pub rule_id: String,
    /// The test file, as messages name it.
    pub file: String,
    /// The 1-based line where the test document starts: its first line
    /// that is not blank or a comment.
    pub line: usize,
    /// Snippets the rule must not match.
    pub valid: Vec<String>,
    /// Snippets the rule must match.
    pub invalid: Vec<String>,
}

#[derive(Deserialize)]
struct TestCase {
    id: String,
    #[serde(default)]
    valid: Vec<String>,
    #[serde(default)]
    invalid: Vec<String>,
}

/// Every test document below the configured test directories (snapshot
/// directories excluded).
pub(crate) fn read_tests(
    tree: &dyn RuleTree,
    config: &GateConfig,
) -> Result<Vec<RuleTests>, GateError> {
    let mut tests = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for dir in &config.test_dirs {
        let snapshots = format!("{}/", dir.snapshot_dir);
        for path in tree.files_below(&dir.dir)? {
            let lower = path.to_ascii_lowercase();
            if !(lower.ends_with(".yml") || lower.ends_with(".yaml"))
                || path.starts_with(&snapshots)
                || seen.contains(&path)
            {
                continue;
            }
            seen.push(path.clone());
            let Some(text) = tree.read(&path)? else {
                continue;
            };
            let file = tree.display(&path);
            for doc in yaml::documents(&text) {
                let Some(line) = doc.content_line else {
                    continue;
                };
                let case: TestCase = yaml::parse(&file, &doc, "invalid rule test: ")?;
                tests.push(RuleTests {
                    rule_id: case.id,
                    file: file.clone(),
                    line,
                    valid: case.valid,
                    invalid: case.invalid,
                });
            }
        }
    }
    Ok(tests)
}

/// Why a case failed, in `ast-grep test`'s words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// A `valid` case matched.
    Noisy,
    /// An `invalid` case did not match.
    Missing,
}

/// One failed case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFailure {
    /// The `id` of the rule the case tests.
    pub rule_id: String,
    /// The test file, as messages name it.
    pub file: String,
    /// The line of its test document, as in [`RuleTests::line`].
    pub line: usize,
    /// Whether a `valid` case matched or an `invalid` one did not.
    pub failure: Failure,
    /// 1-based position in its `valid` or `invalid` list.
    pub index: usize,
    /// The case's snippet, verbatim.
    pub code: String,
}

/// The outcome of a test run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestReport {
    /// Cases run; those of rules switched off or defined nowhere are not.
    pub cases: usize,
    /// The cases that failed, in the order they ran.
    pub failures: Vec<CaseFailure>,
    /// Test documents naming a rule no rule file defines: (id, file, line).
    pub unknown_rules: Vec<(String, String, usize)>,
    /// Rules switched off (`severity: off`), whose tests were skipped.
    pub skipped_rules: Vec<String>,
    /// Rules with no test case at all.
    pub untested_rules: Vec<String>,
}

impl TestReport {
    /// True when no case failed and every test document names a rule;
    /// untested and skipped rules do not fail a run.
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.unknown_rules.is_empty()
    }
}

/// Runs every case against its rule.
pub(crate) fn run_tests(rules: &[Rule], tests: &[RuleTests]) -> TestReport {
    let mut report = TestReport::default();
    for test in tests {
        let Some(rule) = rules.iter().find(|r| r.id() == test.rule_id) else {
            report
                .unknown_rules
                .push((test.rule_id.clone(), test.file.clone(), test.line));
            continue;
        };
        if rule.severity() == Severity::Off {
            if !report.skipped_rules.contains(&test.rule_id) {
                report.skipped_rules.push(test.rule_id.clone());
            }
            continue;
        }
        let cases = test
            .valid
            .iter()
            .map(|c| (Failure::Noisy, c))
            .enumerate()
            .chain(
                test.invalid
                    .iter()
                    .map(|c| (Failure::Missing, c))
                    .enumerate(),
            );
        for (index, (failure, code)) in cases {
            report.cases += 1;
            let matched = !scan_source(&[rule], rule.language(), "", code)
                .findings
                .is_empty();
            let wrong = match failure {
                Failure::Noisy => matched,
                Failure::Missing => !matched,
            };
            if wrong {
                report.failures.push(CaseFailure {
                    rule_id: test.rule_id.clone(),
                    file: test.file.clone(),
                    line: test.line,
                    failure,
                    index: index + 1,
                    code: code.clone(),
                });
            }
        }
    }
    for rule in rules {
        let tested = tests
            .iter()
            .any(|t| t.rule_id == rule.id() && !(t.valid.is_empty() && t.invalid.is_empty()));
        if !tested {
            report.untested_rules.push(rule.id().to_string());
        }
    }
    report
}
