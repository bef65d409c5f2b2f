//! One rule test file read: YAML documents, one per tested rule, each
//! event kept with the line it starts at, so every problem and every
//! failure names the file and line. A document that cannot be read is a
//! problem of its own; the file's other documents still run.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

use crate::base::error::Place;
use crate::base::paths;
use crate::matching::event::Event;
use crate::matching::facts::Facts;
use crate::rules::conditions::normalize_os;

/// The most events one test file may hold: past it the file is refused
/// whole rather than judged for minutes.
pub const MAX_EVENTS: usize = 10_000;

/// Why a test file, or one test in it, cannot run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TestProblem {
    /// The test file and line.
    #[serde(flatten)]
    pub place: Place,
    /// What is wrong, without the place.
    pub message: String,
}

impl TestProblem {
    pub(crate) fn at(file: &str, line: usize, message: impl Into<String>) -> TestProblem {
        TestProblem {
            place: Place::line(file, line),
            message: message.into(),
        }
    }
}

/// One test: a rule, the events that must select it and those that must not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleTest {
    /// The rule as the file names it (a name, or a name a mention uses).
    pub rule: String,
    /// The test file and the line of `rule:`.
    pub place: Place,
    /// Events that must select the rule.
    pub fires: Vec<TestEvent>,
    /// Events that must not.
    pub silent: Vec<TestEvent>,
}

/// One event of a test, with the facts it sets and the file contents
/// `fileContains` reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestEvent {
    /// The line the event starts at in its test file.
    pub line: usize,
    /// The event as a host would report it.
    pub event: Event,
    /// A shell event's command as the test names it, for its report:
    /// the hooks judge only the paths it changed (behaviour §5.4).
    pub shell: Option<String>,
    /// The facts the event sets; the others are unknown (the project's
    /// tags are added when it is judged).
    pub facts: Facts,
    /// Contents of edited paths, normalised as globs see them.
    pub files: BTreeMap<String, String>,
}

/// A document as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TestYaml {
    rule: Spanned<String>,
    #[serde(default)]
    fires: Vec<Spanned<EventYaml>>,
    #[serde(default)]
    silent: Vec<Spanned<EventYaml>>,
}

/// An event as written: one of `prompt`, `paths`, `read` or `shell` (with
/// the paths it `changed`), and facts.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventYaml {
    prompt: Option<String>,
    paths: Option<Vec<String>>,
    read: Option<String>,
    shell: Option<String>,
    changed: Option<Vec<String>>,
    command: Option<String>,
    os: Option<String>,
    ci: Option<bool>,
    branch: Option<String>,
    model: Option<String>,
    agent: Option<String>,
    tools: Option<Vec<String>>,
    files: Option<BTreeMap<String, String>>,
}

/// What one test file holds: the tests that can run, and the problems of
/// those that cannot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestFile {
    /// The tests, in file order.
    pub tests: Vec<RuleTest>,
    /// Why a document, or the whole file, cannot run.
    pub problems: Vec<TestProblem>,
}

/// Reads the test file `file` (as messages name it) holding `text`.
pub fn read_test_file(file: &str, text: &str) -> TestFile {
    let mut read = TestFile::default();
    let mut events = 0;
    for document in documents(text) {
        if document.text.trim().lines().all(is_blank) {
            continue;
        }
        match read_document(file, &document) {
            Ok(test) => {
                let before = events;
                events += test.fires.len() + test.silent.len();
                if events > MAX_EVENTS {
                    let past = test
                        .fires
                        .iter()
                        .chain(&test.silent)
                        .nth(MAX_EVENTS - before)
                        .map_or(test.place.line.unwrap_or(1), |e| e.line);
                    return TestFile {
                        tests: Vec::new(),
                        problems: vec![TestProblem::at(
                            file,
                            past,
                            format!(
                                "more than {MAX_EVENTS} events in one test file: split it into several files"
                            ),
                        )],
                    };
                }
                read.tests.push(test);
            }
            Err(problem) => read.problems.push(problem),
        }
    }
    if read.tests.is_empty() && read.problems.is_empty() {
        read.problems.push(TestProblem::at(
            file,
            1,
            "the file holds no test: write `rule:` with `fires:` and `silent:` events",
        ));
    }
    read
}

fn is_blank(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with('#') || line == "..."
}

/// One YAML document of a file and the line it starts at.
struct Document<'a> {
    text: &'a str,
    /// The file's line of the document's first line.
    first_line: usize,
}

/// Splits a file at its `---` lines; a `---` at the start of a line cannot
/// sit inside a YAML value, so the split agrees with the parser's.
fn documents(text: &str) -> Vec<Document<'_>> {
    let mut found = Vec::new();
    let (mut start, mut first_line, mut offset) = (0, 1, 0);
    for (number, line) in (1..).zip(text.split_inclusive('\n')) {
        let bare = line.trim_end_matches(['\r', '\n']);
        if bare == "---" || bare.starts_with("--- ") {
            found.push(Document {
                text: &text[start..offset],
                first_line,
            });
            // The marker's line stays in the next document, blanked, so
            // the parser's line numbers count from it.
            start = offset + 3;
            first_line = number;
        }
        offset += line.len();
    }
    found.push(Document {
        text: &text[start..],
        first_line,
    });
    found
}

fn read_document(file: &str, document: &Document<'_>) -> Result<RuleTest, TestProblem> {
    let line_of = |relative: u64| document.first_line + (relative.max(1) as usize) - 1;
    let parsed: TestYaml = serde_saphyr::from_str(document.text).map_err(|e| {
        let line = e
            .location()
            .map_or(document.first_line, |l| line_of(l.line()));
        TestProblem::at(file, line, yaml_message(&e))
    })?;
    let rule_line = line_of(parsed.rule.referenced.line());
    let rule = parsed.rule.value.trim().to_string();
    if rule.is_empty() {
        return Err(TestProblem::at(
            file,
            rule_line,
            "`rule:` is empty: name the rule to test",
        ));
    }
    if parsed.fires.is_empty() && parsed.silent.is_empty() {
        return Err(TestProblem::at(
            file,
            rule_line,
            format!("the test of {rule} has no events: list `fires:` and `silent:` events"),
        ));
    }
    let events = |list: Vec<Spanned<EventYaml>>| -> Result<Vec<TestEvent>, TestProblem> {
        list.into_iter()
            .map(|spanned| {
                let line = line_of(spanned.referenced.line());
                test_event(spanned.value, line).map_err(|m| TestProblem::at(file, line, m))
            })
            .collect()
    };
    Ok(RuleTest {
        rule,
        place: Place::line(file, rule_line),
        fires: events(parsed.fires)?,
        silent: events(parsed.silent)?,
    })
}

/// The parser's message without its snippet and its own position: the
/// place is ours, in the file rather than the document.
fn yaml_message(error: &serde_saphyr::Error) -> String {
    let plain = error.without_snippet().to_string();
    let message = plain
        .rsplit_once(" at line ")
        .map_or(plain.as_str(), |(head, _)| head)
        .trim();
    format!("not a rule test: {message}")
}

fn test_event(written: EventYaml, line: usize) -> Result<TestEvent, String> {
    let kinds = [
        written.prompt.is_some(),
        written.paths.is_some(),
        written.read.is_some(),
        written.shell.is_some(),
    ];
    if kinds.iter().filter(|k| **k).count() > 1 {
        return Err(
            "an event has one of `prompt`, `paths`, `read` or `shell`, not several: write one event for each"
                .to_string(),
        );
    }
    if written.changed.is_some() && written.shell.is_none() {
        return Err(
            "`changed` belongs to a shell event: name its command with `shell`".to_string(),
        );
    }
    let blank = |paths: &[String]| paths.iter().all(|p| p.trim().is_empty());
    let shell = written.shell.clone();
    let event = match (written.prompt, written.paths, written.read, written.shell) {
        (Some(prompt), ..) => Event::prompt(prompt),
        (_, Some(paths), ..) if blank(&paths) => {
            return Err("`paths` is empty: name the edited paths".to_string())
        }
        (_, Some(paths), ..) => Event::edit(&paths),
        (_, _, Some(read), _) => Event::read(&[read]),
        (.., Some(command)) if command.trim().is_empty() => {
            return Err("`shell` is empty: name the command that ran".to_string())
        }
        (.., Some(_)) => match written.changed {
            Some(changed) if !blank(&changed) => Event::shell(&changed),
            _ => {
                return Err(
                    "a shell event needs the paths the command `changed`: write `changed: [<path>, ...]`"
                        .to_string(),
                )
            }
        },
        _ => {
            return Err(
                "an event needs a `prompt`, edited `paths`, a `read` path or a `shell` command with the paths it `changed`"
                    .to_string(),
            )
        }
    };
    let matched = event.matched_paths();
    let mut files = BTreeMap::new();
    for (path, content) in written.files.unwrap_or_default() {
        let path = paths::normalize_for_match(&path);
        if !matched.contains(&path) {
            return Err(format!(
                "`files` names {path}, which is not among the event's `paths` or `changed`"
            ));
        }
        files.insert(path, content);
    }
    let facts = Facts {
        command: written.command,
        project: None,
        os: written.os.as_deref().map(normalize_os),
        ci: written.ci,
        branch: written.branch,
        model: written.model,
        agent: written.agent,
        tools: written.tools,
    };
    Ok(TestEvent {
        line,
        event,
        shell,
        facts,
        files,
    })
}

/// An event in a few words, for a report: `prompt "add a route"`,
/// `edit src/a.ts`, `read docs/x.md`, `shell change src/gen/a.ts`.
pub fn describe_event(event: &Event) -> String {
    match event {
        Event::Prompt { text } => format!("prompt {}", quoted(text)),
        Event::Edit { paths } => format!("edit {}", paths.join(", ")),
        Event::Shell { .. } => format!("shell change {}", event.matched_paths().join(", ")),
        Event::Read { paths } => format!("read {}", paths.join(", ")),
        Event::SessionStart { .. } => "session start".to_string(),
    }
}

impl TestEvent {
    /// The event in a few words, a shell event with its command:
    /// `shell "npm run codegen" changed src/gen/a.ts`.
    pub fn describe(&self) -> String {
        match (&self.event, &self.shell) {
            (Event::Shell { .. }, Some(command)) => format!(
                "shell {} changed {}",
                quoted(command),
                self.event.matched_paths().join(", ")
            ),
            (event, _) => describe_event(event),
        }
    }
}

/// A prompt quoted, cut to a line's worth.
fn quoted(text: &str) -> String {
    const SHOWN: usize = 60;
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(SHOWN) {
        Some((at, _)) => format!("\"{}...\"", &one_line[..at]),
        None => format!("\"{one_line}\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = ".cursor/rule-tests/api.yml";

    #[test]
    fn reads_documents_events_and_facts_with_their_lines() {
        let read = read_test_file(
            FILE,
            "# API\nrule: api/handlers.mdc\nfires:\n  - prompt: add an endpoint\n  - paths: [src/api/a.ts]\n    files:\n      src/api/a.ts: \"TODO\"\nsilent:\n  - prompt: fix the docs\n    model: gpt-5\n    os: macos\n---\nrule: base.mdc\nfires:\n  - read: docs/x.md\n",
        );
        assert_eq!(read.problems, vec![]);
        let [api, base] = read.tests.as_slice() else {
            panic!("two tests: {:?}", read.tests)
        };
        assert_eq!(api.rule, "api/handlers.mdc");
        assert_eq!(api.place, Place::line(FILE, 2));
        let lines: Vec<usize> = api
            .fires
            .iter()
            .chain(&api.silent)
            .map(|e| e.line)
            .collect();
        assert_eq!(lines, vec![4, 5, 9]);
        assert_eq!(api.fires[1].event, Event::edit(&["src/api/a.ts"]));
        assert_eq!(api.fires[1].files["src/api/a.ts"], "TODO");
        assert_eq!(api.silent[0].facts.model.as_deref(), Some("gpt-5"));
        assert_eq!(api.silent[0].facts.os.as_deref(), Some("darwin"));
        assert_eq!(base.place, Place::line(FILE, 13));
        assert_eq!(base.fires[0].line, 15);
        assert_eq!(base.fires[0].event, Event::read(&["docs/x.md"]));
    }

    fn problems(text: &str) -> Vec<String> {
        read_test_file(FILE, text)
            .problems
            .iter()
            .map(|p| format!("{}: {}", p.place, p.message))
            .collect()
    }

    #[test]
    fn bad_documents_are_problems_at_their_line_and_the_others_still_run() {
        let text = "rule: a.mdc\nfires:\n  - prompt: x\n---\nrule: b.mdc\nfires:\n  - model: gpt-5\n---\nrule: [\n";
        let read = read_test_file(FILE, text);
        assert_eq!(read.tests.len(), 1);
        let shown: Vec<String> = read.problems.iter().map(|p| p.place.to_string()).collect();
        assert_eq!(shown, vec![format!("{FILE}:7"), format!("{FILE}:9")]);
        assert!(read.problems[0].message.contains("needs a `prompt`"));
        assert!(read.problems[1].message.starts_with("not a rule test"));
    }

    #[test]
    fn every_bad_input_names_its_line() {
        let cases = [
            (
                "rule: a.mdc\nfires:\n  - prompt: x\n    paths: [a]\n",
                3,
                "not several",
            ),
            (
                "rule: a.mdc\nfires:\n  - paths: []\n",
                3,
                "`paths` is empty",
            ),
            (
                "rule: a.mdc\nfires:\n  - prompt: x\n    promt: y\n",
                4,
                "unknown field",
            ),
            ("rule: a.mdc\n", 1, "has no events"),
            (
                "rule: a.mdc\nsilent:\n  - paths: [a]\n    files: {b: x}\n",
                3,
                "`files` names b",
            ),
            ("- just\n- a list\n", 1, "not a rule test"),
            (
                "rule: a.mdc\nfires:\n  - shell: npm run gen\n",
                3,
                "needs the paths the command `changed`",
            ),
            (
                "rule: a.mdc\nfires:\n  - shell: npm run gen\n    changed: []\n",
                3,
                "needs the paths the command `changed`",
            ),
            (
                "rule: a.mdc\nfires:\n  - changed: [a]\n",
                3,
                "name its command with `shell`",
            ),
            (
                "rule: a.mdc\nfires:\n  - shell: \"  \"\n    changed: [a]\n",
                3,
                "`shell` is empty",
            ),
            (
                "rule: a.mdc\nfires:\n  - shell: x\n    changed: [a]\n    paths: [b]\n",
                3,
                "not several",
            ),
            ("# nothing\n", 1, "holds no test"),
            (
                "rule: a.mdc\nfires: [{prompt: x}]\nsilent: {prompt: y}\n",
                3,
                "not a rule test",
            ),
        ];
        for (text, line, words) in cases {
            let found = problems(text);
            assert_eq!(found.len(), 1, "{text:?}: {found:?}");
            assert!(
                found[0].starts_with(&format!("{FILE}:{line}: ")),
                "{text:?}: {found:?}"
            );
            assert!(found[0].contains(words), "{text:?}: {found:?}");
        }
    }

    #[test]
    fn more_events_than_the_bound_refuse_the_file_at_the_first_one_past_it() {
        let mut text = String::from("rule: a.mdc\nfires:\n");
        for _ in 0..=MAX_EVENTS {
            text.push_str("  - prompt: x\n");
        }
        let read = read_test_file(FILE, &text);
        assert!(read.tests.is_empty());
        assert_eq!(read.problems.len(), 1);
        assert_eq!(read.problems[0].place, Place::line(FILE, 3 + MAX_EVENTS));
        assert!(read.problems[0].message.contains("more than 10000 events"));
    }

    #[test]
    fn a_shell_event_is_the_change_the_hooks_see() {
        let read = read_test_file(
            FILE,
            "rule: gen.mdc\nfires:\n  - shell: npm run codegen\n    changed: [src/gen/b.ts, ./src/gen/a.ts]\n    files:\n      src/gen/a.ts: generated\n",
        );
        assert_eq!(read.problems, vec![]);
        let event = &read.tests[0].fires[0];
        assert_eq!(
            event.event,
            Event::shell(&["src/gen/b.ts", "./src/gen/a.ts"])
        );
        assert_eq!(event.files["src/gen/a.ts"], "generated");
        assert_eq!(
            event.describe(),
            "shell \"npm run codegen\" changed src/gen/a.ts, src/gen/b.ts"
        );
    }

    #[test]
    fn events_are_described_in_a_few_words() {
        assert_eq!(
            describe_event(&Event::prompt("add\n a route")),
            "prompt \"add a route\""
        );
        assert_eq!(describe_event(&Event::edit(&["a", "b"])), "edit a, b");
        assert!(describe_event(&Event::prompt("x".repeat(100))).ends_with("...\""));
    }
}
