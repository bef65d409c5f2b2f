//! Rule files: frontmatter and body, in every format (behaviour §1.2, §1.3).

use proptest::prelude::*;
use rule_fairy_engine::{Format, MemoryFs, Project, Rule};

use crate::inputs::{bounded, config, mutated, RULE_SEEDS};

const FORMATS: [Format; 6] = [
    Format::Cursor,
    Format::Claude,
    Format::Copilot,
    Format::Windsurf,
    Format::Cline,
    Format::Opencode,
];

fn line_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count() + 1
}

/// A rule's name: one to three path segments, ending in `.mdc`.
fn rule_name() -> impl Strategy<Value = String> {
    prop::collection::vec("[A-Za-z0-9_][A-Za-z0-9_. -]{0,7}", 1..4)
        .prop_map(|segments| format!("{}.mdc", segments.join("/")))
        .prop_filter("no dot segments", |name| {
            name.split('/')
                .all(|s| s != "." && s != ".." && !s.starts_with('.'))
        })
}

proptest! {
    #![proptest_config(config(256))]

    /// Any bytes read as a rule of any format: the name and path are what
    /// was given, every line a field or glob names lies in the file, and
    /// text that is not UTF-8 is an error naming the file and its line.
    #[test]
    fn any_bytes_read_as_a_rule_name_their_file(bytes in mutated(RULE_SEEDS)) {
        let lines = line_count(&bytes);
        let outcomes = bounded("rule from bytes", move || {
            FORMATS.map(|format| {
                Rule::from_bytes_as(format, "a/r.mdc", "/p/.cursor/rules/a/r.mdc", &bytes)
            })
        });
        for outcome in outcomes {
            match outcome {
                Ok(rule) => {
                    prop_assert_eq!(&rule.name, "a/r.mdc");
                    prop_assert_eq!(&rule.path, "/p/.cursor/rules/a/r.mdc");
                    prop_assert!((1..=lines).contains(&rule.document.body_line));
                    for glob in &rule.globs {
                        prop_assert!((1..=lines).contains(&glob.line), "glob line {}", glob.line);
                        prop_assert!(!glob.pattern.is_empty());
                    }
                    if let Some(fm) = rule.frontmatter() {
                        for field in &fm.fields {
                            prop_assert!((1..=lines).contains(&field.line));
                        }
                        for ignored in fm.ignored.iter().chain(&fm.list_errors) {
                            prop_assert!((1..=lines).contains(&ignored.line));
                        }
                    }
                    if let Some(trigger) = &rule.trigger {
                        prop_assert!(!trigger.any_of.is_empty());
                    }
                }
                Err(error) => {
                    let place = error.place.expect("a rule's error has a place");
                    prop_assert_eq!(place.file, "/p/.cursor/rules/a/r.mdc");
                    prop_assert!(place.line.is_some_and(|l| (1..=lines).contains(&l)));
                }
            }
        }
    }

    /// Fields written as `key: value` lines read back as written.
    #[test]
    fn frontmatter_fields_round_trip(
        fields in prop::collection::btree_map("[a-zA-Z][a-zA-Z0-9_-]{0,11}", "[a-zA-Z0-9./_*][a-zA-Z0-9 ./_*-]{0,30}[a-zA-Z0-9./_*]", 1..8),
        body in "[a-zA-Z0-9 #.\n-]{0,200}",
    ) {
        let mut text = String::from("---\n");
        for (key, value) in &fields {
            text.push_str(&format!("{key}: {value}\n"));
        }
        text.push_str("---\n");
        text.push_str(&body);
        let rule = Rule::parse("r.mdc", "r.mdc", &text);
        let fm = rule.frontmatter().expect("a frontmatter block");
        for (i, (key, value)) in fields.iter().enumerate() {
            prop_assert_eq!(fm.text(key), Some(value.as_str()), "{}", key);
            prop_assert_eq!(fm.get(key).unwrap().line, i + 2);
        }
        prop_assert_eq!(rule.body(), body.trim());
    }

    /// A rule's name is its file's path below the rules directory, whatever
    /// the file holds; a file that cannot be read is a finding naming it,
    /// and the other rules still load.
    #[test]
    fn a_rule_is_named_after_its_file(
        name in rule_name(),
        bytes in mutated(RULE_SEEDS),
        other in mutated(RULE_SEEDS),
    ) {
        let loaded = bounded("project load", {
            let name = name.clone();
            move || {
                let mut fs = MemoryFs::new();
                fs.add_dir("/p/.git");
                fs.add_file(&format!("/p/.cursor/rules/{name}"), &bytes);
                fs.add_file("/p/.cursor/rules/zz-other.mdc", &other);
                Project::load(&fs, "/p").map(|p| p.rules)
            }
        });
        let rules = loaded.expect("the default configuration loads");
        let names: Vec<&str> = rules.all().iter().map(|r| r.name.as_str()).collect();
        for rule in rules.all() {
            prop_assert!(rule.name == name || rule.name == "zz-other.mdc", "{}", rule.name);
            prop_assert_eq!(&rule.path, &format!("/p/.cursor/rules/{}", rule.name));
        }
        for finding in &rules.findings {
            prop_assert!(
                finding.place.file.ends_with(&name) || finding.place.file.ends_with("zz-other.mdc"),
                "{:?}", finding
            );
        }
        for wanted in [name.as_str(), "zz-other.mdc"] {
            let found = names.contains(&wanted)
                || rules.findings.iter().any(|f| f.place.file.ends_with(wanted));
            prop_assert!(found, "{} neither loaded nor reported: {:?}", wanted, rules);
        }
    }
}
