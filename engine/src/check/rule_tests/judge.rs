//! Judging one test: each event is explained by the engine exactly as
//! `explain` and the hooks select (behaviour §2.6), and the rule must be
//! among the selected for a `fires` event and absent for a `silent` one.

use serde::Serialize;

use crate::base::error::Place;
use crate::base::fs::FileSource;
use crate::check::rule_tests::file::{RuleTest, TestEvent, TestProblem};
use crate::delivery::selection::read_contents;
use crate::matching::describe::{describe, describe_check, describe_condition, describe_no_rule};
use crate::matching::event::{Event, Query};
use crate::matching::explain::explain;
use crate::matching::facts::Facts;
use crate::matching::find_rule::find_rule;
use crate::matching::project::Project;
use crate::matching::why_not::{why_not, Check};

/// One event whose verdict was not the test's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Failure {
    /// A `fires` event did not select the rule.
    Missing {
        /// The event's line in the test file.
        line: usize,
        /// The event in a few words.
        event: String,
        /// Each condition of the rule that did not hold, as `--why-not`
        /// words it.
        why: Vec<String>,
    },
    /// A `silent` event selected the rule.
    Noisy {
        /// The event's line in the test file.
        line: usize,
        /// The event in a few words.
        event: String,
        /// Why it fired, as `explain` words it.
        why: Vec<String>,
    },
}

/// What one test found of its rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleReport {
    /// The rule's name.
    pub rule: String,
    /// The test: its file and the line of its `rule:`.
    pub test: Place,
    /// How many events were judged.
    pub events: usize,
    /// Whether every event was judged as the test says.
    pub passed: bool,
    /// The events whose verdict was not the test's, in file order.
    pub failures: Vec<Failure>,
}

/// Judges `test` against `project`, whose marker files gave `tags`.
pub(crate) fn judge(
    fs: &dyn FileSource,
    project: &Project,
    tags: &[String],
    test: &RuleTest,
) -> Result<RuleReport, TestProblem> {
    let place = find_rule(project, &test.rule).map_err(|no| TestProblem {
        place: test.place.clone(),
        message: describe_no_rule(&no),
    })?;
    let name = project.rules.at(place).name.clone();
    let mut failures = Vec::new();
    let expected = test
        .fires
        .iter()
        .map(|e| (e, true))
        .chain(test.silent.iter().map(|e| (e, false)));
    for (event, fires) in expected {
        let facts = facts_of(event, tags);
        let contents = contents(fs, project, event);
        let query = Query::new(&event.event, &facts).with_contents(contents.as_deref());
        let explanation = explain(&project.index, &query);
        let fired = explanation.rules.into_iter().find(|rule| rule.name == name);
        let words = || event.describe();
        match (fires, fired) {
            (true, None) => failures.push(Failure::Missing {
                line: event.line,
                event: words(),
                why: why_not(project, &query, &name, None)
                    .map(|answer| missing_why(&answer.checks, &event.event))
                    .unwrap_or_default(),
            }),
            (false, Some(rule)) => failures.push(Failure::Noisy {
                line: event.line,
                event: words(),
                why: rule
                    .reasons
                    .iter()
                    .map(describe)
                    .chain(rule.conditions.iter().map(describe_condition))
                    .collect(),
            }),
            _ => {}
        }
    }
    Ok(RuleReport {
        rule: name,
        test: test.place.clone(),
        events: test.fires.len() + test.silent.len(),
        passed: failures.is_empty(),
        failures,
    })
}

/// Why a `fires` event did not select its rule: each condition that did
/// not hold and could have for this kind of event (keywords are not
/// listed at an edit, nor globs at a prompt); when none could, so.
fn missing_why(checks: &[Check], event: &Event) -> Vec<String> {
    let declared = !checks.is_empty();
    let why: Vec<String> = checks
        .iter()
        .filter(|check| !check.held() && could_hold(check))
        .map(describe_check)
        .collect();
    if why.is_empty() && declared {
        return vec![format!(
            "no condition of the rule can hold at a {} event",
            event.kind().name()
        )];
    }
    why
}

/// Whether a condition is judged at all at the event it was judged for:
/// a prompt's conditions at a path event are not, nor a path's at a prompt.
fn could_hold(check: &Check) -> bool {
    match check {
        Check::AlwaysApply { at_prompt, .. } | Check::Keywords { at_prompt, .. } => *at_prompt,
        Check::Glob { path, error, .. } | Check::FileContains { path, error, .. } => {
            path.is_some() || error.is_some()
        }
        Check::Read { .. } | Check::Fact(_) => true,
    }
}

/// Whether `event` selects the rule named `name`: the judgement of a
/// test of that one event.
pub(crate) fn selects(
    fs: &dyn FileSource,
    project: &Project,
    tags: &[String],
    name: &str,
    event: &TestEvent,
) -> bool {
    let test = RuleTest {
        rule: name.to_string(),
        place: Place::file(""),
        fires: vec![event.clone()],
        silent: Vec::new(),
    };
    judge(fs, project, tags, &test).is_ok_and(|report| report.passed)
}

/// The event's facts with the project's tags: what a test does not set
/// is unknown, so a run does not depend on the machine it runs on.
fn facts_of(event: &TestEvent, tags: &[String]) -> Facts {
    let mut facts = event.facts.clone();
    facts.project = Some(tags.to_vec());
    facts
}

/// Each edited path's content when some rule tests contents: the test's
/// `files`, else the file in the project, as the hooks read it.
fn contents(
    fs: &dyn FileSource,
    project: &Project,
    event: &TestEvent,
) -> Option<Vec<Option<String>>> {
    // The hooks read an edit's and a shell change's files alike.
    if !matches!(event.event, Event::Edit { .. } | Event::Shell { .. })
        || !project.index.needs_contents()
    {
        return None;
    }
    let paths = event.event.matched_paths();
    Some(
        paths
            .iter()
            .map(|path| match event.files.get(path) {
                Some(given) => Some(given.clone()),
                None => read_contents(fs, project, std::slice::from_ref(path))
                    .and_then(|mut read| read.pop().flatten()),
            })
            .collect(),
    )
}
