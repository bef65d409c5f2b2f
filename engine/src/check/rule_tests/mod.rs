//! `rule-fairy test`: a project's rule tests, each naming a rule with the
//! events that must select it (`fires`) and those that must not
//! (`silent`), found in a `rule-tests` folder beside each rules directory
//! (`.cursor/rule-tests` for `.cursor/rules`), read, judged by the same
//! selection the hooks make, and reported rule by rule.

mod file;
mod judge;
mod starter;

use serde::Serialize;

use crate::base::contain::Containment;
use crate::base::error::Place;
use crate::base::fs::{FileSource, Kind};
use crate::base::paths;
use crate::base::text::decode;
use crate::matching::facts::project_tags;
use crate::matching::find_rule::{find_rule, NoRule};
use crate::matching::project::Project;
use crate::rules::discovery::{java_order, MAX_DEPTH};

pub use file::MAX_EVENTS;
pub use file::{describe_event, read_test_file, RuleTest, TestEvent, TestFile, TestProblem};
pub use judge::{Failure, RuleReport};
pub(crate) use starter::event_test;
pub use starter::{starter, Starter};

/// The folder of rule tests beside each rules directory.
pub const TEST_DIR: &str = "rule-tests";

/// Everything one run found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TestRun {
    /// The test files read, project-relative, in name order.
    pub files: Vec<String>,
    /// Each test's report, in file order.
    pub rules: Vec<RuleReport>,
    /// Why a test file, or a test in it, could not run.
    pub problems: Vec<TestProblem>,
}

impl TestRun {
    /// Whether some test found its rule selected wrongly.
    pub fn failed(&self) -> bool {
        self.rules.iter().any(|r| !r.passed)
    }
}

/// The folders rule tests are read from, project-relative: the
/// `rule-tests` beside each rules directory of `:rules :dirs`, in their
/// order (`.cursor/rule-tests` by default), each once.
pub fn test_dirs(project: &Project) -> Vec<String> {
    let mut dirs: Vec<String> = Vec::new();
    for dir in &project.source.dirs {
        let parent = paths::parent(dir).unwrap_or(dir);
        let tests = paths::join(parent, TEST_DIR);
        let relative = paths::strip_base(&tests, &project.root)
            .unwrap_or(&tests)
            .trim_start_matches('/')
            .to_string();
        if !dirs.contains(&relative) {
            dirs.push(relative);
        }
    }
    dirs
}

/// The test files of `project` (`*.yml`, `*.yaml`, below each of
/// [`test_dirs`]), project-relative, in name order.
pub fn test_files(fs: &dyn FileSource, project: &Project) -> Vec<String> {
    let mut found = Vec::new();
    for dir in test_dirs(project) {
        walk(fs, &project.root, &dir, 0, &mut found);
    }
    found.sort_by(|a, b| java_order(a, b));
    found.dedup();
    found
}

fn walk(fs: &dyn FileSource, root: &str, dir: &str, depth: usize, found: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = fs.list_kinds(&paths::join(root, dir)) else {
        return;
    };
    for (name, kind) in entries {
        let path = format!("{dir}/{name}");
        let kind = kind.or_else(|| fs.try_stat(&paths::join(root, &path)).map(|m| m.kind));
        match kind {
            Some(Kind::Dir) => walk(fs, root, &path, depth + 1, found),
            Some(Kind::File) if name.ends_with(".yml") || name.ends_with(".yaml") => {
                found.push(path);
            }
            _ => {}
        }
    }
}

/// Reads and judges every test of `project`; with `only`, just the tests
/// of those rules (a name no rule answers to is [`NoRule`]). A rule asked
/// for that no test names is a problem at its file.
pub fn run_rule_tests(
    fs: &dyn FileSource,
    project: &Project,
    only: &[String],
) -> Result<TestRun, NoRule> {
    let mut wanted = Vec::new();
    for name in only {
        let place = find_rule(project, name)?;
        wanted.push(project.rules.at(place).name.clone());
    }
    let tags = project_tags(fs, &project.root);
    let mut run = TestRun {
        files: test_files(fs, project),
        ..TestRun::default()
    };
    for file in &run.files {
        let read = match read_file(fs, project, file) {
            Ok(text) => read_test_file(file, &text),
            Err(problem) => TestFile {
                tests: Vec::new(),
                problems: vec![problem],
            },
        };
        run.problems.extend(read.problems);
        for test in &read.tests {
            // Only the asked-for rules: a name that resolves elsewhere is
            // not run, and not a problem either.
            if !wanted.is_empty() {
                match find_rule(project, &test.rule) {
                    Ok(place) if wanted.contains(&project.rules.at(place).name) => {}
                    _ => continue,
                }
            }
            match judge::judge(fs, project, &tags, test) {
                Ok(report) => run.rules.push(report),
                Err(problem) => run.problems.push(problem),
            }
        }
    }
    for name in &wanted {
        if !run.rules.iter().any(|r| &r.rule == name) {
            let rule = project.rule(name);
            let file = rule.map_or(name.clone(), |r| relative(&project.root, &r.path));
            run.problems.push(TestProblem {
                place: Place::file(file),
                message: format!("no test names {name}: `rule-fairy test --new {name}` writes one"),
            });
        }
    }
    Ok(run)
}

/// The rules of `project` no readable test names, in name order: what
/// `check` lists.
pub fn untested_rules(fs: &dyn FileSource, project: &Project) -> Vec<String> {
    // One flag a rule: a list searched per rule is quadratic at 10,000.
    let mut tested = vec![false; project.rules.len()];
    for file in test_files(fs, project) {
        let Ok(text) = read_file(fs, project, &file) else {
            continue;
        };
        for test in read_test_file(&file, &text).tests {
            if let Ok(place) = find_rule(project, &test.rule) {
                tested[place] = true;
            }
        }
    }
    project
        .rules
        .all()
        .iter()
        .zip(tested)
        .filter(|(_, tested)| !tested)
        .map(|(rule, _)| rule.name.clone())
        .collect()
}

/// A test file's text, read as every project file is (behaviour §0.1).
fn read_file(fs: &dyn FileSource, project: &Project, file: &str) -> Result<String, TestProblem> {
    let bytes = Containment::project(fs, &project.root)
        .read(fs, &paths::join(&project.root, file))
        .map_err(|refusal| TestProblem {
            place: Place::file(file),
            message: format!("the test file is not read: {refusal}"),
        })?;
    decode(&bytes).map_err(|e| TestProblem::at(file, e.line, format!("the test file {e}")))
}

fn relative(root: &str, path: &str) -> String {
    paths::strip_base(path, root)
        .unwrap_or(path)
        .trim_start_matches('/')
        .to_string()
}
