//! The built `rule-fairy` binary on temporary projects.

use std::fs;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::util::*;

fn sample() -> Project {
    let p = Project::new();
    p.write(".git/HEAD", "ref: refs/heads/main\n")
        .rule("base.mdc", "---\nalwaysApply: true\n---\n# Base")
        .rule("ui.mdc", "---\nglobs: apps/**/ui/**/*.clj\n---\n# UI")
        .rule(
            "tasks/testing.mdc",
            "---\nglobs: **/test/**/*.clj\npromptAnyOf: deftest\n---\n# Nested Testing",
        )
        .rule("notes.md", "not a rule")
        .rule("plain.mdc", "# Plain");
    p
}

#[test]
fn explain_a_prompt_as_json() {
    let p = sample();
    assert_eq!(
        p.json(&["explain", "--prompt", "fix the DEFTEST", "--json"]),
        json!({"event": "prompt", "rules": [
            {"name": "base.mdc", "reasons": [{"kind": "alwaysApply"}]},
            {"name": "tasks/testing.mdc", "reasons": [{"kind": "keyword", "keywords": ["deftest"]}]}
        ]})
    );
    assert_eq!(
        p.json(&["explain", "--prompt", "hello", "--json"]),
        json!({"event": "prompt", "rules": [{"name": "base.mdc", "reasons": [{"kind": "alwaysApply"}]}]})
    );
}

#[test]
fn explain_paths_as_json_and_text() {
    let p = sample();
    assert_eq!(
        p.json(&[
            "explain",
            "--path",
            "apps/x/test/x/ui/a_test.clj",
            "README.md",
            "--json"
        ]),
        json!({"event": "edit", "rules": [
            {"name": "tasks/testing.mdc", "reasons": [{"kind": "glob", "glob": "**/test/**/*.clj", "path": "apps/x/test/x/ui/a_test.clj"}]},
            {"name": "ui.mdc", "reasons": [{"kind": "glob", "glob": "apps/**/ui/**/*.clj", "path": "apps/x/test/x/ui/a_test.clj"}]}
        ]})
    );
    let out = p.run(&["explain", "--path", "apps/x/ui/a.clj"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "Editing apps/x/ui/a.clj selects 1 rule:\n  ui.mdc  glob `apps/**/ui/**/*.clj` on apps/x/ui/a.clj\n");
    let none = p.run(&["explain", "--path", "README.md"]);
    assert_eq!(stdout(&none), "Editing README.md selects no rule.\n");
}

#[test]
fn explain_finds_the_project_from_a_subdirectory_and_takes_absolute_paths() {
    let p = sample();
    fs::create_dir_all(p.root().join("apps/x/ui")).unwrap();
    let abs = p.root().join("apps/x/ui/a.clj");
    let out = p.run_in(
        &p.root().join("apps/x"),
        &["explain", "--path", abs.to_str().unwrap(), "--json"],
    );
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["rules"][0]["reasons"][0]["path"], "apps/x/ui/a.clj");
}

#[test]
fn explain_needs_exactly_one_event() {
    let p = sample();
    assert_eq!(p.run(&["explain"]).status.code(), Some(2));
    assert_eq!(
        p.run(&["explain", "--prompt", "x", "--path", "y"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn an_invalid_glob_is_reported_when_reached_and_others_still_fire() {
    let p = sample();
    p.rule("broken.mdc", "---\nglobs: src/[a\n---\n# Broken");
    let out = p.run(&["explain", "--path", "apps/x/ui/a.clj", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["rules"][0]["name"], "ui.mdc");
    assert!(
        stderr(&out).contains(".cursor/rules/broken.mdc:2: Invalid rule glob: src/[a"),
        "{}",
        stderr(&out)
    );
    // Prompts never reach globs.
    assert!(p.run(&["explain", "--prompt", "hello"]).status.success());
}

#[test]
fn globs_too_large_for_the_matcher_are_check_errors_and_never_panic() {
    // A branch glob too large for the regex engine panicked `explain` and
    // `codex prompt` at load (exit 101) while `check` said the project was
    // clean; 300,000 `*a` passed `check` and failed every event.
    let p = sample();
    p.rule(
        "branchy.mdc",
        format!(
            "---\nbranch: feat/{}\nglobs: src/**\n---\n# Branchy",
            "*a".repeat(100_000)
        ),
    )
    .rule(
        "huge.mdc",
        format!("---\nglobs: src/{}\n---\n# Huge", "*a".repeat(300_000)),
    );
    let check = p.run(&["check", "--format", "short"]);
    assert_eq!(check.status.code(), Some(1));
    let report = stdout(&check);
    assert!(report.contains(".cursor/rules/huge.mdc:2: error: Rule glob is 600004 characters long, over the limit of 4096: src/*a*a"), "{}", &report[..report.len().min(2_000)]);
    assert!(report.contains(".cursor/rules/branchy.mdc:2: error: The branch glob is not matched as a glob: Rule glob is 200005 characters long"), "{}", &report[..report.len().min(2_000)]);
    assert!(report.len() < 2_000, "{}", report.len());
    let prompt = p.run(&["explain", "--prompt", "hello"]);
    assert_eq!(prompt.status.code(), Some(0), "{}", stderr(&prompt));
    let path = p.run(&["explain", "--path", "src/a.ts"]);
    assert_eq!(path.status.code(), Some(1));
    assert!(stdout(&path).contains("branchy.mdc"), "{}", stdout(&path));
    let problem = stderr(&path);
    assert!(
        problem.contains(".cursor/rules/huge.mdc:2: Rule glob is 600004 characters long"),
        "{problem}"
    );
    assert!(problem.len() < 1_000, "{}", problem.len());
    let hook = p
        .command(env!("CARGO_BIN_EXE_rule-fairy"))
        .args(["codex", "prompt"])
        .env_remove("RULE_FAIRY_PROJECT_DIR")
        .stdin(
            serde_json::json!({"session_id": "s1", "turn_id": "t1", "transcript_path": null,
                "cwd": "/ignored", "hook_event_name": "UserPromptSubmit", "model": "gpt-5.5",
                "permission_mode": "bypassPermissions", "prompt": "hi"})
            .to_string(),
        )
        .output();
    assert_eq!(hook.status.code(), Some(0), "{}", stderr(&hook));
}

#[test]
fn a_bad_config_fails_with_file_and_line() {
    let p = sample();
    p.write("rule-fairy.edn", "{:rules\n {:dir [\"x\"]}}");
    // explain cannot run on it (2); for check it is a finding (1).
    let out = p.run(&["explain", "--prompt", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "rule-fairy: rule-fairy.edn:2: Unknown :rules keys in rule-fairy.edn: :dir (did you mean :dirs?)\n"
    );
    let check = p.run(&["check", "--format", "short"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(stdout(&check)
        .contains("rule-fairy.edn:2: error: Unknown :rules keys in rule-fairy.edn: :dir"));
}

#[test]
fn check_reports_the_cursor_mistakes_with_fixes() {
    let p = Project::new();
    p.rule("quoted.mdc", "---\nalwaysApply: \"true\"\n---\nBody")
        .rule("unclosed.mdc", "---\nglobs: src/**\n# Body")
        .rule("case.mdc", "---\nalwaysapply: true\n---\nBody")
        .rule("braces.mdc", "---\nglobs: src/{a,b}.ts\n---\nBody")
        .rule("block.mdc", "---\nglobs:\n  - src/**\n---\nBody")
        .rule("unknown.mdc", "---\nglobs: src/**\ncolour: blue\n---\nBody")
        .rule("glob.mdc", "---\nglobs: src/[a\n---\nBody")
        .rule("good.mdc", "---\nglobs: src/**\n---\nBody")
        .write("src/a.ts", "");
    let report = p.json(&["check", "--json"]);
    let findings = report["findings"].as_array().unwrap();
    let find = |file: &str| {
        findings
            .iter()
            .filter(|f| f["file"] == format!(".cursor/rules/{file}"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(find("quoted.mdc")[0]["severity"], "error");
    assert_eq!(find("quoted.mdc")[0]["line"], 2);
    assert_eq!(find("quoted.mdc")[0]["hint"], "write `alwaysApply: true`");
    assert_eq!(find("unclosed.mdc")[0]["line"], 1);
    assert!(find("case.mdc")[0]["message"]
        .as_str()
        .unwrap()
        .contains("case-sensitive"));
    assert_eq!(
        find("braces.mdc")[0]["hint"],
        "write each glob out: `globs: src/a.ts, src/b.ts`"
    );
    assert_eq!(find("block.mdc")[0]["severity"], "warning");
    assert_eq!(find("unknown.mdc")[0]["severity"], "warning");
    assert_eq!(find("glob.mdc")[0]["message"], "Invalid rule glob: src/[a");
    // Each finding carries its stable code.
    assert_eq!(find("glob.mdc")[0]["code"], "rule/invalid-glob");
    assert_eq!(find("braces.mdc")[0]["code"], "rule/split-braces");
    assert_eq!(find("case.mdc")[0]["code"], "rule/key-case");
    assert!(find("good.mdc").is_empty());
    assert_eq!(report["rules"], 8);
    assert_eq!(report["errors"], 5);
    let out = p.run(&["check", "--format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains(".cursor/rules/glob.mdc:2: error: Invalid rule glob: src/[a\n"),
        "{}",
        stdout(&out)
    );
    assert!(
        // The note of the rules no rule test names follows the counts.
        stdout(&out).contains("Checked 8 rules: 5 errors, 2 warnings.\nnote[test/missing]: "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_exits_zero_with_only_warnings() {
    let p = Project::new();
    p.rule("a.mdc", "---\nglobs: src/**\ncustom: kept\n---\nBody")
        .write("src/a.ts", "");
    let out = p.run(&["check", "--format", "short"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 warning"));
}

#[test]
fn check_warns_of_a_glob_no_file_matches() {
    let p = Project::new();
    p.rule("ui.mdc", "---\nglobs: src/ui/**, src/UI/**\n---\nBody")
        .rule("gen.mdc", "---\nglobs: dist/**\n---\nBody")
        .write("src/ui/Button.tsx", "")
        .write(".gitignore", "dist/\n")
        .write("dist/app.js", "");
    let out = p.run(&["check", "--format", "short"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            ".cursor/rules/ui.mdc:2: warning: glob src/UI/** matches no file in the project\n"
        ),
        "{text}"
    );
    assert!(!text.contains("src/ui/** matches"), "{text}");
    // What git ignores is not the project's: a glob only it matches reaches nothing.
    assert!(
        text.contains(".cursor/rules/gen.mdc:2: warning: glob dist/** matches no file"),
        "{text}"
    );
}

#[test]
fn duplicate_names_across_directories() {
    let p = Project::new();
    p.write(
        "rule-fairy.edn",
        "{:rules {:dirs [\".cursor/rules\" \"docs/rules\"]}}",
    )
    .rule("a.mdc", "---\nalwaysApply: true\n---\nA")
    .write("docs/rules/a.mdc", "---\nalwaysApply: true\n---\nA2");
    let out = p.run(&["explain", "--prompt", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Rule names defined in more than one rules directory: a.mdc"));
    assert!(stdout(&p.run(&["check", "--format", "short"])).contains(
        "docs/rules/a.mdc: error: Rule names defined in more than one rules directory: a.mdc"
    ));
}

#[test]
fn hostile_rule_files_give_clear_errors_and_never_panic() {
    let p = Project::new();
    let long_glob = format!("src/{}", "a*".repeat(2_500));
    let mut huge = String::from("---\nalwaysApply: true\n---\n");
    // Under the 4 MiB read bound (behaviour §0.1), and a copy over it.
    while huge.len() < 3 * 1024 * 1024 {
        huge.push_str("A long line of rule text that goes on.\n");
    }
    let too_large = huge.repeat(2);
    p.rule("empty.mdc", "")
        .rule(
            "garbage.mdc",
            (0..=255u8).cycle().take(4096).collect::<Vec<u8>>(),
        )
        .rule(
            "latin1.mdc",
            b"---\nalwaysApply: true\n---\nCaf\xe9".as_slice(),
        )
        .rule("huge.mdc", &huge)
        .rule("toolarge.mdc", &too_large)
        .rule(
            "longglob.mdc",
            format!("---\nglobs: {long_glob}\n---\nBody"),
        );
    std::os::unix::fs::symlink(
        p.root().join(".cursor/rules"),
        p.root().join(".cursor/rules/loop"),
    )
    .unwrap();
    let check = p.run(&["check", "--json"]);
    assert!(check.status.code() == Some(1), "{}", stderr(&check));
    let report: Value = serde_json::from_slice(&check.stdout).unwrap();
    let messages: Vec<String> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{}:{}: {}",
                f["file"].as_str().unwrap(),
                f["line"],
                f["message"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with(".cursor/rules/garbage.mdc:2: not valid UTF-8")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with(".cursor/rules/latin1.mdc:4: not valid UTF-8")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with(".cursor/rules/empty.mdc:1: The rule file is empty")),
        "{messages:#?}"
    );
    assert!(messages.iter().any(|m| m.contains("loop")), "{messages:#?}");
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with(".cursor/rules/toolarge.mdc:") && m.contains("larger than")),
        "{messages:#?}"
    );
    let explain = p.run(&["explain", "--prompt", "anything", "--json"]);
    let value: Value = serde_json::from_slice(&explain.stdout).unwrap();
    assert_eq!(value["rules"][0]["name"], "huge.mdc");
    assert_eq!(
        explain.status.code(),
        Some(1),
        "unreadable rules make the answer incomplete"
    );
    assert!(stderr(&explain).contains("garbage.mdc:2: not valid UTF-8"));
    let path = p.run(&["explain", "--path", &format!("src/{}", "ab".repeat(2_500))]);
    assert!(path.status.code().is_some(), "no crash");
}

#[test]
fn a_rules_directory_that_is_a_file() {
    let p = Project::new();
    p.write(".cursor/rules", "I am a file");
    let out = p.run(&["check", "--format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains(".cursor/rules: error: The rules directory is not a directory"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_missing_project_directory() {
    let p = Project::new();
    let missing: PathBuf = p.root().join("nope");
    let out = p.run(&[
        "check",
        "--format",
        "short",
        "--project",
        missing.to_str().unwrap(),
    ]);
    // Could not run: 2, not 1 ("found errors").
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("The project directory does not exist"));
}

fn documented() -> Project {
    let p = Project::new();
    p.rule(
        "ui.mdc",
        "---\nglobs: src/ui/**\npromptAnyOf: widget\n---\n# UI\n\n@doc/guide.md#ui",
    )
    .rule("base.mdc", "---\nalwaysApply: true\n---\n# Base")
    .write(
        "doc/guide.md",
        "# Guide\n\n## UI\n\nui text\n\n## Other\n\nnot imported\n",
    );
    p
}

#[test]
fn render_prints_the_codex_text() {
    let p = documented();
    let out = p.run(&["explain", "--prompt", "a widget", "--render"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "[rule-fairy injected: base.mdc]\n[rule-fairy injected: ui.mdc]\n[rule-fairy matched: alwaysApply base.mdc]\n[rule-fairy matched: keyword \"widget\"]\n\n\
         # base.mdc\n\n# Base\n\n---\n\n# ui.mdc\n\n# UI\n\nImported: `doc/guide.md#ui` (delivered as a Required context block)\n\n---\n\n\
         # Required documentation\n\n## Required context: `doc/guide.md#ui` (ui.mdc)\n\n## UI\n\nui text\n"
    );
    let edit = stdout(&p.run(&["explain", "--path", "src/ui/a.ts", "--render=codex"]));
    assert!(edit.starts_with("[rule-fairy injected: ui.mdc]\n[rule-fairy matched: glob on src/ui/a.ts]\n\nApply these rules on the next pass over this edit."), "{edit}");
}

#[test]
fn render_claude_prints_frames() {
    let p = documented();
    let out = stdout(&p.run(&["explain", "--path", "src/ui/a.ts", "--render=claude"]));
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("=== frame 1/1 ==="));
    assert!(lines.next().unwrap().starts_with("[rule-fairy shard 1/1 "));
    assert_eq!(lines.next(), Some("[rule-fairy injected: ui.mdc]"));
    assert!(out.contains("## Required context: `doc/guide.md#ui` (ui.mdc)\n\n## UI\n\nui text"));
    assert!(!out.contains("not imported") && !out.contains("# Required documentation"));
}

#[test]
fn render_names_a_broken_import_and_delivers_the_rest() {
    let p = documented();
    p.rule(
        "ui.mdc",
        "---\nglobs: src/ui/**\n---\n# UI\n\n@doc/guide.md#nope",
    );
    p.rule("ui-too.mdc", "---\nglobs: src/ui/**\n---\n# UI too");
    let named =
        "- .cursor/rules/ui.mdc:6: ui.mdc: Rule import heading does not exist: doc/guide.md#nope\n";
    for host in ["--render", "--render=claude"] {
        let out = stdout(&p.run(&["explain", "--path", "src/ui/a.ts", host]));
        assert!(out.contains("[rule-fairy injected: ui-too.mdc]"), "{out}");
        assert!(!out.contains("[rule-fairy injected: ui.mdc]"), "{out}");
        assert!(
            out.contains(&format!(
                "[rule-fairy error: 1 broken rule left out: ui.mdc]\n{named}"
            )),
            "{out}"
        );
    }
    let check = stdout(&p.run(&["check", "--format", "short"]));
    assert!(
        check.contains(
            ".cursor/rules/ui.mdc:6: error: Rule import heading does not exist: doc/guide.md#nope"
        ),
        "{check}"
    );
}

#[test]
fn render_and_json_do_not_mix() {
    let p = documented();
    assert_eq!(
        p.run(&["explain", "--prompt", "x", "--render", "--json"])
            .status
            .code(),
        Some(2)
    );
}

fn conditioned() -> Project {
    let p = Project::new();
    p.write("Cargo.toml", "[package]\n")
        .rule(
            "gpt.mdc",
            "---\nmodel: [gpt-5]\nos: [linux]\nmatch: all\n---\n# GPT",
        )
        .rule("rust.mdc", "---\nproject: [rust]\n---\n# Rust")
        .rule("sql.mdc", "---\nfileContains: [\"DROP TABLE\"]\n---\n# SQL")
        .rule("plan.mdc", "---\ncommand: [/plan]\n---\n# Plan");
    p
}

#[test]
fn explain_takes_facts_from_flags_and_reports_each_condition() {
    let p = conditioned();
    let value = p.json(&[
        "explain",
        "--prompt",
        "/plan a change",
        "--model",
        "gpt-5",
        "--os",
        "linux",
        "--json",
    ]);
    assert_eq!(
        value,
        json!({"event": "prompt", "rules": [
            {"name": "gpt.mdc", "reasons": [], "delivery": "ephemeral", "conditions": [
                {"kind": "os", "held": true, "wanted": ["linux"], "actual": ["linux"]},
                {"kind": "model", "held": true, "wanted": ["gpt-5"], "actual": ["gpt-5"]}
            ]},
            {"name": "plan.mdc", "reasons": [], "conditions": [
                {"kind": "command", "held": true, "wanted": ["/plan"], "actual": ["/plan"]}
            ]},
            {"name": "rust.mdc", "reasons": [], "conditions": [
                {"kind": "project", "held": true, "wanted": ["rust"], "actual": ["rust"]}
            ]}
        ]})
    );
    let other = p.json(&[
        "explain", "--prompt", "hello", "--model", "gpt-5", "--os", "darwin", "--json",
    ]);
    let names: Vec<&str> = other["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["rust.mdc"]);
    let human = stdout(&p.run(&[
        "explain", "--prompt", "x", "--model", "gpt-5", "--os", "linux",
    ]));
    assert!(human.contains("gpt.mdc   os linux ✓ (linux); model gpt-5 ✓ (gpt-5) (ephemeral: delivered every turn it holds)"), "{human}");
}

#[test]
fn explain_reads_file_contents_for_file_contains() {
    let p = conditioned();
    p.write("db/drop.sql", "DROP TABLE orders;\n")
        .write("db/keep.sql", "SELECT 1;\n")
        .write("elsewhere.txt", "DROP TABLE x;\n");
    let value = p.json(&["explain", "--path", "db/drop.sql", "db/keep.sql", "--json"]);
    assert_eq!(
        value["rules"][0]["reasons"],
        json!([{"kind": "fileContains", "pattern": "DROP TABLE", "path": "db/drop.sql"}])
    );
    assert_eq!(value["rules"].as_array().unwrap().len(), 1);
    let given = p.root().join("elsewhere.txt");
    let value = p.json(&[
        "explain",
        "--path",
        "db/keep.sql",
        "--file-content",
        &format!("db/keep.sql={}", given.display()),
        "--json",
    ]);
    assert_eq!(value["rules"][0]["name"], "sql.mdc");
    let missing = p.run(&[
        "explain",
        "--path",
        "a.sql",
        "--file-content",
        "a.sql=nowhere.txt",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("--file-content a.sql=nowhere.txt"));
}

#[test]
fn explain_reads_the_branch_from_git_when_a_rule_asks() {
    let p = Project::new();
    p.git(&["init", "-q", "-b", "feature/x"]);
    p.rule(
        "feature.mdc",
        "---\nbranch: [\"feature/*\"]\n---\n# Feature",
    );
    let value = p.json(&["explain", "--prompt", "anything", "--json"]);
    assert_eq!(
        value["rules"][0]["conditions"][0]["actual"],
        json!(["feature/x"])
    );
    let other = p.json(&[
        "explain", "--prompt", "anything", "--branch", "main", "--json",
    ]);
    assert!(other["rules"].as_array().unwrap().is_empty());
}

#[test]
fn a_relative_path_is_the_working_directory_s_inside_the_project() {
    let p = sample();
    let ui = p.dir("apps/shop/ui");
    let explain = |cwd: &std::path::Path, args: &[&str]| {
        let out = p
            .command(env!("CARGO_BIN_EXE_rule-fairy"))
            .cwd(cwd)
            .env_remove("RULE_FAIRY_PROJECT_DIR")
            .args(["explain", "--json"])
            .args(args)
            .output();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        value["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // From the folder below: the file there, as every command reads it.
    assert_eq!(explain(&ui, &["--path", "cart.clj"]), vec!["ui.mdc"]);
    assert_eq!(explain(&ui, &["--path", "../ui/cart.clj"]), vec!["ui.mdc"]);
    // From outside the project, with --project, the project's own path.
    let outside = p.beside("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let project = p.root().display().to_string();
    assert_eq!(
        explain(
            &outside,
            &["--project", &project, "--path", "apps/shop/ui/cart.clj"]
        ),
        vec!["ui.mdc"]
    );
}

#[test]
fn asked_for_json_an_error_is_json_too_and_exits_2() {
    let p = Project::new();
    let missing = p
        .beside("elsewhere")
        .join("no-such-project")
        .display()
        .to_string();
    for args in [
        vec!["explain", "--prompt", "x", "--json", "--project", &missing],
        vec!["check", "--format", "json", "--project", &missing],
        vec!["test", "--json", "--project", &missing],
    ] {
        let out = p.run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let value: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&out)));
        assert_eq!(value["error"]["exitCode"], 2, "{args:?}");
        assert!(
            value["error"]["message"]
                .as_str()
                .unwrap()
                .contains("The project directory does not exist"),
            "{args:?}: {value}"
        );
        // The person reading standard error is told as before.
        assert!(stderr(&out).starts_with("rule-fairy: "), "{args:?}");
    }
}
