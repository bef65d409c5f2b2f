//! A playground case: a project's files held in memory, and one event with
//! its facts, answered whole — the lint of every rule, which rules fire and
//! why, and both hosts' deliveries with their sizes against the limits.
//! The browser playground only gathers these inputs and shows this answer,
//! so every decision stays in the engine (one engine, many hosts).

use serde::{Deserialize, Serialize};

use crate::base::error::{Error, ErrorKind, Place};
use crate::base::finding::Finding;
use crate::base::fs::{FileSource, MemoryFs};
use crate::base::paths;
use crate::base::text::utf16_len;
use crate::check::rule_tests::event_test;
use crate::check::{check_project, Report};
use crate::delivery::frames::FrameLimits;
use crate::delivery::preview::{preview, Hosts};
use crate::delivery::selection::read_contents;
use crate::matching::describe::{describe_no_rule, describe_why_not};
use crate::matching::event::{Event, Query};
use crate::matching::explain::FiredRule;
use crate::matching::facts::{project_tags, Facts};
use crate::matching::find_rule::NoRule;
use crate::matching::project::Project;
use crate::matching::why_not::{why_not, WhyNot};
use crate::render::import_paths::imported_documents;
use crate::rules::conditions::normalize_os;

/// Where a case's files are mounted. Answers name files relative to it,
/// as a person wrote them.
pub(crate) const ROOT: &str = "/project";

/// The event a case asks about, as typed: the wire form of an [`Event`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify), tsify(missing_as_null))]
pub enum EventInput {
    /// A prompt, answered as [`Event::Prompt`].
    Prompt {
        /// The prompt as typed.
        prompt: String,
    },
    /// Edited paths, project-relative; blank entries are ignored.
    Edit {
        /// The paths as typed, one per entry; each is trimmed.
        paths: Vec<String>,
    },
}

/// The facts as typed. A blank or absent value is a fact nobody knows, so
/// a condition on it does not hold (as in a host that cannot tell).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct FactInputs {
    /// The slash command; when blank, the prompt's own is used.
    pub command: Option<String>,
    /// The operating system, in any name [`normalize_os`] knows.
    pub os: Option<String>,
    /// Whether this is a CI run; absent is unknown.
    pub ci: Option<bool>,
    /// The current git branch.
    pub branch: Option<String>,
    /// The model in use.
    pub model: Option<String>,
    /// The agent in use.
    pub agent: Option<String>,
    /// The names of the tools available; blank entries are dropped, and
    /// none left is unknown.
    pub tools: Vec<String>,
}

/// A delivery's text and its length in the unit the hosts limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Sized {
    pub text: String,
    /// UTF-16 code units.
    pub chars: usize,
}

impl Sized {
    fn new(text: String) -> Sized {
        Sized {
            chars: utf16_len(&text),
            text,
        }
    }
}

/// What Claude Code would attach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct ClaudeAnswer {
    pub frames: Vec<Sized>,
    /// One entry per rule too large for any delivery.
    pub error_entries: Vec<Sized>,
    pub delivered: Vec<String>,
    /// Rules that fit no frame of this delivery and wait for the next.
    pub deferred: Vec<String>,
}

/// A delivery, or the error that stops it (a missing import, the budget).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum Rendered<T> {
    Ok(T),
    Error(Error),
}

/// The limits the sizes are measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Limits {
    pub frame_chars: usize,
    pub frames_per_delivery: usize,
}

/// One event answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Answer {
    /// Why no rule can fire at all: the configuration or the rule names
    /// are broken. Everything else is then empty.
    pub load_error: Option<Error>,
    /// The project's tags from its marker files, the `project` fact.
    pub project_tags: Vec<String>,
    pub rules: Vec<FiredRule>,
    /// Rules left out because they cannot be read, and invalid globs or
    /// patterns this event reached; the rules listed still fired.
    pub problems: Vec<Error>,
    /// Codex's `additionalContext`, whole (the plugin sets no limit).
    pub codex: Option<Rendered<Sized>>,
    pub claude: Option<Rendered<ClaudeAnswer>>,
    pub limits: Limits,
}

/// Why one rule does or does not fire for the case's event, as
/// `rule-fairy explain --why-not` says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct WhyNotAnswer {
    /// The answer, when the rule was found.
    pub why_not: Option<WhyNot>,
    /// Why no rule answers to the name, when none does.
    pub problem: Option<NoRule>,
    /// Why no rule can fire at all: the configuration or the rule names
    /// are broken.
    pub load_error: Option<Error>,
    /// The answer in words, a line each, as the command line prints it.
    pub lines: Vec<String>,
    /// The event as a test of the rule (`rule-fairy test`), under `fires`
    /// or `silent` as it now is: the playground's export.
    pub test: Option<String>,
}

/// A case's files and what is derived from them, kept until a file changes
/// so that each keystroke in the event or the facts only matches.
#[derive(Debug)]
pub struct Case {
    fs: MemoryFs,
    project: Option<Result<Project, Error>>,
    report: Option<Report>,
    tags: Option<Vec<String>>,
}

impl Default for Case {
    fn default() -> Self {
        Case::new()
    }
}

impl Case {
    /// A case with no files: an empty project at `ROOT`.
    pub fn new() -> Case {
        Case {
            fs: MemoryFs::from_files::<&str, &str>(ROOT, []),
            project: None,
            report: None,
            tags: None,
        }
    }

    /// Puts a file at a project-relative path, replacing what was there.
    pub fn put_file(&mut self, path: &str, content: &str) {
        self.fs.add_file(&absolute(path), content);
        self.changed();
    }

    /// Removes the file at a project-relative path.
    pub fn remove_file(&mut self, path: &str) {
        self.fs.remove(&absolute(path));
        self.changed();
    }

    fn changed(&mut self) {
        self.project = None;
        self.report = None;
        self.tags = None;
    }

    fn project(&mut self) -> &Result<Project, Error> {
        self.project
            .get_or_insert_with(|| Project::load(&self.fs, ROOT))
    }

    /// The lint of the configuration and every rule, files relative.
    pub fn check(&mut self) -> &Report {
        self.report.get_or_insert_with(|| {
            let mut report = check_project(&self.fs, ROOT);
            for finding in &mut report.findings {
                relative_place(&mut finding.place);
            }
            report
        })
    }

    /// The documents the rules import that the case does not hold yet,
    /// project-relative: what a folder pick still has to read.
    pub fn missing_documents(&mut self) -> Vec<String> {
        let documents = match self.project() {
            Ok(project) => imported_documents(ROOT, project.rules.all()),
            Err(_) => return Vec::new(),
        };
        documents
            .into_iter()
            .filter(|path| !self.fs.is_file(path))
            .map(|path| relative(&path))
            .collect()
    }

    /// The project's tags from its marker files, read once per change.
    fn tags(&mut self) -> Vec<String> {
        self.tags
            .get_or_insert_with(|| project_tags(&self.fs, ROOT))
            .clone()
    }

    /// The names of the rules the case's project holds, in name order;
    /// empty when it cannot load.
    pub fn rule_names(&mut self) -> Vec<String> {
        match self.project() {
            Ok(project) => project.rules.all().iter().map(|r| r.name.clone()).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Why the rule named `rule` does or does not fire for one event with
    /// its facts; an edited path's content is its file in the case.
    pub fn why_not(&mut self, rule: &str, event: &EventInput, facts: &FactInputs) -> WhyNotAnswer {
        let facts = facts.facts(self.tags());
        let event = event.event();
        self.project();
        let project = match self.project.as_ref().expect("just loaded") {
            Ok(project) => project,
            Err(error) => {
                let error = relative_error(error.clone());
                return WhyNotAnswer {
                    why_not: None,
                    problem: None,
                    lines: vec![format!("No rule can fire: {error}")],
                    load_error: Some(error),
                    test: None,
                };
            }
        };
        let contents = read_contents(&self.fs, project, &event.matched_paths());
        let query = Query::new(&event, &facts).with_contents(contents.as_deref());
        match why_not(project, &query, rule, None) {
            Ok(answer) => WhyNotAnswer {
                lines: describe_why_not(&answer),
                test: Some(event_test(&answer.name, &event, &facts, answer.fires)),
                why_not: Some(answer),
                problem: None,
                load_error: None,
            },
            Err(problem) => WhyNotAnswer {
                lines: vec![describe_no_rule(&problem)],
                why_not: None,
                problem: Some(problem),
                load_error: None,
                test: None,
            },
        }
    }

    /// Answers one event with its facts.
    pub fn answer(&mut self, event: &EventInput, facts: &FactInputs) -> Answer {
        let limits = FrameLimits::default();
        let tags = self.tags();
        let facts = facts.facts(tags.clone());
        let event = event.event();
        let mut answer = Answer {
            load_error: None,
            project_tags: tags,
            rules: Vec::new(),
            problems: Vec::new(),
            codex: None,
            claude: None,
            limits: Limits {
                frame_chars: limits.frame_chars,
                frames_per_delivery: limits.frames_per_delivery,
            },
        };
        self.project();
        let project = match self.project.as_ref().expect("just loaded") {
            Ok(project) => project,
            Err(error) => {
                answer.load_error = Some(relative_error(error.clone()));
                return answer;
            }
        };
        let hosts = Hosts {
            codex: true,
            claude: true,
        };
        let query = Query::new(&event, &facts);
        let preview = preview(&self.fs, project, &query, hosts, limits);
        let left_out = project.rules.findings.iter().filter(|f| f.is_error());
        answer.problems = left_out
            .map(finding_error)
            .chain(preview.explanation.errors.iter().cloned())
            .map(relative_error)
            .collect();
        answer.rules = preview.explanation.rules;
        answer.codex = preview.codex.map(|text| match text {
            Ok(text) => Rendered::Ok(Sized::new(text)),
            Err(error) => Rendered::Error(relative_error(error)),
        });
        answer.claude = preview.claude.map(|delivery| match delivery {
            Ok(delivery) => {
                let mut entries = delivery.entries.into_iter().map(Sized::new);
                Rendered::Ok(ClaudeAnswer {
                    frames: entries.by_ref().take(delivery.frames).collect(),
                    error_entries: entries.collect(),
                    delivered: delivery.delivered,
                    deferred: delivery.deferred,
                })
            }
            Err(error) => Rendered::Error(relative_error(error)),
        });
        answer
    }
}

impl EventInput {
    /// The event as typed: an edit's paths trimmed and normalised, blank
    /// ones dropped.
    fn event(&self) -> Event {
        match self {
            EventInput::Prompt { prompt } => Event::prompt(prompt.clone()),
            EventInput::Edit { paths: typed } => Event::Edit {
                paths: typed
                    .iter()
                    .map(|p| paths::normalize_for_match(p.trim()))
                    .filter(|p| !p.is_empty())
                    .collect(),
            },
        }
    }
}

impl FactInputs {
    fn facts(&self, project: Vec<String>) -> Facts {
        let known = |value: &Option<String>| {
            value
                .as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_string)
        };
        let tools: Vec<String> = self
            .tools
            .iter()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        Facts {
            command: known(&self.command),
            project: Some(project),
            os: known(&self.os).map(|os| normalize_os(&os)),
            ci: self.ci,
            branch: known(&self.branch),
            model: known(&self.model),
            agent: known(&self.agent),
            tools: (!tools.is_empty()).then_some(tools),
        }
    }
}

fn absolute(path: &str) -> String {
    paths::join(ROOT, &paths::normalize_for_match(path))
}

fn relative(path: &str) -> String {
    paths::strip_base(path, ROOT).unwrap_or(path).to_string()
}

fn relative_place(place: &mut Place) {
    place.file = relative(&place.file);
}

fn relative_error(mut error: Error) -> Error {
    if let Some(place) = &mut error.place {
        relative_place(place);
    }
    error
}

fn finding_error(finding: &Finding) -> Error {
    Error::at(
        finding.place.clone(),
        ErrorKind::RuleLeftOut {
            problem: finding.message.clone(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt(text: &str) -> EventInput {
        EventInput::Prompt {
            prompt: text.to_string(),
        }
    }

    fn webshop() -> Case {
        let mut case = Case::new();
        case.put_file(
            ".cursor/rules/base.mdc",
            "---\nalwaysApply: true\n---\n# Base",
        );
        case.put_file(
            ".cursor/rules/ui.mdc",
            "---\nglobs: src/ui/**\nkeywords: button\n---\n# UI\n\n@docs/guide.md#buttons",
        );
        case.put_file("docs/guide.md", "## Buttons\n\nUse <Button>.\n");
        case
    }

    #[test]
    fn a_prompt_answered_whole() {
        let mut case = webshop();
        let answer = case.answer(&prompt("add a button"), &FactInputs::default());
        let names: Vec<&str> = answer.rules.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["base.mdc", "ui.mdc"]);
        let Some(Rendered::Ok(codex)) = &answer.codex else {
            panic!("{:?}", answer.codex)
        };
        assert!(codex.text.contains("Use <Button>."), "{}", codex.text);
        assert_eq!(codex.chars, codex.text.encode_utf16().count());
        let Some(Rendered::Ok(claude)) = &answer.claude else {
            panic!("{:?}", answer.claude)
        };
        assert_eq!(claude.frames.len(), 1);
        assert_eq!(claude.delivered, ["base.mdc", "ui.mdc"]);
        assert!(claude.frames[0].text.contains("# UI"));
    }

    #[test]
    fn an_edit_with_facts_and_file_content() {
        let mut case = webshop();
        case.put_file(
            ".cursor/rules/sql.mdc",
            "---\nfileContains: SELECT\nbranch: main\nmatch: all\n---\n# SQL",
        );
        case.put_file("src/db.ts", "const q = 'SELECT 1'");
        case.put_file("package.json", "{}");
        let edit = EventInput::Edit {
            paths: vec!["./src/db.ts".into(), "  ".into()],
        };
        let on_main = FactInputs {
            branch: Some("main".into()),
            ..FactInputs::default()
        };
        let answer = case.answer(&edit, &on_main);
        assert_eq!(answer.project_tags, ["node"]);
        let names: Vec<&str> = answer.rules.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["sql.mdc"]);
        let blank = FactInputs {
            branch: Some(" ".into()),
            ..FactInputs::default()
        };
        assert!(case.answer(&edit, &blank).rules.is_empty());
    }

    #[test]
    fn problems_and_findings_name_files_relative() {
        let mut case = webshop();
        case.put_file(
            ".cursor/rules/ui.mdc",
            "---\nglobs: src/ui/**\nkeywords: button\n---\n@docs/guide.md#missing",
        );
        case.put_file(
            ".cursor/rules/quoted.mdc",
            "---\nalwaysApply: \"true\"\n---\nx",
        );
        let answer = case.answer(&prompt("button"), &FactInputs::default());
        let Some(Rendered::Ok(codex)) = &answer.codex else {
            panic!("{:?}", answer.codex)
        };
        // The broken rule is named with its file, relative; the rest comes.
        assert!(codex.text.contains(
            "\n- .cursor/rules/ui.mdc:5: ui.mdc: Rule import heading does not exist: docs/guide.md#missing\n"
        ), "{}", codex.text);
        let report = case.check();
        let files: Vec<String> = report
            .findings
            .iter()
            .map(|f| f.place.to_string())
            .collect();
        assert!(
            files.contains(&".cursor/rules/quoted.mdc:2".to_string()),
            "{files:?}"
        );
        assert!(files.iter().all(|f| !f.starts_with('/')), "{files:?}");
    }

    #[test]
    fn a_broken_configuration_is_the_answer() {
        let mut case = webshop();
        case.put_file("rule-fairy.edn", "{:rule 1}");
        let answer = case.answer(&prompt("button"), &FactInputs::default());
        let error = answer.load_error.expect("the configuration is broken");
        assert!(error.message().contains(":rule"), "{}", error.message());
        assert!(answer.rules.is_empty());
        case.remove_file("rule-fairy.edn");
        let answer = case.answer(&prompt("button"), &FactInputs::default());
        assert_eq!(answer.rules.len(), 2);
    }

    #[test]
    fn documents_still_to_read() {
        let mut case = Case::new();
        case.put_file(".cursor/rules/a.mdc", "# A\n\n@docs/one.md#x\n@docs/two.md");
        case.put_file("docs/two.md", "two");
        assert_eq!(case.missing_documents(), ["docs/one.md"]);
    }

    #[test]
    fn why_a_rule_does_not_fire_in_the_command_lines_words() {
        let mut case = webshop();
        case.put_file(
            ".cursor/rules/sql.mdc",
            "---\nfileContains: DROP TABLE\n---\n# SQL",
        );
        case.put_file("src/db.ts", "const q = 'SELECT 1'");
        assert_eq!(case.rule_names(), ["base.mdc", "sql.mdc", "ui.mdc"]);
        let edit = EventInput::Edit {
            paths: vec!["src/db.ts".into()],
        };
        let answer = case.why_not("sql.mdc", &edit, &FactInputs::default());
        assert!(!answer.why_not.expect("sql.mdc is a rule").fires);
        assert!(
            answer
                .lines
                .contains(&"  fileContains `DROP TABLE` ✗ (not found in src/db.ts)".to_string()),
            "{:#?}",
            answer.lines
        );
        let unknown = case.why_not("sq.mdc", &edit, &FactInputs::default());
        assert_eq!(
            unknown.lines,
            ["no rule is named sq.mdc; did you mean sql.mdc?"]
        );
        case.put_file("rule-fairy.edn", "{:rule 1}");
        let broken = case.why_not("sql.mdc", &edit, &FactInputs::default());
        assert!(broken.load_error.is_some() && broken.lines[0].starts_with("No rule can fire: "));
        assert!(case.rule_names().is_empty());
    }
}
