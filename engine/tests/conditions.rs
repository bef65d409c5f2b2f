//! Rule conditions beyond Cursor's, tested through the public API with the
//! acceptance candidates of opencode-rules (its tests, T, and probes, P).
//! Where opencode-rules has a measured defect, ours does the right thing
//! and the test says so.

use rule_fairy_engine::Facts;
use rule_fairy_engine::FileSource;
use rule_fairy_engine::Format;
use rule_fairy_engine::MemoryFs;
use rule_fairy_engine::Project;
use rule_fairy_engine::Rule;
use rule_fairy_engine::RuleIndex;
use rule_fairy_engine::{read_contents, select, Selection};
use rule_fairy_engine::{Event, Query};

fn index(format: Format, rules: &[(&str, &str)]) -> RuleIndex {
    let rules: Vec<Rule> = rules
        .iter()
        .map(|(name, text)| Rule::parse_as(format, name, name, text))
        .collect();
    RuleIndex::build(&rules)
}

fn prompt(index: &RuleIndex, text: &str, facts: &Facts) -> Vec<String> {
    index
        .match_prompt_with(text, facts)
        .into_iter()
        .map(|m| m.name)
        .collect()
}

fn select_prompt_with(project: &Project, text: &str, facts: &Facts) -> Selection {
    select(project, &Query::new(&Event::prompt(text), facts))
}

/// An edit, with each edited file's content read through `fs`.
fn select_edit_with(
    fs: &dyn FileSource,
    project: &Project,
    paths: &[&str],
    facts: &Facts,
) -> Selection {
    let event = Event::edit(paths);
    let contents = read_contents(fs, project, &event.matched_paths());
    select(
        project,
        &Query::new(&event, facts).with_contents(contents.as_deref()),
    )
}

fn fires(rule: &str, text: &str) -> bool {
    !prompt(
        &index(Format::Cursor, &[("r.mdc", rule)]),
        text,
        &Facts::default(),
    )
    .is_empty()
}

fn none() -> Facts {
    Facts::default()
}

#[test]
fn opencode_rules_without_conditions_are_unconditional() {
    // T7, T8, T29: no frontmatter, or an empty block, means every prompt.
    let idx = index(
        Format::Opencode,
        &[
            ("plain.md", "Body"),
            ("empty.md", "---\n---\nbody"),
            ("blank.md", "---\n   \n---\nbody"),
            ("cond.md", "---\nkeywords: [deploy]\n---\nx"),
        ],
    );
    assert_eq!(
        prompt(&idx, "anything", &none()),
        vec!["plain.md", "empty.md", "blank.md"]
    );
    assert_eq!(prompt(&idx, "deploy it", &none()).len(), 4);
}

#[test]
fn cursor_rules_stay_glob_gated() {
    // P39: opencode-rules reads Cursor's `globs: *.ts,*.tsx` as a YAML error and
    // injects the rule for every prompt. Ours keeps it glob-gated.
    let idx = index(
        Format::Cursor,
        &[(
            "ts.mdc",
            "---\ndescription: X\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\nTS",
        )],
    );
    assert!(prompt(&idx, "update the readme", &none()).is_empty());
    assert_eq!(idx.match_paths(&["src/a.ts"]).rules.len(), 1);
    // P40: alwaysApply alone is injected, for the right reason.
    assert!(fires("---\nalwaysApply: true\n---\nA", "anything"));
}

#[test]
fn keyword_semantics() {
    let kw =
        |keyword: &str, text: &str| fires(&format!("---\nkeywords: [\"{keyword}\"]\n---\nx"), text);
    assert!(kw("testing", "I need help testing this function")); // T15
    assert!(kw("Testing", "testing") && kw("testing", "TESTING")); // T16
    assert!(!kw("test", "I entered a contest")); // T18
    assert!(kw("test.ts", "file.test.ts") && !kw("test.ts", "run tests now")); // T19
    assert!(kw("unit test", "help with unit test coverage")); // T20
    assert!(!kw("testing", "")); // T21
                                 // T17 differs on purpose: opencode-rules matches prefixes (`test` in
                                 // `testing`); ours matches whole words, as promptAnyOf always has.
    assert!(!kw("test", "I am testing this"));
    // P36, P37: opencode-rules never matches a term starting with a
    // non-ASCII letter or punctuation (its `\b` is ASCII-only). Ours does.
    assert!(kw("über", "das über alles"));
    assert!(kw("/plan", "run /plan now"));
    // Comma lines work too, and keywords join promptAnyOf.
    assert!(fires(
        "---\nkeywords: deploy, ship it\npromptAnyOf: release\n---\nx",
        "please ship it"
    ));
    assert!(fires(
        "---\nkeywords: deploy\npromptAnyOf: release\n---\nx",
        "cut a release"
    ));
}

#[test]
fn globs_and_keywords_combine_with_any() {
    // T13, T14.
    let idx = index(
        Format::Opencode,
        &[(
            "t.md",
            "---\nglobs: [\"**/*.test.ts\"]\nkeywords: [testing]\n---\nx",
        )],
    );
    assert_eq!(prompt(&idx, "testing", &none()), vec!["t.md"]);
    assert!(prompt(&idx, "update the readme", &none()).is_empty());
    assert_eq!(idx.match_paths(&["src/a.test.ts"]).rules.len(), 1);
    let comp = index(
        Format::Opencode,
        &[("c.md", "---\nglobs: [\"src/components/**/*.ts\"]\n---\nx")],
    );
    assert_eq!(
        comp.match_paths(&["src/components/button.ts"]).rules.len(),
        1
    );
    assert!(comp.match_paths(&["src/utils/helpers.js"]).rules.is_empty());
    // P38: a slash-free glob matches the file name at any depth.
    assert_eq!(
        index(
            Format::Opencode,
            &[("s.md", "---\nglobs: [\"*.ts\"]\n---\nx")]
        )
        .match_paths(&["src/a.ts"])
        .rules
        .len(),
        1
    );
}

#[test]
fn list_values_are_cleaned() {
    // T9, T10: non-text items dropped, items trimmed, empty lists undeclared.
    let idx = index(
        Format::Opencode,
        &[("g.md", "---\nglobs: [\"**/*.ts\", 123, true]\n---\nx")],
    );
    assert_eq!(idx.match_paths(&["a.ts"]).rules.len(), 1);
    let model = index(
        Format::Cursor,
        &[("m.mdc", "---\nmodel: [\" gpt-5 \", \"\"]\n---\nx")],
    );
    let facts = Facts {
        model: Some("gpt-5".into()),
        ..none()
    };
    assert_eq!(prompt(&model, "x", &facts), vec!["m.mdc"]);
}

#[test]
fn runtime_facts() {
    let idx = index(
        Format::Cursor,
        &[
            ("branch.mdc", "---\nbranch: [\"feature/*\"]\n---\nx"),
            ("ci.mdc", "---\nci: true\n---\nx"),
            ("command.mdc", "---\ncommand: [/plan]\n---\nx"),
            ("os.mdc", "---\nos: [macos]\n---\nx"),
            ("project.mdc", "---\nproject: [rust]\n---\nx"),
            ("tools.mdc", "---\ntools: [mcp_websearch]\n---\nx"),
        ],
    );
    // Missing context is a non-match (T27).
    assert!(prompt(&idx, "hello", &none()).is_empty());
    let facts = Facts {
        branch: Some("feature/a".into()),
        ci: Some(true),
        os: Some("darwin".into()),
        project: Some(vec!["node".into(), "rust".into()]),
        tools: Some(vec!["mcp_websearch_v2".into()]), // T22: exact only
        ..none()
    };
    assert_eq!(
        prompt(&idx, "/plan implement filters", &facts),
        vec![
            "branch.mdc",
            "ci.mdc",
            "command.mdc",
            "os.mdc",
            "project.mdc"
        ]
    );
    let nested = Facts {
        branch: Some("feature/a/b".into()),
        ..none()
    };
    assert!(
        prompt(&idx, "x", &nested).is_empty(),
        "feature/* does not cross /"
    );
}

#[test]
fn match_all_needs_every_declared_condition() {
    // T28 and T27's match: all.
    let rule = "---\nmodel: [gpt-5]\nagent: [build]\ncommand: [/plan]\nmatch: all\n---\nx";
    let idx = index(Format::Cursor, &[("all.mdc", rule)]);
    let facts = Facts {
        model: Some("gpt-5".into()),
        agent: Some("build".into()),
        ..none()
    };
    assert_eq!(prompt(&idx, "/plan it", &facts), vec!["all.mdc"]);
    assert!(prompt(&idx, "/review it", &facts).is_empty());
    assert!(prompt(
        &idx,
        "/plan it",
        &Facts {
            agent: None,
            ..facts.clone()
        }
    )
    .is_empty());
    // T12: anything but `all` is `any`.
    let some = index(
        Format::Cursor,
        &[(
            "some.mdc",
            "---\nmodel: [gpt-5]\nagent: [build]\nmatch: some\n---\nx",
        )],
    );
    assert_eq!(
        prompt(
            &some,
            "x",
            &Facts {
                model: Some("gpt-5".into()),
                ..none()
            }
        ),
        vec!["some.mdc"]
    );
}

#[test]
fn durable_and_ephemeral() {
    let idx = index(
        Format::Cursor,
        &[
            ("durable.mdc", "---\nalwaysApply: true\nos: [linux]\n---\nx"),
            ("turn.mdc", "---\nmodel: [gpt-5]\n---\nx"),
        ],
    );
    let matches = idx.match_prompt_with(
        "x",
        &Facts {
            model: Some("gpt-5".into()),
            ..none()
        },
    );
    let durable: Vec<(String, bool)> = matches.into_iter().map(|m| (m.name, m.durable)).collect();
    assert_eq!(
        durable,
        vec![("durable.mdc".into(), true), ("turn.mdc".into(), false)]
    );
}

#[test]
fn file_contains_reads_each_edited_file_once_and_selects_that_path() {
    let mut fs = MemoryFs::new();
    fs.add_file(
        "/p/.cursor/rules/sql.mdc",
        "---\nfileContains: [\"(?i)select .* from\", \"\\\\bDROP TABLE\\\\b\"]\n---\n# SQL",
    )
    .add_file(
        "/p/.cursor/rules/both.mdc",
        "---\nglobs: src/**\nfileContains: TODO\nmatch: all\n---\n# Both",
    )
    .add_file(
        "/p/src/query.ts",
        "const q = 'Select id From users';\n// TODO\n",
    )
    .add_file("/p/lib/plain.ts", "export const x = 1;\n")
    .add_file("/p/lib/todo.ts", "// TODO\n");
    let project = Project::load(&fs, "/p").unwrap();
    assert!(project.index.needs_contents());
    let selection = select_edit_with(
        &fs,
        &project,
        &["src/query.ts", "lib/plain.ts", "lib/todo.ts", "gone.ts"],
        &none(),
    );
    assert_eq!(selection.rules, vec!["both.mdc", "sql.mdc"]);
    assert_eq!(selection.matched_paths, vec!["src/query.ts"]);
    // Without contents (no fs), the fileContains condition does not hold.
    assert!(project
        .index
        .match_paths(&["src/query.ts"])
        .rules
        .is_empty());
}

#[test]
fn an_invalid_pattern_is_reported_when_reached() {
    let idx = index(
        Format::Cursor,
        &[
            ("bad.mdc", "---\nfileContains: [\"(unclosed\"]\n---\nx"),
            ("ok.mdc", "---\nglobs: *.ts\n---\nx"),
        ],
    );
    let matches = idx.match_paths_with(&["a.ts"], &none(), Some(&[Some("text".into())]));
    assert_eq!(matches.rules.len(), 1);
    assert!(
        matches.errors[0]
            .message()
            .starts_with("Invalid fileContains pattern: (unclosed ("),
        "{:?}",
        matches.errors
    );
}

#[test]
fn selections_say_what_is_due() {
    let mut fs = MemoryFs::new();
    fs.add_file("/p/.cursor/rules/a.mdc", "---\nalwaysApply: true\n---\nA")
        .add_file("/p/.cursor/rules/b.mdc", "---\nagent: [build]\n---\nB");
    let project = Project::load(&fs, "/p").unwrap();
    let selection = select_prompt_with(
        &project,
        "x",
        &Facts {
            agent: Some("build".into()),
            ..none()
        },
    );
    assert_eq!(selection.ephemeral, vec!["b.mdc"]);
    // Both already delivered: only the ephemeral rule is due again.
    assert_eq!(selection.due(|_| true), vec!["b.mdc"]);
    assert_eq!(selection.due(|_| false), vec!["a.mdc", "b.mdc"]);
    assert!(selection.is_durable("a.mdc") && !selection.is_durable("b.mdc"));
}

#[test]
fn other_hosts_formats_map_onto_one_model() {
    let mut fs = MemoryFs::new();
    fs.add_file(
        "/p/rule-fairy.edn",
        "{:formats [:claude :copilot :windsurf :cline :opencode]}",
    )
    .add_file(
        "/p/.cursor/rules/cursor.mdc",
        "---\nglobs: *.rs\n---\nCursor",
    )
    .add_file(
        "/p/.claude/rules/api.md",
        "---\npaths:\n  - \"src/api/**/*.{ts,tsx}\"\n---\nClaude API",
    )
    .add_file("/p/.claude/rules/style.md", "Always, Claude")
    .add_file(
        "/p/.github/instructions/py.instructions.md",
        "---\napplyTo: \"**/*.py\"\n---\nCopilot",
    )
    .add_file(
        "/p/.github/instructions/README.md",
        "not an instructions file",
    )
    .add_file(
        "/p/.windsurf/rules/always.md",
        "---\ntrigger: always_on\n---\nWindsurf",
    )
    .add_file(
        "/p/.windsurf/rules/go.md",
        "---\ntrigger: glob\nglobs: *.go\n---\nWindsurf go",
    )
    .add_file(
        "/p/.windsurf/rules/ask.md",
        "---\ntrigger: model_decision\ndescription: when asked\n---\nNever automatic",
    )
    .add_file(
        "/p/.clinerules/sql.md",
        "---\npaths: [\"db/**\"]\n---\nCline",
    )
    .add_file(
        "/p/.opencode/rules/deploy.md",
        "---\nkeywords: [deploy]\n---\nopencode",
    )
    .add_file("/p/.opencode/rules/.draft.md", "hidden: skipped");
    let project = Project::load(&fs, "/p").unwrap();
    assert_eq!(
        project.rules.names(),
        vec![
            "always.md",
            "api.md",
            "ask.md",
            "cursor.mdc",
            "deploy.md",
            "go.md",
            "py.instructions.md",
            "sql.md",
            "style.md"
        ]
    );
    let prompt_rules = select_prompt_with(&project, "deploy now", &none()).rules;
    assert_eq!(prompt_rules[..3], ["always.md", "deploy.md", "style.md"]);
    // Windsurf's model_decision rule is offered in the index, last.
    assert!(prompt_rules[3].starts_with("index of requestable rules "));
    assert_eq!(prompt_rules.len(), 4);
    let edit = |path: &str| select_edit_with(&fs, &project, &[path], &none()).rules;
    assert_eq!(edit("src/api/x.tsx"), vec!["api.md"]);
    assert_eq!(edit("tools/a.py"), vec!["py.instructions.md"]);
    assert_eq!(edit("main.go"), vec!["go.md"]);
    assert_eq!(edit("db/001.sql"), vec!["sql.md"]);
    assert_eq!(edit("src/lib.rs"), vec!["cursor.mdc"]);
    // Names stay unique across sources: the same duplicate-name error.
    fs.add_file("/p/.clinerules/api.md", "dup");
    let err = Project::load(&fs, "/p").unwrap_err();
    assert_eq!(
        err.message(),
        "Rule names defined in more than one rules directory: api.md"
    );
}

#[test]
fn a_clinerules_file_is_one_rule() {
    let mut fs = MemoryFs::new();
    fs.add_file("/p/rule-fairy.edn", "{:formats [:cline]}")
        .add_file("/p/.clinerules", "Be brief.");
    let project = Project::load(&fs, "/p").unwrap();
    assert_eq!(project.rules.names(), vec![".clinerules"]);
    assert_eq!(
        select_prompt_with(&project, "x", &none()).rules,
        vec![".clinerules"]
    );
}
