//! `rule-fairy explain --why-not RULE`: one rule's conditions judged
//! against a prompt or edited paths, in text and JSON, and the names no
//! rule answers to.

use std::fs;

use serde_json::{json, Value};

use crate::util::*;

fn project() -> Project {
    let p = Project::new();
    p.write(".git/HEAD", "ref: refs/heads/main\n")
        .rule(
            "ui.mdc",
            "---\nglobs: src/ui/**\npromptAnyOf: button, widget\npromptRequires: ui\n---\n# UI",
        )
        .rule(
            "sql.mdc",
            "---\nglobs: db/**\nfileContains: DROP TABLE\nos: linux\nmatch: all\n---\n# SQL",
        )
        .rule("ops/release.mdc", "# Release steps")
        .rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    p
}

#[test]
fn a_prompt_names_the_terms_found_and_missing() {
    let p = project();
    let out = p.ok(&["explain", "--prompt", "add a Button", "--why-not", "ui.mdc"]);
    assert_eq!(
        out,
        "ui.mdc for this prompt: does not fire\n\
         \x20 rule .cursor/rules/ui.mdc: conditional: its conditions decide (behaviour §2.4)\n\
         \x20 match any (the default): one condition below that holds is enough\n\
         \x20 keyword any of \"button\", \"widget\"; all of \"ui\" ✗ (found \"button\"; missing \"widget\", \"ui\")\n\
         \x20 glob `src/ui/**` ✗ (no path at a prompt)\n\
         \x20 verdict: does not fire: its conditions do not combine to true\n\
         \x20 delivery: durable: once it fires it is delivered once per session; Claude Code then holds it back while the conversation holds it or for a minute after the delivery (behaviour §5.2.2), Codex until a compaction (§5.3)\n\
         \x20 to fire: the conditions marked ✗ must hold; or a prompt mentioning @ui selects it whatever its conditions (behaviour §9.3)\n"
    );
    let fires = p.ok(&["explain", "--prompt", "a UI widget", "--why-not", "ui.mdc"]);
    assert!(
        fires.starts_with("ui.mdc for this prompt: fires\n"),
        "{fires}"
    );
    assert!(fires.contains("  verdict: fires\n"), "{fires}");
}

#[test]
fn paths_show_each_glob_and_the_content_tested() {
    let p = project();
    p.write("db/a.sql", "DROP TABLE orders;\n")
        .write("db/b.sql", "SELECT 1;\n");
    let out = p.ok(&[
        "explain",
        "--path",
        "./db/b.sql",
        "db/a.sql",
        "--os",
        "darwin",
        "--why-not",
        "sql.mdc",
    ]);
    for line in [
        "sql.mdc for editing these 2 paths: does not fire",
        "  match all: every condition below must hold",
        "  glob `db/**` ✓ (db/b.sql)",
        "  fileContains `DROP TABLE` ✗ (not found in db/b.sql)",
        "  fileContains `DROP TABLE` ✓ (found in db/a.sql)",
        "  os linux ✗ (darwin)",
        "  paths as globs see them, project-relative: db/b.sql, db/a.sql (behaviour §2.1, §5.6)",
        "  on db/b.sql: does not fire: its conditions do not combine to true",
        "  on db/a.sql: does not fire: its conditions do not combine to true",
        "  verdict: does not fire: its conditions do not combine to true",
    ] {
        assert!(out.lines().any(|l| l == line), "{line}\n{out}");
    }
    let linux = p.ok(&[
        "explain",
        "--path",
        "db/a.sql",
        "--os",
        "linux",
        "--why-not",
        "sql.mdc",
    ]);
    assert!(linux.contains("  verdict: fires\n"), "{linux}");
}

#[test]
fn json_gives_the_answer_in_camel_case() {
    let p = project();
    let value = p.json(&[
        "explain",
        "--path",
        "src/api/a.ts",
        "--why-not",
        "ui.mdc",
        "--json",
    ]);
    assert_eq!(
        value,
        json!({
            "name": "ui.mdc",
            "file": ".cursor/rules/ui.mdc",
            "event": "edit",
            "kind": "conditional",
            "mention": "@ui",
            "matchAll": false,
            "checks": [
                {"check": "keywords", "anyOf": [{"term": "button", "found": false}, {"term": "widget", "found": false}],
                 "requires": [{"term": "ui", "found": false}], "held": false, "atPrompt": false},
                {"check": "glob", "glob": "src/ui/**", "path": "src/api/a.ts", "outcome": "missed", "held": false}
            ],
            "paths": [{"path": "src/api/a.ts", "outside": false, "reached": false, "fires": false}],
            "conditionsHold": false,
            "fires": false,
            "delivery": {"ephemeral": false}
        })
    );
}

#[test]
fn a_manual_rule_says_a_mention_brings_it() {
    let p = project();
    let out = p.ok(&["explain", "--prompt", "ship it", "--why-not", "release"]);
    assert!(
        out.starts_with("ops/release.mdc for this prompt: does not fire\n"),
        "{out}"
    );
    assert!(out.contains("manual: it declares no trigger, so only a prompt mentioning it (@release) selects it (behaviour §9.3)"), "{out}");
    let mentioned = p.json(&[
        "explain",
        "--prompt",
        "ship it, @release",
        "--why-not",
        "ops/release.mdc",
        "--json",
    ]);
    assert_eq!(mentioned["fires"], true);
    assert_eq!(mentioned["mentioned"], json!(["@release"]));
    let always = p.ok(&["explain", "--path", "a.ts", "--why-not", "base.mdc"]);
    assert!(
        always
            .contains("  alwaysApply ✗ (tested at prompts, not at path events: behaviour §2.3)\n"),
        "{always}"
    );
}

#[test]
fn an_unknown_rule_is_a_usage_error_with_the_nearest_names() {
    let p = project();
    let out = p.run(&["explain", "--prompt", "x", "--why-not", "iu.mdc"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "rule-fairy: no rule is named iu.mdc; did you mean ui.mdc?\n"
    );
    assert!(stdout(&out).is_empty());
    let json = p.run(&["explain", "--prompt", "x", "--why-not", "relase", "--json"]);
    assert_eq!(json.status.code(), Some(2));
    let value: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        value,
        json!({"problem": "unknown", "name": "relase", "nearest": ["ops/release.mdc"]})
    );
    assert_eq!(
        p.run(&["explain", "--prompt", "x", "--why-not", "a", "--render"])
            .status
            .code(),
        Some(2),
        "--why-not and --render do not mix"
    );
}

#[test]
fn a_broken_rule_is_named_with_its_file_and_line() {
    let p = project();
    let broken = p.root().join(".cursor/rules/broken.mdc");
    fs::write(&broken, b"---\nglobs: a\n---\n\xff").unwrap();
    let out = p.run(&["explain", "--prompt", "x", "--why-not", "broken.mdc"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "rule-fairy: broken.mdc is broken, so it never fires: .cursor/rules/broken.mdc:4: not valid UTF-8 text (invalid byte at offset 17, line 4) (fix it, then ask again)\n"
    );
}
