//! `check`: lints the configuration and every rule of a project, going on
//! past each problem so one run reports them all.

pub(crate) mod lint;
mod nearby;
mod reach;
pub(crate) mod rule_tests;

use serde::Serialize;

use crate::base::error::Place;
use crate::base::finding::{Finding, Severity};
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::check::lint::lint_rule;
use crate::check::rule_tests::untested_rules;
use crate::config::{Config, RulesSource};
use crate::matching::project::Project;
use crate::render::imports::check_imports;
use crate::rules::discovery::{java_order, scan_rule_files, RuleSet};

/// What [`check_project`] found: the counts, every finding, and the rules
/// no rule test names.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Report {
    /// How many rule files were read.
    pub rules: usize,
    /// How many findings are errors.
    pub errors: usize,
    /// How many findings are warnings.
    pub warnings: usize,
    /// Sorted by file, then line.
    pub findings: Vec<Finding>,
    /// The rules no readable rule test names, in name order (a note,
    /// not a finding: a rule without a test still works); none when the
    /// rules do not load as a project (duplicate names), which a finding
    /// already tells.
    #[serde(rename = "untestedRules")]
    pub untested: Vec<String>,
}

impl Report {
    /// Whether any finding is an error, which fails `check`.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }
}

/// Checks the project at `root`.
pub fn check_project(fs: &dyn FileSource, root: &str) -> Report {
    check_project_with(fs, root, None)
}

/// Checks the project at `root`; given the project's files (paths
/// relative to it, what git does not ignore), also warns of each glob that
/// matches none of them.
pub fn check_project_with(fs: &dyn FileSource, root: &str, files: Option<&[String]>) -> Report {
    let mut findings = Vec::new();
    let config_place = Place::file(paths::join(root, crate::config::CONFIG_FILE));
    let loaded = match Config::load(fs, root) {
        Ok(config) => {
            findings.extend(
                config
                    .validate(root)
                    .iter()
                    .map(|e| Finding::from_error(e, &config_place)),
            );
            config
                .rules_source(root)
                .ok()
                .map(|source| (config, source))
        }
        Err(e) => {
            findings.push(Finding::from_error(&e, &config_place));
            None
        }
    };
    let (mut rule_count, mut untested) = (0, Vec::new());
    if let Some((config, source)) = loaded {
        let (set, loads) = check_rules(fs, &source, files, &mut findings);
        rule_count = set.len();
        if rule_count == 0 && !findings.iter().any(|f| f.severity == Severity::Error) {
            findings.push(nearby::nothing_found(fs, &source));
        }
        // The rules just read are the project `rule-fairy test` loads:
        // the untested ones come from them, not from a second load.
        if loads {
            let project = Project::from_rules(root, config, source, set);
            untested = untested_rules(fs, &project);
        }
    }
    findings.sort_by(|a, b| {
        java_order(&a.place.file, &b.place.file)
            .then(a.place.line.cmp(&b.place.line))
            .then(a.severity.cmp(&b.severity))
    });
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    Report {
        rules: rule_count,
        errors,
        warnings: findings.len() - errors,
        findings,
        untested,
    }
}

/// Lints every rule of `source` into `findings`: the rules read, and
/// whether they load as a project does (no duplicate names).
fn check_rules(
    fs: &dyn FileSource,
    source: &RulesSource,
    files: Option<&[String]>,
    findings: &mut Vec<Finding>,
) -> (RuleSet, bool) {
    let (listing, duplicates) = scan_rule_files(fs, source);
    let loads = duplicates.is_none();
    if let Some(error) = duplicates {
        findings.push(
            Finding::from_error(&error, &Place::file(&source.root)).with_hint(
                "rename one of them: a rule's name is its path below its rules directory",
            ),
        );
    }
    let set = RuleSet::read(fs, listing);
    findings.extend(set.findings.iter().cloned());
    for rule in set.all() {
        findings.extend(lint_rule(rule));
        let place = Place::file(&rule.path);
        findings.extend(
            check_imports(fs, &source.root, rule)
                .iter()
                .map(|e| Finding::from_error(e, &place)),
        );
    }
    if let Some(files) = files {
        // A glob line with a finding of its own (braces, a bad pattern)
        // says enough already.
        let reach: Vec<Finding> = reach::unmatched_globs(set.all(), files)
            .into_iter()
            .filter(|warning| findings.iter().all(|f| f.place != warning.place))
            .collect();
        findings.extend(reach);
    }
    (set, loads)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    #[test]
    fn reports_everything_in_one_run() {
        let mut fs = MemoryFs::new();
        fs.add_file(
            "/p/rule-fairy.edn",
            "{:rules {:dirs [\".cursor/rules\" \"more\"]}\n :shell-hook {:codex \"yes\"}}",
        )
        .add_file("/p/.cursor/rules/a.mdc", "---\nglobs: src/[a\n---\nBody")
        .add_file("/p/more/a.mdc", "---\nalwaysApply: \"true\"\n---\nBody")
        .add_file("/p/.cursor/rules/ok.mdc", "---\nglobs: src/**\n---\nBody")
        .add_file("/p/.cursor/rules/bin.mdc", b"\x00\xff".as_slice());
        let report = check_project(&fs, "/p");
        let messages: Vec<String> = report
            .findings
            .iter()
            .map(|f| format!("{}: {}", f.place, f.message))
            .collect();
        assert_eq!(report.rules, 3, "{messages:#?}");
        assert_eq!(report.errors, 5, "{messages:#?}");
        assert!(
            messages.contains(&"/p/.cursor/rules/a.mdc:2: Invalid rule glob: src/[a".to_string()),
            "{messages:#?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with("/p/more/a.mdc:2: alwaysApply")),
            "{messages:#?}"
        );
        assert!(messages
            .iter()
            .any(|m| m.contains("Rule names defined in more than one rules directory: a.mdc")));
        assert!(messages
            .iter()
            .any(|m| m.starts_with("/p/rule-fairy.edn:2: :shell-hook values")));
        assert!(messages
            .iter()
            .any(|m| m.starts_with("/p/.cursor/rules/bin.mdc:1: not valid UTF-8")));
    }

    #[test]
    fn imports_are_resolved_with_file_and_line() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "---\nalwaysApply: true\n---\n# A\n\n@doc/guide.md#missing\n@doc/gone.md\n@../outside.md")
            .add_file("/p/doc/guide.md", "# Guide\n\n## One\n\ntext\n<!-- agent-context: omit -->\n");
        let report = check_project(&fs, "/p");
        let messages: Vec<String> = report
            .findings
            .iter()
            .map(|f| format!("{}: {}", f.place, f.message))
            .collect();
        assert!(messages.contains(&"/p/.cursor/rules/a.mdc:6: Rule import heading does not exist: doc/guide.md#missing".to_string()), "{messages:#?}");
        assert!(
            messages.contains(
                &"/p/.cursor/rules/a.mdc:7: Rule import does not exist: doc/gone.md".to_string()
            ),
            "{messages:#?}"
        );
        assert!(
            messages.contains(
                &"/p/.cursor/rules/a.mdc:8: Rule import escapes the project root: ../outside.md"
                    .to_string()
            ),
            "{messages:#?}"
        );
        assert!(
            messages.iter().any(|m| m
                .starts_with("/p/doc/guide.md:6: Unclosed agent-context omission in doc/guide.md")),
            "{messages:#?}"
        );
    }

    #[test]
    fn a_broken_config_is_one_error() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/rule-fairy.edn", "{:rules {:dirs [\"x\"]}");
        let report = check_project(&fs, "/p");
        assert_eq!(report.errors, 1);
        assert_eq!(
            report.findings[0].place,
            Place::line("/p/rule-fairy.edn", 1)
        );
        assert!(report.findings[0]
            .message
            .starts_with("EOF while reading a map"));
    }
}
