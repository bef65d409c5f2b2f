//! Rule Fairy's gate: a repository's own [ast-grep] rules, held to in
//! process, with no `ast-grep` binary needed.
//!
//! Rules are ast-grep's YAML (`id`, `language`, `severity`, `message`,
//! `note`, `rule`, `files`/`ignores`; several per file separated by `---`),
//! found through `sgconfig.yml` (`ruleDirs`, `testConfigs`,
//! `languageGlobs`), in `.kairoku/rules`, and in the directories
//! `:gate {:dirs [...]}` names in `rule-fairy.edn`, subdirectories
//! included. They are read from the working tree or from a git ref, so a
//! change cannot weaken the gate that judges it.
//!
//! Everything fails closed: a rule that cannot be parsed, a language that
//! is unknown or not compiled into this build, a path that does not exist,
//! a rule directory or rule file that holds no rule is a [`GateError`]
//! naming the file and line, never a clean result. A file the gate cannot
//! judge whole (larger than [`MAX_SOURCE_BYTES`], or with a syntax error
//! the parser recovered from) is an [`Unchecked`] in the report, beside the
//! findings it did find, and the report is not [`complete`] unless
//! `:gate :unchecked` in `rule-fairy.edn` lists it.
//!
//! For a hook that has just seen files written:
//!
//! ```no_run
//! use std::path::{Path, PathBuf};
//! let report = rule_fairy_gate::check_files(
//!     Path::new("/repo"),
//!     &[PathBuf::from("src/api/orders.ts")],
//! )?;
//! for finding in &report.findings {
//!     print!("{}", finding.human()); // rule id, file:line, message, note
//! }
//! for file in &report.unchecked {
//!     println!("{file}"); // could not check fully: <file>: <reason>
//! }
//! # Ok::<(), rule_fairy_gate::GateError>(())
//! ```
//!
//! [`complete`]: ScanReport::complete
//!
//! # The modules
//!
//! The modules are private; this page re-exports what the other crates
//! use: the [`Gate`], [`check_files`], and the types their calls return.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `config` | where the rules and rule tests are: `sgconfig.yml`, `.kairoku`, `:gate` |
//! | `tree`, `git` | the files those are read from: the working tree, or one git commit |
//! | `language`, `languages` | language names, the grammars compiled in, `languageGlobs` |
//! | `rules` | loading and checking each [`Rule`] |
//! | `scope` | which rules a check of some files needs: those that can judge them |
//! | `walk` | which files a scan reads |
//! | `source` | reading one of them within the gate's bounds |
//! | `scan` | one file's text against the rules of its language |
//! | `rule_test` | rule tests (`valid`, `invalid`) and their [`TestReport`] |
//! | `finding`, `error` | what a scan reports ([`Finding`], [`Severity`], [`Unchecked`]) and what stops it ([`GateError`]) |
//! | `yaml` | a file's YAML documents, split at `---` and read as ast-grep reads them, each error at its line in the file |
//!
//! [ast-grep]: https://ast-grep.github.io

#![warn(missing_docs)]

mod config;
mod error;
mod finding;
mod git;
mod language;
mod languages;
mod rule_test;
mod rules;
mod scan;
mod scope;
mod source;
mod tree;
mod walk;
mod yaml;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use error::GateError;
pub use finding::{Finding, Severity, Unchecked, UncheckedReason};
pub use language::SupportLang;
pub use rule_test::{CaseFailure, Failure, RuleTests, TestReport};
pub use rules::Rule;
pub use source::MAX_SOURCE_BYTES;

use config::{read_config, GateConfig};
use git::GitTree;
use rule_test::{read_tests, run_tests};
use rules::load_rules;
use scan::{scan_source, SourceScan};
use scope::Scope;
use source::read_source;
use tree::{RuleTree, WorkTree};
use walk::{relative_name, targets, Target};

/// A project's gate: its configuration and compiled rules, loaded once and
/// used for any number of checks.
pub struct Gate {
    root: PathBuf,
    tree: Box<dyn RuleTree>,
    config: GateConfig,
    rules: Vec<Rule>,
    /// The files the gate was loaded to check, when it holds only the
    /// rules that can judge them ([`Gate::load_for`]).
    scope: Option<Vec<Target>>,
}

/// What a scan read and found.
#[derive(Debug, Clone, Default)]
pub struct ScanReport {
    /// Sorted by file, line and column.
    pub findings: Vec<Finding>,
    /// Files the scan was to read (those of a language some rule is
    /// written for), whether or not each could be checked whole.
    pub files_scanned: usize,
    /// The files that could not be checked whole, sorted by file; those
    /// `:gate :unchecked` lists are among them, marked `allowed`.
    pub unchecked: Vec<Unchecked>,
}

impl ScanReport {
    /// True when a finding has error severity: the scan fails.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// True when every file was checked whole, or may go unchecked: the
    /// scan judged everything it was to judge.
    pub fn complete(&self) -> bool {
        self.unchecked.iter().all(|u| u.allowed)
    }
}

/// A rule and how well its tests cover it, for `rule-fairy check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCoverage {
    /// The rule's `id`.
    pub id: String,
    /// Its language, as ast-grep names it (`TypeScript`).
    pub language: String,
    /// Its severity.
    pub severity: Severity,
    /// The rule file, as messages name it.
    pub file: String,
    /// The line of the rule's first key in that file.
    pub line: usize,
    /// `valid` cases for the rule (snippets it must not match), over all
    /// its test documents.
    pub valid_cases: usize,
    /// `invalid` cases for the rule (snippets it must match), over all its
    /// test documents.
    pub invalid_cases: usize,
}

fn canonical_root(root: &Path) -> Result<PathBuf, GateError> {
    root.canonicalize()
        .ok()
        .filter(|p| p.is_dir())
        .ok_or_else(|| {
            GateError::new(format!(
                "the project directory does not exist: {}",
                root.display()
            ))
        })
}

impl Gate {
    /// Loads the gate from the project's working tree.
    pub fn load(project_root: &Path) -> Result<Gate, GateError> {
        let root = canonical_root(project_root)?;
        let tree = Box::new(WorkTree::new(&root));
        Gate::from_tree(root, tree, None)
    }

    /// Loads the gate's configuration, rules and rule tests from one commit
    /// of git (`origin/main`, a tag, a commit id) instead of the working
    /// tree; the files scanned are still the working tree's.
    pub fn load_from_ref(project_root: &Path, reference: &str) -> Result<Gate, GateError> {
        let root = canonical_root(project_root)?;
        let tree = Box::new(GitTree::open(&root, reference)?);
        Gate::from_tree(root, tree, None)
    }

    /// Loads the gate to check only `files` (relative to the project root),
    /// from the working tree or, with `reference`, from that commit: the
    /// per-write check. Only the rules whose language and `files`/`ignores`
    /// can judge one of the files are compiled; a rule that cannot is not
    /// read for errors either (the scan of record still is, behaviour
    /// §8.4). Such a gate checks those files ([`Gate::check_files`]) and
    /// nothing else.
    pub fn load_for(
        project_root: &Path,
        reference: Option<&str>,
        files: &[PathBuf],
    ) -> Result<Gate, GateError> {
        let root = canonical_root(project_root)?;
        let tree: Box<dyn RuleTree> = match reference {
            Some(reference) => Box::new(GitTree::open(&root, reference)?),
            None => Box::new(WorkTree::new(&root)),
        };
        Gate::from_tree(root, tree, Some(files))
    }

    /// The gate over `tree`: every rule, or with `files` only those that
    /// can judge them.
    fn from_tree(
        root: PathBuf,
        tree: Box<dyn RuleTree>,
        files: Option<&[PathBuf]>,
    ) -> Result<Gate, GateError> {
        let config = read_config(tree.as_ref())?;
        let targets = files.map(|files| written_targets(&root, files));
        let scope = targets.as_deref().map(|targets| {
            Scope::new(
                targets
                    .iter()
                    .filter_map(|t| {
                        Some((t.name.clone(), config.language_globs.language_of(&t.name)?))
                    })
                    .collect(),
            )
        });
        let rules = load_rules(tree.as_ref(), &config, scope.as_ref())?;
        Ok(Gate {
            root,
            tree,
            config,
            rules,
            scope: targets,
        })
    }

    /// Refuses to judge the project with a gate that holds only the rules
    /// for some files: it would pass what the other rules catch.
    fn whole(&self) -> Result<(), GateError> {
        match self.scope {
            None => Ok(()),
            Some(_) => Err(GateError::new(
                "this gate was loaded to check some files only; load the whole gate to scan, test or list its rules",
            )),
        }
    }

    /// The rules, in the order their files were found; for a gate loaded
    /// for some files ([`Gate::load_for`]), those that can judge them.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The canonical project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The rule directories found, project-relative.
    pub fn rule_dirs(&self) -> &[String] {
        &self.config.rule_dirs
    }

    /// The language a project-relative path is parsed as, `languageGlobs`
    /// first.
    pub fn language_of(&self, name: &str) -> Option<SupportLang> {
        self.config.language_globs.language_of(name)
    }

    fn rules_by_language(&self) -> HashMap<SupportLang, Vec<&Rule>> {
        let mut map: HashMap<SupportLang, Vec<&Rule>> = HashMap::new();
        for rule in &self.rules {
            if rule.severity() != Severity::Off {
                map.entry(rule.language()).or_default().push(rule);
            }
        }
        map
    }

    /// Checks files an agent has just written. Relative paths are relative
    /// to the project root. A file that no longer exists, lies outside the
    /// project, or is of no language a rule is written for has nothing to
    /// report; the scan of record ([`Gate::scan`]) is where the whole tree
    /// is held to the rules.
    ///
    /// A gate loaded for some files checks only those: any other file is
    /// an error, as its rules may not have been loaded.
    pub fn check_files(&self, files: &[PathBuf]) -> Result<ScanReport, GateError> {
        let chosen = written_targets(&self.root, files);
        if let Some(scope) = &self.scope {
            if let Some(other) = chosen
                .iter()
                .find(|t| !scope.iter().any(|s| s.path == t.path))
            {
                return Err(GateError::new(format!(
                    "this gate was loaded to check other files, not {}",
                    other.name
                )));
            }
        }
        self.scan_targets(&chosen)
    }

    /// Scans the whole project (no `paths`) or the given files and
    /// directories (relative to the project root). A path that does not
    /// exist is an error.
    pub fn scan(&self, paths: &[PathBuf]) -> Result<ScanReport, GateError> {
        self.whole()?;
        if self.rules.is_empty() {
            // Still refuse a missing path: the answer must not depend on
            // whether rules exist.
            for given in paths {
                if !self.root.join(given).exists() {
                    return Err(GateError::new(format!(
                        "path does not exist: {} (nothing was scanned)",
                        given.display()
                    )));
                }
            }
            return Ok(ScanReport::default());
        }
        let targets = targets(&self.root, paths)?;
        self.scan_targets(&targets)
    }

    fn scan_targets(&self, targets: &[Target]) -> Result<ScanReport, GateError> {
        let by_language = self.rules_by_language();
        let work: Vec<(&Target, SupportLang, Vec<&Rule>)> = targets
            .iter()
            .filter_map(|t| {
                let lang = self.language_of(&t.name)?;
                let rules: Vec<&Rule> = by_language
                    .get(&lang)?
                    .iter()
                    .copied()
                    .filter(|r| r.applies_to(&t.name))
                    .collect();
                (!rules.is_empty()).then_some((t, lang, rules))
            })
            .collect();
        let config = &self.config;
        let results = parallel(&work, |(target, lang, rules)| {
            let unchecked = |reason| Unchecked {
                file: target.name.clone(),
                reason,
                allowed: config.may_go_unchecked(&target.name),
            };
            Ok(match read_source(&target.path) {
                Ok(text) => {
                    let SourceScan {
                        findings,
                        syntax_error,
                    } = scan_source(rules, *lang, &target.name, &text);
                    let partial =
                        syntax_error.map(|line| unchecked(UncheckedReason::SyntaxError(line)));
                    (findings, partial)
                }
                Err(reason) => (Vec::new(), Some(unchecked(reason))),
            })
        })?;
        let mut findings: Vec<Finding> = Vec::new();
        let mut unchecked: Vec<Unchecked> = Vec::new();
        for (found, partial) in results {
            findings.extend(found);
            unchecked.extend(partial);
        }
        findings.sort_by(|a, b| {
            (&a.file, a.line, a.column, &a.rule_id).cmp(&(&b.file, b.line, b.column, &b.rule_id))
        });
        unchecked.sort_by(|a, b| a.file.cmp(&b.file));
        Ok(ScanReport {
            findings,
            files_scanned: work.len(),
            unchecked,
        })
    }

    /// The rule tests (`<testDir>/<rule-id>-test.yml`).
    pub fn tests(&self) -> Result<Vec<RuleTests>, GateError> {
        read_tests(self.tree.as_ref(), &self.config)
    }

    /// Runs every rule test.
    pub fn test(&self) -> Result<TestReport, GateError> {
        self.whole()?;
        Ok(run_tests(&self.rules, &self.tests()?))
    }

    /// Each rule with its language and how many test cases cover it.
    pub fn coverage(&self) -> Result<Vec<RuleCoverage>, GateError> {
        self.whole()?;
        let tests = self.tests()?;
        Ok(self
            .rules
            .iter()
            .map(|rule| {
                let mine = tests.iter().filter(|t| t.rule_id == rule.id());
                let (valid, invalid) =
                    mine.fold((0, 0), |(v, i), t| (v + t.valid.len(), i + t.invalid.len()));
                RuleCoverage {
                    id: rule.id().to_string(),
                    language: rule.language().to_string(),
                    severity: rule.severity(),
                    file: rule.file.clone(),
                    line: rule.line,
                    valid_cases: valid,
                    invalid_cases: invalid,
                }
            })
            .collect())
    }
}

/// The written files that exist as regular files inside the project, each
/// once; the others have nothing to report.
fn written_targets(root: &Path, files: &[PathBuf]) -> Vec<Target> {
    let mut chosen = Vec::new();
    for file in files {
        let Ok(path) = root.join(file).canonicalize() else {
            continue;
        };
        if !path.starts_with(root) || !path.is_file() {
            continue;
        }
        chosen.push(Target {
            name: relative_name(root, &path),
            path,
        });
    }
    chosen.dedup_by(|a, b| a.path == b.path);
    chosen
}

/// Runs `job` over `items` on every core, keeping the input order; the
/// first error wins.
fn parallel<T: Sync, R: Send>(
    items: &[T],
    job: impl Fn(&T) -> Result<R, GateError> + Sync,
) -> Result<Vec<R>, GateError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(&job).collect();
    }
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<R, GateError>>> = Vec::new();
    slots.resize_with(items.len(), || None);
    let done: Vec<Vec<(usize, Result<R, GateError>)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            break;
                        };
                        out.push((i, job(item)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a scan worker panicked"))
            .collect()
    });
    for (i, result) in done.into_iter().flatten() {
        slots[i] = Some(result);
    }
    slots.into_iter().flatten().collect()
}

/// Loads the project's gate from its working tree and checks the files an
/// agent has just written: the call behind `rule-fairy gate check` and the
/// hooks. Relative paths are relative to `project_root`. Each finding
/// carries the rule id, the project-relative file, the 1-based line, the
/// message, the note and the severity; [`Finding::human`] formats one for
/// a model to read. Each file that could not be checked whole is an
/// [`Unchecked`] beside them. A project with no rules gives no findings.
///
/// Errors (a rule that cannot be parsed, a language this build cannot
/// parse) mean the check could not be done: report them, do not treat them
/// as clean.
pub fn check_files(project_root: &Path, files: &[PathBuf]) -> Result<ScanReport, GateError> {
    Gate::load_for(project_root, None, files)?.check_files(files)
}
