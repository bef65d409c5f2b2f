//! `rule-fairy test`: rule tests passing, a rule Missing for a `fires`
//! event and Noisy for a `silent` one, every bad test file told at its file
//! and line while the others still run, `--new`, `--json`, and `check`'s
//! list of the rules no test names.

use std::fs;

use serde_json::{json, Value};

use crate::util::*;

fn project() -> Project {
    let p = Project::new();
    p.rule(
        "api.mdc",
        "---\nglobs: src/api/**/*.ts\npromptAnyOf: endpoint, route\n---\n# API",
    )
    .rule(
        "sql.mdc",
        "---\nglobs: db/**\nfileContains: DROP TABLE\nmodel: gpt-5\nmatch: all\n---\n# SQL",
    )
    .rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    p
}

const PASSING: &str = "rule: api.mdc\nfires:\n  - prompt: add an endpoint\n  - paths: [src/api/a.ts]\nsilent:\n  - prompt: fix the docs\n  - paths: [src/ui/a.ts]\n---\nrule: sql.mdc\nfires:\n  - paths: [db/1.sql]\n    model: gpt-5\n    files:\n      db/1.sql: DROP TABLE x\nsilent:\n  - paths: [db/1.sql]\n    files:\n      db/1.sql: DROP TABLE x\n";

fn code(out: &std::process::Output) -> i32 {
    out.status.code().unwrap()
}

#[test]
fn passing_tests_exit_0_and_name_each_rule() {
    let p = project();
    p.write(".cursor/rule-tests/all.yml", PASSING);
    let out = p.ok(&["test"]);
    assert_eq!(
        out,
        "ok      api.mdc (4 events, .cursor/rule-tests/all.yml:1)\n\
         ok      sql.mdc (2 events, .cursor/rule-tests/all.yml:9)\n\
         Tested 2 rules in 1 file: 2 passed, 0 failed.\n"
    );
}

#[test]
fn missing_and_noisy_events_fail_with_their_line_and_why() {
    let p = project();
    p.write(
        ".cursor/rule-tests/api.yml",
        "rule: api.mdc\nfires:\n  - paths: [src/api/a.tsx]\nsilent:\n  - prompt: a new route\n",
    );
    let out = p.run(&["test"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("FAILED  api.mdc (2 events, .cursor/rule-tests/api.yml:1)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  Missing: .cursor/rule-tests/api.yml:3: edit src/api/a.tsx did not select it\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("glob `src/api/**/*.ts` ✗ (src/api/a.tsx)"),
        "{text}"
    );
    assert!(
        text.contains("  Noisy: .cursor/rule-tests/api.yml:5: prompt \"a new route\" selected it\n    keyword \"route\"\n"),
        "{text}"
    );
}

#[test]
fn a_shell_change_is_judged_as_the_hooks_judge_it() {
    let p = project();
    p.write(
        ".cursor/rule-tests/api.yml",
        "rule: api.mdc\nfires:\n  - shell: npm run codegen\n    changed: [src/api/gen.ts, README.md]\nsilent:\n  - shell: npm run docs\n    changed: [docs/a.md]\n",
    );
    assert_eq!(
        p.ok(&["test"]),
        "ok      api.mdc (2 events, .cursor/rule-tests/api.yml:1)\n\
         Tested 1 rule in 1 file: 1 passed, 0 failed.\n"
    );
    // The same events the other way round fail, each with its command.
    p.write(
        ".cursor/rule-tests/api.yml",
        "rule: api.mdc\nfires:\n  - shell: npm run docs\n    changed: [docs/a.md]\nsilent:\n  - shell: npm run codegen\n    changed: [src/api/gen.ts]\n",
    );
    let out = p.run(&["test"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("  Missing: .cursor/rule-tests/api.yml:3: shell \"npm run docs\" changed docs/a.md did not select it\n"),
        "{text}"
    );
    assert!(
        text.contains("  Noisy: .cursor/rule-tests/api.yml:6: shell \"npm run codegen\" changed src/api/gen.ts selected it\n"),
        "{text}"
    );
    // A path event's Missing lists no keyword: none could have held.
    assert!(!text.contains("keyword"), "{text}");
    // A shell event with no paths is told at its line, exit 2.
    p.write(
        ".cursor/rule-tests/api.yml",
        "rule: api.mdc\nfires:\n  - shell: npm run docs\n",
    );
    let out = p.run(&["test"]);
    assert_eq!(code(&out), 2);
    assert!(
        stdout(&out).contains(".cursor/rule-tests/api.yml:3: error: a shell event needs the paths the command `changed`"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn json_reports_camel_case_and_each_failure() {
    let p = project();
    p.write(
        ".cursor/rule-tests/api.yml",
        "rule: api.mdc\nfires:\n  - prompt: fix the docs\nsilent:\n  - paths: [src/api/a.ts]\n",
    );
    let out = p.run(&["test", "--json"]);
    assert_eq!(code(&out), 1);
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["files"], json!([".cursor/rule-tests/api.yml"]));
    assert_eq!(value["problems"], json!([]));
    let rule = &value["rules"][0];
    assert_eq!(rule["rule"], "api.mdc");
    assert_eq!(
        rule["test"],
        json!({"file": ".cursor/rule-tests/api.yml", "line": 1})
    );
    assert_eq!(rule["passed"], false);
    assert_eq!(rule["failures"][0]["kind"], "missing");
    assert_eq!(rule["failures"][0]["line"], 3);
    assert_eq!(rule["failures"][1]["kind"], "noisy");
    assert_eq!(
        rule["failures"][1]["why"],
        json!(["glob `src/api/**/*.ts` on src/api/a.ts"])
    );
}

#[test]
fn every_bad_input_is_told_at_its_file_and_line_and_the_others_still_run() {
    let p = project();
    p.write(".cursor/rule-tests/good.yml", PASSING)
        .write(".cursor/rule-tests/not-yaml.yml", "rule: [api.mdc\n")
        .write(
            ".cursor/rule-tests/unknown.yml",
            "\nrule: apii.mdc\nfires:\n  - prompt: x\n",
        )
        .write(
            ".cursor/rule-tests/no-kind.yml",
            "rule: api.mdc\nfires:\n  - prompt: add an endpoint\n  - model: gpt-5\n",
        );
    let mut many = String::from("rule: api.mdc\nfires:\n");
    for _ in 0..10_001 {
        many.push_str("  - prompt: an endpoint\n");
    }
    p.write(".cursor/rule-tests/many.yml", &many);
    let out = p.run(&["test"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        "ok      api.mdc (4 events, .cursor/rule-tests/good.yml:1)",
        ".cursor/rule-tests/many.yml:10003: error: more than 10000 events in one test file",
        ".cursor/rule-tests/no-kind.yml:4: error: an event needs a `prompt`, edited `paths`, a `read` path or a `shell` command with the paths it `changed`",
        ".cursor/rule-tests/not-yaml.yml:1: error: not a rule test:",
        ".cursor/rule-tests/unknown.yml:2: error: no rule is named apii.mdc; did you mean api.mdc?",
        "Tested 2 rules in 5 files: 2 passed, 0 failed, 4 tests could not run.",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

#[test]
fn rules_named_on_the_command_line_run_alone() {
    let p = project();
    p.write(".cursor/rule-tests/all.yml", PASSING);
    let out = p.ok(&["test", "sql.mdc"]);
    assert!(out.starts_with("ok      sql.mdc"), "{out}");
    assert!(!out.contains("api.mdc"), "{out}");
    let unknown = p.run(&["test", "nope.mdc"]);
    assert_eq!(code(&unknown), 2);
    assert!(stderr(&unknown).contains("no rule is named nope.mdc"));
    let untested = p.run(&["test", "base.mdc"]);
    assert_eq!(code(&untested), 2);
    assert!(stdout(&untested).contains("no test names base.mdc"));
}

#[test]
fn new_writes_a_starter_that_passes_and_never_overwrites() {
    let p = project();
    let out = p.ok(&["test", "--new", "api.mdc"]);
    assert!(out.starts_with("Wrote .cursor/rule-tests/api.yml"), "{out}");
    let written = fs::read_to_string(p.path(".cursor/rule-tests/api.yml")).unwrap();
    assert!(
        written.contains("  - paths: [\"src/api/example.ts\"]\n"),
        "{written}"
    );
    assert!(
        written.contains("  - prompt: \"Something about the endpoint\"\n"),
        "{written}"
    );
    assert!(written.contains("silent:\n  - prompt:"), "{written}");
    let run = p.ok(&["test"]);
    assert!(run.starts_with("ok      api.mdc (3 events"), "{run}");
    let again = p.run(&["test", "--new", "api.mdc"]);
    assert_eq!(code(&again), 2);
    assert!(stderr(&again).contains("exists, so it is not overwritten"));
    assert_eq!(
        fs::read_to_string(p.path(".cursor/rule-tests/api.yml")).unwrap(),
        written
    );
}

#[test]
fn new_gives_a_match_all_rule_the_facts_it_tests() {
    let p = project();
    p.ok(&["test", "--new", "sql.mdc"]);
    let written = fs::read_to_string(p.path(".cursor/rule-tests/sql.yml")).unwrap();
    assert!(written.contains("    model: \"gpt-5\"\n"), "{written}");
}

#[test]
fn check_lists_the_rules_no_test_names_as_a_note() {
    let p = project();
    p.write(".cursor/rule-tests/all.yml", PASSING);
    let out = p.run(&["check"]);
    let text = stdout(&out);
    assert!(
        text.contains("note[test/missing]: 1 rule has no test: base.mdc\n"),
        "{text}"
    );
    let json = p.json(&["check", "--json"]);
    assert_eq!(json["untestedRules"], json!(["base.mdc"]));
    p.write(
        ".cursor/rule-tests/base.yml",
        "rule: base.mdc\nfires:\n  - prompt: hi\n",
    );
    assert!(!stdout(&p.run(&["check"])).contains("note["));
    assert_eq!(p.json(&["check", "--json"])["untestedRules"], json!([]));
}

#[test]
fn the_webshop_example_passes_its_tests() {
    let project = repo_root().join("examples/webshop");
    let out = std::process::Command::new(BIN)
        .args(["test", "--project"])
        .arg(&project)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("5 passed, 0 failed"));
}
