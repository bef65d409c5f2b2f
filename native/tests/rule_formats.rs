//! The rule files people write (behaviour §1.2, §1.3): `.md` and
//! `<name>/RULE.md` in `.cursor/rules`, the legacy root files, Continue's
//! and Roo's folders, Copilot's `applyTo`, Cline's workflows, YAML's
//! multi-line values, annotations that are not imports (§3.1) and a `?`
//! that is one character (§2.2), through `explain` and `check`.

use serde_json::{json, Value};

use crate::util::*;

fn names(explained: &Value) -> Vec<String> {
    explained["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect()
}

fn prompt(p: &Project) -> Vec<String> {
    names(&p.json(&["explain", "--prompt", "hello", "--json"]))
}

fn edit(p: &Project, path: &str) -> Vec<String> {
    names(&p.json(&["explain", "--path", path, "--json"]))
}

#[test]
fn copilot_apply_to_keeps_braces_and_everything_comes_with_prompts() {
    let p = Project::new();
    p.write("rule-fairy.edn", "{:formats [:copilot]}")
        .write(
            ".github/instructions/ts.instructions.md",
            "---\napplyTo: '**/*.{ts,tsx}, docs/**'\n---\n# TS",
        )
        .write(
            ".github/instructions/all.instructions.md",
            "---\napplyTo: \"**\"\n---\n# Everywhere",
        );
    for path in ["src/a.ts", "src/b.tsx", "docs/x.md"] {
        assert_eq!(edit(&p, path), vec!["ts.instructions.md"], "{path}");
    }
    assert_eq!(prompt(&p), vec!["all.instructions.md"]);
    let check = p.run(&["check", "--format", "short"]);
    assert!(check.status.success(), "{}", stdout(&check));
    assert!(stdout(&check).contains("0 errors"), "{}", stdout(&check));
}

#[test]
fn unbalanced_copilot_braces_are_an_error_at_their_line_and_others_still_match() {
    let p = Project::new();
    p.write("rule-fairy.edn", "{:formats [:copilot]}")
        .write(
            ".github/instructions/broken.instructions.md",
            "---\ndescription: x\napplyTo: \"src/{a,b\"\n---\n# Broken",
        )
        .write(
            ".github/instructions/ok.instructions.md",
            "---\napplyTo: \"src/**\"\n---\n# Ok",
        );
    let check = p.run(&["check", "--format", "short"]);
    assert_eq!(check.status.code(), Some(1), "{}", stdout(&check));
    assert!(
        stdout(&check).contains(
            ".github/instructions/broken.instructions.md:3: error: Invalid rule glob: src/{a,b"
        ),
        "{}",
        stdout(&check)
    );
    assert_eq!(edit(&p, "src/a.ts"), vec!["ok.instructions.md"]);
}

#[test]
fn md_files_folder_rules_and_legacy_root_files() {
    let p = Project::new();
    p.rule("guide.md", "---\nalwaysApply: true\n---\n# Guide")
        .rule("release/RULE.md", "---\nglobs: release/**\n---\n# Release")
        .write(".cursor/rules/bad/RULE.md/.keep", "")
        .write(".cursorrules", "Legacy: always on.")
        .write(".windsurfrules", "Windsurf legacy.");
    assert_eq!(prompt(&p), vec![".cursorrules", "guide.md"]);
    assert_eq!(edit(&p, "release/notes.txt"), vec!["release/RULE.md"]);
    let render = stdout(&p.run(&["explain", "--prompt", "hello", "--render"]));
    assert!(render.contains("Legacy: always on."), "{render}");
    let check = stdout(&p.run(&["check", "--format", "short"]));
    assert!(
        check.contains(".cursor/rules/bad/RULE.md: warning: RULE.md is a directory"),
        "{check}"
    );
    p.write("rule-fairy.edn", "{:formats [:windsurf]}");
    assert_eq!(
        prompt(&p),
        vec![".cursorrules", ".windsurfrules", "guide.md"]
    );
}

#[test]
fn a_ten_megabyte_cursorrules_is_an_error_and_the_others_still_come() {
    let p = Project::new();
    p.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base")
        .write(".cursorrules", "x".repeat(10 * 1024 * 1024));
    assert_eq!(prompt(&p), vec!["base.mdc"]);
    let check = p.run(&["check", "--format", "short"]);
    assert_eq!(check.status.code(), Some(1));
    let text = stdout(&check);
    assert!(
        text.lines()
            .any(|l| l.starts_with(".cursorrules: error: Cannot read the rule file: larger than")),
        "{text}"
    );
}

#[test]
fn continue_rules_follow_its_always_apply_globs_and_regex() {
    let p = Project::new();
    p.write("rule-fairy.edn", "{:formats [:continue]}")
        .write(".continue/rules/always.md", "# Always")
        .write(
            ".continue/rules/imports.md",
            "---\nname: Imports\nglobs: \"**/*.ts\"\nregex: \"^import\"\n---\n# Imports",
        )
        .write(
            ".continue/rules/never.md",
            "---\nalwaysApply: false\ndescription: Only when asked\n---\n# Asked",
        )
        .write("src/a.ts", "import x from 'y';\n")
        .write("src/b.ts", "export const b = 1;\n");
    assert_eq!(prompt(&p), vec!["always.md"]);
    assert_eq!(edit(&p, "src/a.ts"), vec!["imports.md"]);
    assert_eq!(edit(&p, "src/b.ts"), Vec::<String>::new());
}

#[test]
fn roo_rules_and_mode_folders() {
    let p = Project::new();
    p.write("rule-fairy.edn", "{:formats [:roo]}")
        .write(".roo/rules/general.md", "# General")
        .write(".roo/rules-code/style.txt", "Code style.")
        .write(".roo/commands/deploy.md", "# A command, not a rule");
    assert_eq!(prompt(&p), vec!["rules/general.md"]);
    let check = stdout(&p.run(&["check", "--format", "short"]));
    assert!(check.contains("Checked 2 rules"), "{check}");
}

#[test]
fn cline_workflows_are_not_always_on() {
    let p = Project::new();
    p.write("rule-fairy.edn", "{:formats [:cline]}")
        .write(".clinerules/style.md", "# Style")
        .write(".clinerules/workflows/release.md", "# Release steps");
    assert_eq!(prompt(&p), vec!["style.md"]);
}

#[test]
fn a_folded_description_draws_no_warning() {
    let p = Project::new();
    p.rule(
        "db.mdc",
        "---\ndescription: >\n  Database rules,\n  for migrations.\nglobs: db/**\n---\n# DB",
    )
    .write("db/001.sql", "create table t (id int);");
    let check = stdout(&p.run(&["check", "--format", "short"]));
    assert!(check.contains("0 errors, 0 warnings"), "{check}");
}

#[test]
fn annotations_are_text_and_the_rule_still_arrives() {
    let p = Project::new();
    p.rule(
        "java.mdc",
        "---\nglobs: **/*\n---\n# Java\n\n@Data\n@Service\npublic class A {}\n",
    )
    .rule("other.mdc", "---\nglobs: src/**\n---\n# Other");
    assert_eq!(
        p.json(&["explain", "--path", "src/A.java", "--json"]),
        json!({"event": "edit", "rules": [
            {"name": "java.mdc", "reasons": [{"kind": "glob", "glob": "**/*", "path": "src/A.java"}]},
            {"name": "other.mdc", "reasons": [{"kind": "glob", "glob": "src/**", "path": "src/A.java"}]}
        ]})
    );
    let render = p.run(&["explain", "--path", "src/A.java", "--render"]);
    assert!(render.status.success(), "{}", stderr(&render));
    assert!(
        stdout(&render).contains("@Data\n@Service"),
        "{}",
        stdout(&render)
    );
    let check = stdout(&p.run(&["check", "--format", "short"]));
    assert!(
        check.contains(".cursor/rules/java.mdc:6: warning: `@Data` looks like code"),
        "{check}"
    );
}

#[test]
fn a_question_mark_is_one_character() {
    let p = Project::new();
    p.rule("q.mdc", "---\nglobs: src/a?.ts\n---\n# Q");
    assert_eq!(edit(&p, "src/aé.ts"), vec!["q.mdc"]);
    assert_eq!(edit(&p, "src/aéé.ts"), Vec::<String>::new());
}
