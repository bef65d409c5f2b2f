//! Why one rule does or does not fire for an event: each condition it
//! declares with what it wanted, what the event had and whether it held;
//! how they combine (behaviour §2.4); what kind of rule it is and how it
//! can come at all (§9); and what a delivery record would do with it
//! ([`crate::matching::held_back`]). `explain --why-not` prints it and the
//! playground shows it, in the words of [`crate::matching::describe`].
//!
//! The verdict is the index's own ([`crate::matching::index`]), so it
//! never disagrees with what a delivery selects; the conditions are judged
//! here one by one, the same way, to say why.

use serde::Serialize;

use crate::base::error::{Error, ErrorKind};
use crate::base::paths;
use crate::matching::conditions::{compile_pattern, Outcome};
use crate::matching::event::{Event, EventKind, Query};
use crate::matching::facts::command_of;
use crate::matching::find_rule::{find_rule, NoRule};
use crate::matching::glob::{self, Matcher};
use crate::matching::held_back::{delivery, Delivery, HeldBy};
use crate::matching::index::{compile_glob, scoped_globs, shown_glob};
use crate::matching::keywords::KeywordMatcher;
use crate::matching::project::Project;
use crate::rules::reach;
use crate::rules::rule::Rule;

/// How a rule can come at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum RuleKind {
    /// Every prompt selects it (behaviour §2.4).
    AlwaysOn,
    /// A nested folder's always-on rule: every path below its base
    /// selects it (§1.2).
    AlwaysOnBelow,
    /// Offered in the index by its description; the model reads its file
    /// to get it (§9.1, §9.2).
    Requestable,
    /// Only a prompt mentioning it selects it (§9.3).
    Manual,
    /// Its conditions decide (§2.4).
    Conditional,
}

/// One prompt term and whether the prompt holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Term {
    /// The term, lower-cased as the rule declares it.
    pub term: String,
    /// Whether the prompt holds it (behaviour §2.4's boundaries).
    pub found: bool,
}

/// What one glob made of one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum GlobOutcome {
    /// It matched the path.
    Matched,
    /// It did not.
    Missed,
    /// A prompt has no path for it.
    NoPath,
    /// It does not compile (behaviour §2.2); `error` says why.
    Invalid,
    /// It matched, but an invalid glob before it is reached first and
    /// stops the rule's globs (§2.2).
    AfterInvalid,
}

/// What one `fileContains` pattern made of one path's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum ContentOutcome {
    /// The content matches it.
    Found,
    /// It does not.
    NotFound,
    /// The file could not be read (missing, not text, outside the
    /// project, too large: behaviour §0.1), so it does not hold.
    Unreadable,
    /// The host gave no contents for the event.
    NotRead,
    /// A prompt has no file for it.
    NoPath,
    /// It does not compile; `error` says why.
    Invalid,
}

/// One condition the rule declares, judged against the event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "check", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum Check {
    /// `alwaysApply`: holds at a prompt, not at a path event (§2.3).
    #[serde(rename_all = "camelCase")]
    AlwaysApply {
        /// Whether it held.
        held: bool,
        /// Whether the event was a prompt.
        at_prompt: bool,
    },
    /// The prompt trigger: one of the any-of terms and every required one.
    #[serde(rename_all = "camelCase")]
    Keywords {
        /// The any-of terms (`promptAnyOf`, `keywords`).
        any_of: Vec<Term>,
        /// The required terms (`promptRequires`).
        requires: Vec<Term>,
        /// Whether it held.
        held: bool,
        /// Whether the event was a prompt (terms are tested only there).
        at_prompt: bool,
    },
    /// One glob against one path (none at a prompt).
    #[serde(rename_all = "camelCase")]
    Glob {
        /// The glob as it reads from the project root, normalised.
        glob: String,
        /// The path, project-relative and normalised as globs see it.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", tsify(optional))]
        path: Option<String>,
        /// What the glob made of it.
        outcome: GlobOutcome,
        /// Whether the glob holds for the path.
        held: bool,
        /// Why the glob is invalid.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", tsify(optional))]
        error: Option<String>,
    },
    /// One `fileContains` pattern against one path's content.
    #[serde(rename_all = "camelCase")]
    FileContains {
        /// The pattern as the rule declares it.
        pattern: String,
        /// The path whose content was tested.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", tsify(optional))]
        path: Option<String>,
        /// What the pattern made of it.
        outcome: ContentOutcome,
        /// Whether it held.
        held: bool,
        /// Why the pattern is invalid.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", tsify(optional))]
        error: Option<String>,
    },
    /// A read of the requestable rule's file (behaviour §9.2).
    #[serde(rename_all = "camelCase")]
    Read {
        /// The rule's file, project-relative.
        file: String,
        /// Whether the event read it.
        held: bool,
    },
    /// A condition on a fact (command, project, os, ci, branch, model,
    /// agent, tools), as `explain` reports it.
    Fact(Outcome),
}

impl Check {
    /// Whether the condition held.
    pub fn held(&self) -> bool {
        match self {
            Check::AlwaysApply { held, .. }
            | Check::Keywords { held, .. }
            | Check::Glob { held, .. }
            | Check::FileContains { held, .. }
            | Check::Read { held, .. } => *held,
            Check::Fact(outcome) => outcome.held,
        }
    }
}

/// One path of a path event, judged on its own (behaviour §2.4: a path
/// event selects a rule for the path that reached it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct PathVerdict {
    /// The path as globs see it: project-relative, normalised (§2.1).
    pub path: String,
    /// The path as the event gave it, when that differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub given: Option<String>,
    /// It leaves the project, so no rule matches it (§0.1).
    pub outside: bool,
    /// A glob or `fileContains` of the rule held for it.
    pub reached: bool,
    /// The rule fires for it.
    pub fires: bool,
}

/// Why one rule does or does not fire for one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct WhyNot {
    /// The rule's name.
    pub name: String,
    /// Its file, project-relative.
    pub file: String,
    /// The event judged.
    pub event: EventKind,
    /// How the rule can come at all.
    pub kind: RuleKind,
    /// A requestable rule's description, as the index offers it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub description: Option<String>,
    /// A nested folder's rule: the directory its globs are relative to.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub base: Option<String>,
    /// The shortest mention that names it, with its `@`.
    pub mention: String,
    /// `match: all`: every condition must hold; else one is enough.
    pub match_all: bool,
    /// Every condition it declares, judged: `alwaysApply`, the keywords,
    /// each glob on each path, each `fileContains` pattern on each path's
    /// content, then the facts.
    pub checks: Vec<Check>,
    /// For a path event, each path's verdict, in the event's order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub paths: Vec<PathVerdict>,
    /// Whether the conditions combine to true (for a path event: for some
    /// path that reached the rule).
    pub conditions_hold: bool,
    /// The prompt's mentions naming the rule, which select it whatever its
    /// conditions (§9.3).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub mentioned: Vec<String>,
    /// The verdict: the event selects the rule.
    pub fires: bool,
    /// What a delivery record does with it once it fires.
    pub delivery: Delivery,
}

/// Why the rule named `rule` does or does not fire for `query`'s event in
/// `project`, with what a session's record (`held_by`, when the caller has
/// one) would do with it. `rule` is a rule's name, or any name a mention of
/// it uses; a name no rule has is [`NoRule`], with the nearest names.
pub fn why_not(
    project: &Project,
    query: &Query<'_>,
    rule: &str,
    held_by: Option<&HeldBy>,
) -> Result<WhyNot, NoRule> {
    let place = find_rule(project, rule)?;
    let rule = project.rules.at(place);
    let kind = kind_of(rule);
    let mut answer = WhyNot {
        name: rule.name.clone(),
        file: paths::strip_base(&rule.path, &project.root)
            .unwrap_or(&rule.path)
            .trim_start_matches('/')
            .to_string(),
        event: query.event.kind(),
        kind,
        description: (kind == RuleKind::Requestable)
            .then(|| reach::description(rule))
            .flatten(),
        base: rule.base.clone(),
        mention: project.index.requests().shortest_mention(place),
        match_all: rule.conditions.match_all,
        checks: Vec::new(),
        paths: Vec::new(),
        conditions_hold: false,
        mentioned: Vec::new(),
        fires: false,
        delivery: delivery(rule.conditions.is_ephemeral(), held_by),
    };
    if let Event::Read { .. } = query.event {
        read_checks(project, query, &mut answer);
    } else if let Some(prompt) = query.event.prompt_text() {
        prompt_checks(project, query, rule, prompt, &mut answer);
    } else {
        path_checks(project, query, rule, &mut answer);
    }
    Ok(answer)
}

fn kind_of(rule: &Rule) -> RuleKind {
    if rule.mention_only {
        RuleKind::Manual
    } else if reach::is_requestable(rule) {
        RuleKind::Requestable
    } else if rule.always_apply && rule.base.is_some() {
        RuleKind::AlwaysOnBelow
    } else if rule.always_apply {
        RuleKind::AlwaysOn
    } else if reach::fires_by_itself(rule) {
        RuleKind::Conditional
    } else {
        // Cursor's Manual rule: no trigger, no description.
        RuleKind::Manual
    }
}

/// Declared conditions combined as `match` says (behaviour §2.4).
fn combine(match_all: bool, held: impl IntoIterator<Item = bool>) -> bool {
    let (mut declared, mut any, mut all) = (false, false, true);
    for held in held {
        declared = true;
        any |= held;
        all &= held;
    }
    declared && if match_all { all } else { any }
}

/// A rule's globs as the index matches them, compiled: each its shown
/// form, then its matcher or why it has none.
struct Globs {
    shown: Vec<String>,
    matchers: Vec<Result<Matcher, String>>,
    /// The first glob that does not compile (a too complex one does, and
    /// only misses, as in the index).
    first_invalid: Option<usize>,
}

impl Globs {
    fn new(rule: &Rule) -> (Globs, bool) {
        let (specs, always_apply) = scoped_globs(rule);
        let mut first_invalid = None;
        let matchers = specs
            .iter()
            .enumerate()
            .map(
                |(at, spec)| match compile_glob(spec, rule.base.as_deref()) {
                    Ok(compiled) => glob::matcher(&compiled).ok_or_else(|| {
                        Error::new(ErrorKind::GlobTooComplex {
                            start: glob::excerpt(&spec.pattern),
                        })
                        .message()
                    }),
                    Err(error) => {
                        first_invalid.get_or_insert(at);
                        Err(error.message())
                    }
                },
            )
            .collect();
        let shown = specs
            .iter()
            .map(|spec| shown_glob(rule.base.as_deref(), &spec.pattern))
            .collect();
        let globs = Globs {
            shown,
            matchers,
            first_invalid,
        };
        (globs, always_apply)
    }

    fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }

    /// Each glob's check on `path` (`None`: a prompt), and whether the
    /// rule's globs hold for it.
    fn on(&self, path: Option<&str>) -> (Vec<Check>, bool) {
        let mut held_any = false;
        let checks = self
            .shown
            .iter()
            .zip(&self.matchers)
            .enumerate()
            .map(|(at, (shown, matcher))| {
                let (outcome, error) = match (matcher, path) {
                    (Err(why), _) => (GlobOutcome::Invalid, Some(why.clone())),
                    (Ok(_), None) => (GlobOutcome::NoPath, None),
                    (Ok(m), Some(path)) if m.is_match(path) => {
                        match self.first_invalid.is_some_and(|bad| bad < at) {
                            true => (GlobOutcome::AfterInvalid, None),
                            false => (GlobOutcome::Matched, None),
                        }
                    }
                    (Ok(_), Some(_)) => (GlobOutcome::Missed, None),
                };
                let held = outcome == GlobOutcome::Matched;
                held_any |= held;
                Check::Glob {
                    glob: shown.clone(),
                    path: path.map(str::to_string),
                    outcome,
                    held,
                    error,
                }
            })
            .collect();
        (checks, held_any)
    }
}

/// Each `fileContains` pattern's check on a path's content (`None` path: a
/// prompt; `None` content: not read, `Some(None)`: unreadable), and
/// whether one held.
fn content_checks(
    rule: &Rule,
    path: Option<&str>,
    content: Option<Option<&str>>,
) -> (Vec<Check>, bool) {
    let mut held_any = false;
    let checks = rule
        .conditions
        .file_contains
        .values
        .iter()
        .map(|pattern| {
            let compiled = compile_pattern(pattern);
            let (outcome, error) = match (&compiled, path, content) {
                (Err(why), _, _) => (ContentOutcome::Invalid, Some(why.clone())),
                (Ok(_), None, _) => (ContentOutcome::NoPath, None),
                (Ok(_), Some(_), None) => (ContentOutcome::NotRead, None),
                (Ok(_), Some(_), Some(None)) => (ContentOutcome::Unreadable, None),
                (Ok(regex), Some(_), Some(Some(text))) if regex.is_match(text) => {
                    (ContentOutcome::Found, None)
                }
                (Ok(_), Some(_), Some(Some(_))) => (ContentOutcome::NotFound, None),
            };
            let held = outcome == ContentOutcome::Found;
            held_any |= held;
            Check::FileContains {
                pattern: pattern.clone(),
                path: path.map(str::to_string),
                outcome,
                held,
                error,
            }
        })
        .collect();
    (checks, held_any)
}

fn keyword_check(rule: &Rule, prompt: Option<&str>) -> Option<Check> {
    let trigger = rule.trigger.as_ref()?;
    let found = match prompt {
        Some(prompt) => {
            let matcher = KeywordMatcher::new(trigger.any_of.iter().chain(&trigger.requires));
            let found = matcher.scan(prompt);
            Some((matcher, found))
        }
        None => None,
    };
    let terms = |terms: &[String]| -> Vec<Term> {
        terms
            .iter()
            .map(|term| Term {
                term: term.clone(),
                found: found
                    .as_ref()
                    .and_then(|(m, found)| m.id(term).map(|id| found.contains(id)))
                    .unwrap_or(false),
            })
            .collect()
    };
    let (any_of, requires) = (terms(&trigger.any_of), terms(&trigger.requires));
    let held = any_of.iter().any(|t| t.found) && requires.iter().all(|t| t.found);
    Some(Check::Keywords {
        any_of,
        requires,
        held,
        at_prompt: prompt.is_some(),
    })
}

fn fact_checks(
    project: &Project,
    query: &Query<'_>,
    name: &str,
    command: Option<&str>,
) -> Vec<Check> {
    project
        .index
        .conditions_of(name)
        .map(|c| c.fact_outcomes(query.facts, command))
        .unwrap_or_default()
        .into_iter()
        .map(Check::Fact)
        .collect()
}

fn prompt_checks(
    project: &Project,
    query: &Query<'_>,
    rule: &Rule,
    prompt: &str,
    answer: &mut WhyNot,
) {
    let (globs, always_apply) = Globs::new(rule);
    if always_apply {
        answer.checks.push(Check::AlwaysApply {
            held: true,
            at_prompt: true,
        });
    }
    answer.checks.extend(keyword_check(rule, Some(prompt)));
    answer.checks.extend(globs.on(None).0);
    answer.checks.extend(content_checks(rule, None, None).0);
    let command = query.facts.command.clone().or_else(|| command_of(prompt));
    let facts = fact_checks(project, query, &rule.name, command.as_deref());
    answer.checks.extend(facts);
    answer.conditions_hold = combine(answer.match_all, answer.checks.iter().map(Check::held));
    if let Some(selected) = project
        .index
        .match_prompt_with(prompt, query.facts)
        .into_iter()
        .find(|m| m.name == rule.name)
    {
        answer.fires = true;
        answer.mentioned = selected.mentions;
    }
}

fn path_checks(project: &Project, query: &Query<'_>, rule: &Rule, answer: &mut WhyNot) {
    let (globs, always_apply) = Globs::new(rule);
    let keywords = keyword_check(rule, None);
    let facts = fact_checks(project, query, &rule.name, query.facts.command.as_deref());
    // Tested at prompts only, so at a path event they are conditions that
    // do not hold (behaviour §2.3): under `match: all` they stop the rule.
    let mut fixed: Vec<bool> = Vec::new();
    if always_apply {
        fixed.push(false);
        answer.checks.push(Check::AlwaysApply {
            held: false,
            at_prompt: false,
        });
    }
    if let Some(keywords) = keywords {
        fixed.push(false);
        answer.checks.push(keywords);
    }
    fixed.extend(facts.iter().map(Check::held));
    let matched = query.event.matched_paths();
    let given = given_paths(query.event);
    let mut seen = std::collections::HashSet::new();
    for (at, path) in matched.iter().enumerate() {
        if path.is_empty() || !seen.insert(path.as_str()) {
            continue;
        }
        let (glob_checks, glob_held) = globs.on(Some(path));
        let content = query.contents.map(|c| c.get(at).and_then(|c| c.as_deref()));
        let (content_checks, content_held) = content_checks(rule, Some(path), content);
        let mut held = fixed.clone();
        if !globs.is_empty() {
            held.push(glob_held);
        }
        if !content_checks.is_empty() {
            held.push(content_held);
        }
        let reached = glob_held || content_held;
        let fires = reached && combine(answer.match_all, held);
        answer.conditions_hold |= fires;
        answer.checks.extend(glob_checks);
        answer.checks.extend(content_checks);
        answer.paths.push(PathVerdict {
            path: path.clone(),
            given: given
                .iter()
                .find(|g| paths::normalize_for_match(g) == *path && *g != path)
                .cloned(),
            outside: false,
            reached,
            fires,
        });
    }
    // The paths the event left out: outside the project, or overlong.
    for raw in &given {
        let normalised = paths::normalize_for_match(raw);
        if !normalised.is_empty() && !matched.contains(&normalised) {
            answer.paths.push(PathVerdict {
                path: normalised,
                given: Some(raw.clone()).filter(|g| paths::normalize_for_match(g) != *g),
                outside: true,
                reached: false,
                fires: false,
            });
        }
    }
    answer.checks.extend(facts);
    answer.fires = project
        .index
        .match_paths_with(&matched, query.facts, query.contents)
        .rules
        .iter()
        .any(|m| m.name == rule.name);
}

/// A path event's paths as the host reported them.
fn given_paths(event: &Event) -> Vec<String> {
    match event {
        Event::Edit { paths } | Event::Shell { paths } => paths.clone(),
        _ => Vec::new(),
    }
}

fn read_checks(project: &Project, query: &Query<'_>, answer: &mut WhyNot) {
    let read = query.event.read_paths();
    let requests = project.index.requests();
    if let Some(listed) = requests.listed().iter().find(|r| r.name == answer.name) {
        let brought = requests
            .read(&read)
            .iter()
            .any(|(rule, _)| rule.name == answer.name);
        answer.checks.push(Check::Read {
            file: listed.file.clone(),
            held: brought,
        });
        answer.fires = brought;
    } else {
        answer.fires = project
            .index
            .match_reads_below_bases(&read, query.facts)
            .rules
            .iter()
            .any(|m| m.name == answer.name);
    }
    answer.conditions_hold = answer.fires;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;
    use crate::matching::conditions::Dimension;
    use crate::matching::facts::Facts;

    fn project(rules: &[(&str, &str)]) -> Project {
        let mut fs = MemoryFs::new();
        for (name, text) in rules {
            fs.add_file(&format!("/p/.cursor/rules/{name}"), text);
        }
        Project::load(&fs, "/p").unwrap()
    }

    fn ask(project: &Project, event: Event, facts: &Facts, rule: &str) -> WhyNot {
        why_not(project, &Query::new(&event, facts), rule, None).unwrap()
    }

    fn glob_outcomes(why: &WhyNot) -> Vec<(String, Option<String>, GlobOutcome)> {
        why.checks
            .iter()
            .filter_map(|c| match c {
                Check::Glob {
                    glob,
                    path,
                    outcome,
                    ..
                } => Some((glob.clone(), path.clone(), *outcome)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_glob_that_misses_each_path_is_shown_path_by_path() {
        let p = project(&[("ui.mdc", "---\nglobs: src/ui/**, *.css\n---\n# UI")]);
        let facts = Facts::default();
        let why = ask(
            &p,
            Event::edit(&["./src/api/a.ts", "x.css"]),
            &facts,
            "ui.mdc",
        );
        assert_eq!(
            glob_outcomes(&why),
            vec![
                (
                    "src/ui/**".into(),
                    Some("src/api/a.ts".into()),
                    GlobOutcome::Missed
                ),
                (
                    "*.css".into(),
                    Some("src/api/a.ts".into()),
                    GlobOutcome::Missed
                ),
                (
                    "src/ui/**".into(),
                    Some("x.css".into()),
                    GlobOutcome::Missed
                ),
                ("*.css".into(), Some("x.css".into()), GlobOutcome::Matched),
            ]
        );
        assert_eq!(why.paths[0].given.as_deref(), Some("./src/api/a.ts"));
        assert!(!why.paths[0].reached && why.paths[1].fires && why.fires);
        let miss = ask(&p, Event::edit(&["src/api/a.ts"]), &facts, "ui.mdc");
        assert!(!miss.fires && !miss.conditions_hold);
        assert_eq!(miss.kind, RuleKind::Conditional);
        // At a prompt the globs have no path.
        let prompt = ask(&p, Event::prompt("ui"), &facts, "ui.mdc");
        assert_eq!(glob_outcomes(&prompt)[0].2, GlobOutcome::NoPath);
        assert!(!prompt.fires);
    }

    #[test]
    fn an_invalid_glob_says_so_and_stops_the_globs_after_it() {
        let p = project(&[("bad.mdc", "---\nglobs: src/[a, src/**\n---\n")]);
        let why = ask(&p, Event::edit(&["src/x.ts"]), &Facts::default(), "bad.mdc");
        let outcomes: Vec<GlobOutcome> = glob_outcomes(&why).into_iter().map(|o| o.2).collect();
        assert_eq!(
            outcomes,
            vec![GlobOutcome::Invalid, GlobOutcome::AfterInvalid]
        );
        let Check::Glob { error, .. } = &why.checks[0] else {
            panic!("{:?}", why.checks)
        };
        assert_eq!(error.as_deref(), Some("Invalid rule glob: src/[a"));
        assert!(!why.fires && !why.conditions_hold);
    }

    #[test]
    fn keywords_name_the_terms_found_and_missing() {
        let p = project(&[(
            "svc.mdc",
            "---\npromptAnyOf: authorization, find-or-create\npromptRequires: service\n---\n",
        )]);
        let facts = Facts::default();
        let partial = ask(&p, Event::prompt("fix authorization"), &facts, "svc.mdc");
        let Check::Keywords {
            any_of,
            requires,
            held,
            at_prompt,
        } = &partial.checks[0]
        else {
            panic!("{:?}", partial.checks)
        };
        let found = |terms: &[Term]| terms.iter().map(|t| t.found).collect::<Vec<_>>();
        assert_eq!(found(any_of), vec![true, false]);
        assert_eq!(found(requires), vec![false]);
        assert!(!held && *at_prompt);
        assert!(!partial.fires);
        let miss = ask(&p, Event::prompt("hello"), &facts, "svc.mdc");
        assert!(!miss.checks[0].held() && !miss.fires);
        let hit = ask(
            &p,
            Event::prompt("the service's authorization"),
            &facts,
            "svc.mdc",
        );
        assert!(hit.checks[0].held() && hit.fires && hit.conditions_hold);
        // At an edit keywords are not tested, and do not hold.
        let edit = ask(&p, Event::edit(&["a"]), &facts, "svc.mdc");
        assert!(matches!(
            edit.checks[0],
            Check::Keywords {
                at_prompt: false,
                held: false,
                ..
            }
        ));
    }

    #[test]
    fn file_contains_found_not_found_and_unreadable() {
        let p = project(&[("sql.mdc", "---\nfileContains: DROP TABLE\n---\n")]);
        let facts = Facts::default();
        let event = Event::edit(&["a.sql", "b.sql", "c.sql"]);
        let contents = vec![
            Some("SELECT 1".to_string()),
            None,
            Some("DROP TABLE x".into()),
        ];
        let query = Query::new(&event, &facts).with_contents(Some(&contents));
        let why = why_not(&p, &query, "sql.mdc", None).unwrap();
        let outcomes: Vec<ContentOutcome> = why
            .checks
            .iter()
            .filter_map(|c| match c {
                Check::FileContains { outcome, .. } => Some(*outcome),
                _ => None,
            })
            .collect();
        assert_eq!(
            outcomes,
            vec![
                ContentOutcome::NotFound,
                ContentOutcome::Unreadable,
                ContentOutcome::Found
            ]
        );
        assert!(why.fires);
        let fires: Vec<bool> = why.paths.iter().map(|p| p.fires).collect();
        assert_eq!(fires, vec![false, false, true]);
        let unread = ask(&p, Event::edit(&["a.sql"]), &facts, "sql.mdc");
        assert!(matches!(
            unread.checks[0],
            Check::FileContains {
                outcome: ContentOutcome::NotRead,
                ..
            }
        ));
    }

    #[test]
    fn a_failing_fact_and_match_all_or_any() {
        let p = project(&[
            (
                "all.mdc",
                "---\nglobs: src/**\nbranch: main\nmatch: all\n---\n",
            ),
            ("any.mdc", "---\nglobs: src/**\nbranch: main\n---\n"),
            ("os.mdc", "---\nos: linux\n---\n"),
        ]);
        let facts = Facts {
            branch: Some("feature/x".into()),
            ..Facts::default()
        };
        let edit = || Event::edit(&["src/a.ts"]);
        let all = ask(&p, edit(), &facts, "all.mdc");
        assert!(all.match_all && !all.fires);
        assert_eq!(
            all.checks.last(),
            Some(&Check::Fact(Outcome {
                kind: Dimension::Branch,
                held: false,
                wanted: vec!["main".into()],
                actual: Some(vec!["feature/x".into()]),
            }))
        );
        assert!(all.paths[0].reached && !all.paths[0].fires);
        let any = ask(&p, edit(), &facts, "any.mdc");
        assert!(!any.match_all && any.fires && any.delivery.ephemeral);
        // A fact that holds fires a prompt rule; an unknown one does not.
        let os = ask(&p, Event::prompt("x"), &facts, "os.mdc");
        assert!(!os.fires && !os.delivery.ephemeral);
        let linux = Facts {
            os: Some("linux".into()),
            ..Facts::default()
        };
        assert!(ask(&p, Event::prompt("x"), &linux, "os.mdc").fires);
        // A path event selects only a rule a path condition reached.
        let no_path_condition = ask(&p, edit(), &linux, "os.mdc");
        assert!(!no_path_condition.fires && !no_path_condition.paths[0].reached);
    }

    #[test]
    fn a_manual_rule_is_named_by_a_mention_only() {
        let p = project(&[
            ("ops/release.mdc", "# Release steps"),
            ("ask.mdc", "---\ndescription: Before a release\n---\n# Ask"),
            ("base.mdc", "---\nalwaysApply: true\n---\n"),
        ]);
        let facts = Facts::default();
        let manual = ask(&p, Event::prompt("ship it"), &facts, "ops/release.mdc");
        assert_eq!(manual.kind, RuleKind::Manual);
        assert!(manual.checks.is_empty() && !manual.fires);
        assert_eq!(manual.mention, "@release");
        let mentioned = ask(&p, Event::prompt("ship it @release"), &facts, "release");
        assert!(mentioned.fires && !mentioned.conditions_hold);
        assert_eq!(mentioned.mentioned, vec!["@release"]);
        let requested = ask(&p, Event::prompt("x"), &facts, "ask.mdc");
        assert_eq!(requested.kind, RuleKind::Requestable);
        assert_eq!(requested.description.as_deref(), Some("Before a release"));
        let read = ask(
            &p,
            Event::read(&[".cursor/rules/ask.mdc"]),
            &facts,
            "ask.mdc",
        );
        assert!(read.fires);
        let always = ask(&p, Event::edit(&["a.ts"]), &facts, "base.mdc");
        assert_eq!(always.kind, RuleKind::AlwaysOn);
        assert!(!always.fires);
        assert_eq!(
            always.checks,
            vec![Check::AlwaysApply {
                held: false,
                at_prompt: false
            }]
        );
    }

    #[test]
    fn an_unknown_rule_suggests_the_nearest_name() {
        let p = project(&[("testing.mdc", "# T")]);
        let event = Event::prompt("x");
        let facts = Facts::default();
        assert_eq!(
            why_not(&p, &Query::new(&event, &facts), "tseting.mdc", None).unwrap_err(),
            NoRule::Unknown {
                name: "tseting.mdc".into(),
                nearest: vec!["testing.mdc".into()]
            }
        );
    }

    #[test]
    fn the_verdict_agrees_with_the_conditions_judged_one_by_one() {
        // Whatever the combination, the conditions listed combine to the
        // index's own verdict (a mention aside).
        let p = project(&[
            (
                "a.mdc",
                "---\nalwaysApply: true\nglobs: src/**\nmatch: all\n---\n",
            ),
            (
                "b.mdc",
                "---\nglobs: src/**\nfileContains: TODO\nmatch: all\n---\n",
            ),
            (
                "c.mdc",
                "---\npromptAnyOf: widget\nos: linux\nmatch: all\n---\n",
            ),
            ("d.mdc", "---\npromptAnyOf: widget\nos: linux\n---\n"),
            ("e.mdc", "---\nglobs: lib/**\nfileContains: TODO\n---\n"),
        ]);
        let linux = Facts {
            os: Some("linux".into()),
            ..Facts::default()
        };
        let contents = vec![Some("TODO".to_string()), Some("none".to_string())];
        for event in [
            Event::prompt("a widget"),
            Event::prompt("nothing"),
            Event::edit(&["src/a.ts", "lib/b.ts"]),
            Event::edit(&["lib/b.ts", "src/a.ts"]),
        ] {
            for facts in [&linux, &Facts::default()] {
                let query = Query::new(&event, facts).with_contents(Some(&contents));
                for name in ["a.mdc", "b.mdc", "c.mdc", "d.mdc", "e.mdc"] {
                    let why = why_not(&p, &query, name, None).unwrap();
                    assert_eq!(why.fires, why.conditions_hold, "{name} {event:?} {facts:?}");
                }
            }
        }
    }

    #[test]
    fn a_nested_always_on_rule_holds_below_its_base_only() {
        let fs = MemoryFs::new();
        let config = crate::config::Config::load(&fs, "/p").unwrap();
        let source = config.rules_source("/p").unwrap();
        let name = "packages/web/.cursor/rules/base.mdc";
        let rule = Rule {
            base: Some("packages/web".into()),
            ..Rule::parse(name, &format!("/p/{name}"), "---\nalwaysApply: true\n---\n")
        };
        let rules = crate::rules::discovery::RuleSet::new(vec![rule], Vec::new());
        let p = Project::from_rules("/p", config, source, rules);
        let facts = Facts::default();
        let below = ask(&p, Event::edit(&["packages/web/a.ts"]), &facts, name);
        assert_eq!(below.kind, RuleKind::AlwaysOnBelow);
        assert_eq!(below.base.as_deref(), Some("packages/web"));
        assert_eq!(
            glob_outcomes(&below),
            vec![(
                "packages/web/**".into(),
                Some("packages/web/a.ts".into()),
                GlobOutcome::Matched
            )]
        );
        assert!(below.fires);
        let beside = ask(&p, Event::edit(&["src/a.ts"]), &facts, name);
        assert!(!beside.fires && glob_outcomes(&beside)[0].2 == GlobOutcome::Missed);
        let prompt = ask(&p, Event::prompt("x"), &facts, name);
        assert!(!prompt.fires && glob_outcomes(&prompt)[0].2 == GlobOutcome::NoPath);
    }

    #[test]
    fn a_session_view_makes_the_delivery_exact() {
        let p = project(&[("base.mdc", "---\nalwaysApply: true\n---\n")]);
        let event = Event::prompt("x");
        let facts = Facts::default();
        let view = HeldBy::Claude {
            delivered_at: Some(1_000),
            in_conversation: false,
            now: 31_000,
        };
        let why = why_not(&p, &Query::new(&event, &facts), "base.mdc", Some(&view)).unwrap();
        let session = why.delivery.session.expect("a view was given");
        assert!(why.fires && session.held);
        assert_eq!(session.ago_ms, Some(30_000));
    }
}
