//! Prompt selection through the posting lists equals judging every rule
//! (behaviour §2.4, §2.6, §9.3): a candidate the lists miss would be a
//! rule that silently stops firing.

use proptest::prelude::*;

use super::RuleIndex;
use crate::matching::facts::Facts;
use crate::rules::rule::Rule;

const TERMS: &[&str] = &[
    "alpha",
    "beta",
    "ice",
    "vice",
    "service",
    "x-y",
    "two words",
];
const BRANCHES: &[&str] = &["main", "feat/*", "dev", "rel-[0-9]"];

/// One rule's frontmatter, from a seed per field: each field is left out
/// or takes one of a few values, so rules share terms and facts.
fn frontmatter(fields: &[u8; 12]) -> String {
    let pick = |seed: u8, values: &[&str]| values[seed as usize % values.len()].to_string();
    let mut out = String::from("---\n");
    let mut line = |key: &str, seed: u8, values: &[&str]| {
        if !seed.is_multiple_of(3) {
            let second = pick(seed / 3, values);
            let value = if seed.is_multiple_of(5) {
                format!("{}, {second}", pick(seed / 7, values))
            } else {
                second
            };
            out.push_str(&format!("{key}: {value}\n"));
        }
    };
    line("promptAnyOf", fields[0], TERMS);
    line("promptRequires", fields[1] / 2, TERMS);
    line("os", fields[2], &["linux", "darwin"]);
    line("branch", fields[3], BRANCHES);
    line("model", fields[4], &["m1", "m2"]);
    line("agent", fields[5], &["build", "plan"]);
    line("tools", fields[6], &["t1", "t2", "t3"]);
    line("project", fields[7], &["node", "rust"]);
    line("command", fields[8] / 2, &["/plan", "/fix"]);
    line("ci", fields[9] / 2, &["true", "false"]);
    if fields[10].is_multiple_of(4) {
        out.push_str("alwaysApply: true\n");
    }
    if fields[10].is_multiple_of(3) {
        out.push_str("globs: src/**\n");
    }
    if fields[10].is_multiple_of(7) {
        out.push_str("fileContains: TODO\n");
    }
    if fields[11].is_multiple_of(2) {
        out.push_str("match: all\n");
    }
    out.push_str("---\n# Rule\n");
    out
}

fn index_of(rules: &[[u8; 12]]) -> RuleIndex {
    let mut parsed: Vec<Rule> = rules
        .iter()
        .enumerate()
        .map(|(i, fields)| {
            let name = format!("d{}/r{i}.mdc", i % 3);
            Rule::parse(&name, &format!("/p/{name}"), &frontmatter(fields))
        })
        .collect();
    parsed.sort_by(|a, b| crate::rules::discovery::java_order(&a.name, &b.name));
    RuleIndex::build(&parsed)
}

fn facts_of(seeds: &[u8; 8]) -> Facts {
    let maybe = |seed: u8, values: &[&str]| {
        (!seed.is_multiple_of(3)).then(|| values[seed as usize % values.len()].to_string())
    };
    let list = |seed: u8, values: &[&str]| {
        (!seed.is_multiple_of(3)).then(|| {
            values
                .iter()
                .enumerate()
                .filter(|(i, _)| seed >> (i + 2) & 1 == 1)
                .map(|(_, v)| v.to_string())
                .collect()
        })
    };
    Facts {
        command: maybe(seeds[0], &["/plan", "/fix"]),
        project: list(seeds[1], &["node", "rust"]),
        os: maybe(seeds[2], &["linux", "darwin"]),
        ci: (!seeds[3].is_multiple_of(3)).then_some(seeds[3].is_multiple_of(2)),
        branch: maybe(seeds[4], &["main", "feat/a", "dev", "rel-1", "other"]),
        model: maybe(seeds[5], &["m1", "m2"]),
        agent: maybe(seeds[6], &["build", "plan"]),
        tools: list(seeds[7], &["t1", "t2", "t3"]),
    }
}

fn prompt_of(words: &[u8]) -> String {
    let vocabulary: Vec<String> = TERMS
        .iter()
        .map(ToString::to_string)
        .chain(
            [
                "/plan", "/fix", "@r1", "@d0/r3", "@r4.mdc", "@r", "services", "x",
            ]
            .map(String::from),
        )
        .collect();
    words
        .iter()
        .map(|w| vocabulary[*w as usize % vocabulary.len()].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn posting_lists_select_what_visiting_every_rule_selects(
        rules in proptest::collection::vec(any::<[u8; 12]>(), 0..24),
        words in proptest::collection::vec(any::<u8>(), 0..8),
        seeds in any::<[u8; 8]>(),
    ) {
        let index = index_of(&rules);
        let prompt = prompt_of(&words);
        let facts = facts_of(&seeds);
        for facts in [Facts::default(), facts] {
            prop_assert_eq!(
                index.match_prompt_with(&prompt, &facts),
                index.match_prompt_visiting_all(&prompt, &facts),
                "prompt {:?}", prompt
            );
        }
    }
}

fn names(index: &RuleIndex, prompt: &str, facts: &Facts) -> Vec<String> {
    let selected: Vec<String> = index
        .match_prompt_with(prompt, facts)
        .into_iter()
        .map(|m| m.name)
        .collect();
    let all: Vec<String> = index
        .match_prompt_visiting_all(prompt, facts)
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(selected, all, "{prompt:?}");
    selected
}

#[test]
fn every_way_a_prompt_reaches_a_rule_is_a_candidate() {
    let rules: Vec<Rule> = [
        ("a-always.mdc", "---\nalwaysApply: true\n---\n"),
        (
            "b-word.mdc",
            "---\npromptAnyOf: widget\npromptRequires: service\n---\n",
        ),
        ("c-os.mdc", "---\nos: linux\n---\n"),
        ("d-branch-glob.mdc", "---\nbranch: feat/*\n---\n"),
        ("e-branch.mdc", "---\nbranch: main\n---\n"),
        ("f-ci.mdc", "---\nci: false\n---\n"),
        ("g-tools.mdc", "---\ntools: t1, t2\n---\n"),
        ("h-command.mdc", "---\ncommand: /plan\n---\n"),
        (
            "i-all.mdc",
            "---\npromptAnyOf: widget\nmodel: m1\nmatch: all\n---\n",
        ),
        ("j-manual.mdc", "# no trigger"),
        ("k-project.mdc", "---\nproject: rust\nglobs: src/**\n---\n"),
        ("l-agent.mdc", "---\nagent: plan\n---\n"),
    ]
    .iter()
    .map(|(name, text)| Rule::parse(name, &format!("/p/{name}"), text))
    .collect();
    let index = RuleIndex::build(&rules);
    let none = Facts::default();
    assert_eq!(names(&index, "hello", &none), ["a-always.mdc"]);
    assert_eq!(names(&index, "a widget", &none), ["a-always.mdc"]);
    assert_eq!(
        names(&index, "/plan the widget service @j-manual", &none),
        [
            "a-always.mdc",
            "b-word.mdc",
            "h-command.mdc",
            "j-manual.mdc"
        ]
    );
    let facts = Facts {
        os: Some("linux".into()),
        branch: Some("feat/x".into()),
        ci: Some(false),
        tools: Some(vec!["t0".into(), "t2".into()]),
        model: Some("m1".into()),
        project: Some(vec!["rust".into()]),
        agent: Some("plan".into()),
        ..Facts::default()
    };
    assert_eq!(
        names(&index, "widget", &facts),
        [
            "a-always.mdc",
            "c-os.mdc",
            "d-branch-glob.mdc",
            "f-ci.mdc",
            "g-tools.mdc",
            "i-all.mdc",
            "k-project.mdc",
            "l-agent.mdc"
        ]
    );
    let main = Facts {
        branch: Some("main".into()),
        ci: Some(true),
        model: Some("m2".into()),
        ..Facts::default()
    };
    assert_eq!(
        names(&index, "widget", &main),
        ["a-always.mdc", "e-branch.mdc"]
    );
}
