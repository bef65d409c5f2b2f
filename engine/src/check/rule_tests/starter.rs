//! `rule-fairy test --new RULE`: a first test of a rule, made from what it
//! declares (a path each glob matches, a prompt naming its keywords, a
//! read of a requestable rule's file, a mention of a manual one) and one
//! event that must not select it. Every event is judged before it is
//! written, so the starter passes as written, or says which event does
//! not.

use std::collections::BTreeMap;

use crate::base::fs::FileSource;
use crate::base::paths;
use crate::check::rule_tests::file::TestEvent;
use crate::check::rule_tests::judge::selects;
use crate::check::rule_tests::{test_dirs, TEST_DIR};
use crate::matching::event::Event;
use crate::matching::facts::{project_tags, Facts};
use crate::matching::find_rule::{find_rule, NoRule};
use crate::matching::index::{scoped_globs, shown_glob};
use crate::matching::project::Project;
use crate::rules::reach;
use crate::rules::rule::Rule;

/// A starter test: where to write it and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Starter {
    /// The rule's name.
    pub rule: String,
    /// The file to write, project-relative.
    pub file: String,
    /// The test, as YAML.
    pub text: String,
}

/// Events that name nothing a rule is likely to declare, tried in turn
/// for the starter's `silent` event.
const QUIET: &[(&str, &str)] = &[
    ("prompt", "Fix a typo in the changelog"),
    ("paths", "notes/unrelated.txt"),
    ("paths", "unrelated"),
];

/// A starter test of the rule `rule` names in `project`.
pub fn starter(fs: &dyn FileSource, project: &Project, rule: &str) -> Result<Starter, NoRule> {
    let place = find_rule(project, rule)?;
    let rule = project.rules.at(place);
    let tags = project_tags(fs, &project.root);
    let facts = declared_facts(rule);
    let judged =
        |event: &Candidate| selects(fs, project, &tags, &rule.name, &event.test_event(&facts));
    let mut fires = Vec::new();
    for candidate in candidates(project, place) {
        let held = judged(&candidate);
        fires.push((candidate, held));
    }
    let silent = QUIET
        .iter()
        .map(|(kind, value)| Candidate::new(kind, value))
        .find(|candidate| !judged(candidate));
    let mut text = format!(
        "# The test of {name}: `rule-fairy test` checks that every `fires`\n# event selects it and no `silent` event does.\nrule: {}\nfires:\n",
        yaml_string(&rule.name),
        name = rule.name,
    );
    for (candidate, held) in &fires {
        if !held {
            text.push_str("  # does not select the rule yet: give it what its conditions test\n");
        }
        text.push_str(&candidate.yaml(&facts));
    }
    text.push_str("silent:\n");
    match silent {
        Some(candidate) => text.push_str(&candidate.yaml(&Facts::default())),
        None => text.push_str(
            "  # every event tried selects the rule: add one that must not\n  - prompt: \"\"\n",
        ),
    }
    let dir = test_dirs(project)
        .into_iter()
        .next()
        .unwrap_or_else(|| format!(".cursor/{TEST_DIR}"));
    let stem = rule
        .name
        .rsplit_once('.')
        .filter(|(_, ext)| !ext.contains('/'))
        .map_or(rule.name.as_str(), |(stem, _)| stem);
    Ok(Starter {
        rule: rule.name.clone(),
        file: format!("{dir}/{stem}.yml"),
        text,
    })
}

/// One event of the starter, as it is written.
struct Candidate {
    /// `prompt`, `paths` or `read`.
    kind: &'static str,
    value: String,
}

impl Candidate {
    fn new(kind: &'static str, value: &str) -> Candidate {
        Candidate {
            kind,
            value: value.to_string(),
        }
    }

    fn event(&self) -> Event {
        match self.kind {
            "prompt" => Event::prompt(self.value.clone()),
            "paths" => Event::edit(&[&self.value]),
            _ => Event::read(&[&self.value]),
        }
    }

    fn test_event(&self, facts: &Facts) -> TestEvent {
        TestEvent {
            line: 0,
            event: self.event(),
            shell: None,
            facts: facts.clone(),
            files: BTreeMap::new(),
        }
    }

    /// The event as a list item, with the facts its rule tests.
    fn yaml(&self, facts: &Facts) -> String {
        let value = match self.kind {
            "paths" => format!("[{}]", yaml_string(&self.value)),
            _ => yaml_string(&self.value),
        };
        format!("  - {}: {value}\n{}", self.kind, facts_yaml(facts))
    }
}

/// An event's facts as the lines under its list item; the project's tags
/// are the project's own, never written.
fn facts_yaml(facts: &Facts) -> String {
    let mut out = String::new();
    let mut fact = |key: &str, value: &Option<String>| {
        if let Some(value) = value {
            out.push_str(&format!("    {key}: {}\n", yaml_string(value)));
        }
    };
    fact("command", &facts.command);
    fact("os", &facts.os);
    fact("branch", &facts.branch);
    fact("model", &facts.model);
    fact("agent", &facts.agent);
    if let Some(ci) = facts.ci {
        out.push_str(&format!("    ci: {ci}\n"));
    }
    if let Some(tools) = &facts.tools {
        let items: Vec<String> = tools.iter().map(|t| yaml_string(t)).collect();
        out.push_str(&format!("    tools: [{}]\n", items.join(", ")));
    }
    out
}

/// A test of the rule named `rule` holding one event, `event` with
/// `facts`: under `fires` when it selects the rule now, else under
/// `silent`, so the test passes as written and fails when a change of the
/// rule changes the answer (the playground's "export as test").
pub(crate) fn event_test(rule: &str, event: &Event, facts: &Facts, fires: bool) -> String {
    let listed = |paths: &[String]| -> String {
        let items: Vec<String> = paths.iter().map(|p| yaml_string(p)).collect();
        format!("[{}]", items.join(", "))
    };
    let item = match event {
        Event::Prompt { text } => format!("  - prompt: {}\n", yaml_string(text)),
        Event::Edit { paths } => format!("  - paths: {}\n", listed(paths)),
        // The hooks judge a shell change by its paths alone; the command
        // is for the reader, who knows it better than the event does.
        Event::Shell { paths } => format!(
            "  - shell: \"a shell command\"  # name the command that changed them\n    changed: {}\n",
            listed(paths)
        ),
        // A test's read is one path.
        Event::Read { paths } => format!(
            "  - read: {}\n",
            yaml_string(paths.first().map_or("", String::as_str))
        ),
        // A test file holds no session start; a prompt is the nearest.
        Event::SessionStart { .. } => "  - prompt: \"\"\n".to_string(),
    };
    let (list, says) = if fires {
        ("fires", "selects it")
    } else {
        ("silent", "does not select it")
    };
    format!(
        "# A test of {rule}: `rule-fairy test` checks that this event still {says}.\nrule: {}\n{list}:\n{item}{}",
        yaml_string(rule),
        facts_yaml(facts),
    )
}

/// A double-quoted YAML scalar: JSON's string syntax is YAML's.
fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialise")
}

/// The events that should select the rule at `place`, from what it declares.
fn candidates(project: &Project, place: usize) -> Vec<Candidate> {
    let rule = project.rules.at(place);
    let mut found = Vec::new();
    if rule.mention_only || !reach::fires_by_itself(rule) && !reach::is_requestable(rule) {
        let mention = project.index.requests().shortest_mention(place);
        found.push(Candidate::new("prompt", &format!("Follow {mention} here")));
        return found;
    }
    if reach::is_requestable(rule) {
        let file = paths::strip_base(&rule.path, &project.root)
            .unwrap_or(&rule.path)
            .trim_start_matches('/');
        found.push(Candidate::new("read", file));
    }
    let (globs, always_at_prompts) = scoped_globs(rule);
    if always_at_prompts {
        found.push(Candidate::new("prompt", "Any prompt at all"));
    }
    if let Some(trigger) = &rule.trigger {
        if let Some(term) = trigger.any_of.first() {
            let mut prompt = format!("Something about the {term}");
            for required in &trigger.requires {
                prompt.push_str(&format!(" and the {required}"));
            }
            found.push(Candidate::new("prompt", &prompt));
        }
    }
    for spec in &globs {
        let glob = shown_glob(rule.base.as_deref(), &spec.pattern);
        found.push(Candidate::new("paths", &example_path(&glob)));
    }
    found
}

/// The first value of each fact condition the rule declares, so a
/// `match: all` rule's starter has what its conditions test.
fn declared_facts(rule: &Rule) -> Facts {
    let conditions = &rule.conditions;
    let first = |values: &[String]| values.first().map(|v| example_segment(v));
    Facts {
        command: first(&conditions.command.values),
        project: None,
        os: first(&conditions.os.values),
        ci: conditions.ci.map(|(ci, _)| ci),
        branch: first(&conditions.branch.values),
        model: first(&conditions.model.values),
        agent: first(&conditions.agent.values),
        tools: first(&conditions.tools.values).map(|tool| vec![tool]),
    }
}

/// A path the glob matches (behaviour §2.2): `**` segments cross no
/// directory (or name a file at the end), `*` is `example`, `?` is `x`,
/// a class its first character, braces their first choice.
///
/// ```text
/// src/api/**/*.ts   -> src/api/example.ts
/// db/**             -> db/example.txt
/// *.test.{ts,tsx}   -> example.test.ts
/// ```
pub(crate) fn example_path(glob: &str) -> String {
    let segments: Vec<&str> = glob.split('/').collect();
    let last = segments.len() - 1;
    let mut out = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        match *segment {
            "**" if i == last => out.push("example.txt".to_string()),
            "**" => {}
            _ => out.push(example_segment(segment)),
        }
    }
    out.join("/")
}

/// One segment of a glob as a name it matches.
fn example_segment(segment: &str) -> String {
    let mut out = String::new();
    let mut chars = segment.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                out.push_str("example");
            }
            '?' => out.push('x'),
            '[' => {
                // The first member stands for the class (`[^a]` and `[!a]`
                // are classes of their characters, not negations).
                if let Some(first) = chars.next() {
                    out.push(first);
                }
                for rest in chars.by_ref() {
                    if rest == ']' {
                        break;
                    }
                }
            }
            '{' => {
                let mut depth = 1;
                let mut chosen = true;
                for inner in chars.by_ref() {
                    match inner {
                        '{' => depth += 1,
                        '}' if depth == 1 => break,
                        '}' => depth -= 1,
                        ',' if depth == 1 => chosen = false,
                        _ if chosen => out.push(inner),
                        _ => {}
                    }
                }
            }
            '\\' => out.extend(chars.next()),
            _ => out.push(c),
        }
    }
    if out.is_empty() {
        out.push_str("example");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::glob::matches;

    #[test]
    fn example_paths_match_their_globs() {
        for (glob, path) in [
            ("src/api/**/*.ts", "src/api/example.ts"),
            ("db/**", "db/example.txt"),
            ("*.test.ts", "example.test.ts"),
            ("src/**/ui/*.tsx", "src/ui/example.tsx"),
            ("src/a?.ts", "src/ax.ts"),
            ("src/[abc]/x.md", "src/a/x.md"),
            ("**", "example.txt"),
            ("docs/**/*.md", "docs/example.md"),
            ("a**b.txt", "aexampleb.txt"),
        ] {
            assert_eq!(example_path(glob), path, "{glob}");
            assert!(matches(glob, path).unwrap(), "{glob} on {path}");
        }
    }

    #[test]
    fn braces_take_their_first_choice() {
        assert_eq!(example_path("src/**/*.{ts,tsx}"), "src/example.ts");
        assert_eq!(example_path("{a,{b,c}}/x"), "a/x");
    }

    #[test]
    fn an_event_test_reads_back_as_the_event_it_was_made_from() {
        use crate::check::rule_tests::read_test_file;
        let facts = Facts {
            model: Some("gpt-5".into()),
            ci: Some(false),
            tools: Some(vec!["bash".into()]),
            ..Facts::default()
        };
        for (event, fires) in [
            (Event::prompt("Add a \"Button\": now".to_string()), true),
            (Event::edit(&["src/ui/a.tsx", "src/b.ts"]), false),
            (Event::read(&["docs/x.md"]), true),
        ] {
            let text = event_test("ui/components.mdc", &event, &facts, fires);
            let file = read_test_file("t.yml", &text);
            assert!(file.problems.is_empty(), "{text}\n{:?}", file.problems);
            let test = &file.tests[0];
            assert_eq!(test.rule, "ui/components.mdc");
            let (held, other) = if fires {
                (&test.fires, &test.silent)
            } else {
                (&test.silent, &test.fires)
            };
            assert!(other.is_empty(), "{text}");
            assert_eq!(held[0].event, event, "{text}");
            assert_eq!(held[0].facts, facts, "{text}");
        }
    }
}
