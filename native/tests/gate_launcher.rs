//! The launcher the Claude Code mod runs the gate check through,
//! `hooks/run gate check FILE --json --project DIR`: it passes the check's
//! own statuses on (0 clean, 1 an error finding, 2 could not check), which
//! the Codex hooks never see, and exits 127 with a line to show when it
//! finds no program.

#![cfg(feature = "gate")]

use std::fs;
use std::process::Output;

use rule_fairy_test_support::NO_EVAL;

use crate::util::*;

/// Runs the launcher as the mod does: no input, a bare environment.
fn check(plugin: &Project, project: &Project, file: &str, binary: Option<&str>) -> Output {
    let mut run = launch(project, &plugin.path("hooks/run"))
        .args(["gate", "check"])
        .arg(project.path(file))
        .args(["--json", "--project"])
        .arg(project.root());
    if let Some(binary) = binary {
        run = run.env("RULE_FAIRY_BIN", binary);
    }
    run.output()
}

#[test]
fn a_missing_program_is_127_with_a_line_saying_how_to_install_it() {
    let plugin = installed("hooks/run");
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("a.ts", "eval(x)\n");
    let out = check(&plugin, &p, "a.ts", None);
    assert_eq!(out.status.code(), Some(127), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let said = stderr(&out);
    assert!(
        said.starts_with("rule-fairy: the rule-fairy program was not found"),
        "{said}"
    );
    assert!(
        said.contains("Install it: npm install -g rule-fairy (or, with a Rust toolchain: cargo install --locked --git"),
        "{said}"
    );
    assert!(
        !said.contains("rule-fairy: rule-fairy:"),
        "one prefix: {said}"
    );
}

#[test]
fn the_check_s_statuses_pass_through() {
    let plugin = installed("hooks/run");
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("bad.ts", "const a = 1;\neval(input);\n")
        .write("good.ts", "const a = 1;\n");
    let found = check(&plugin, &p, "bad.ts", Some(BIN));
    assert_eq!(found.status.code(), Some(1), "{}", stderr(&found));
    let line: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    assert_eq!(line["ruleId"], "no-eval");
    assert_eq!(line["file"], "bad.ts");
    assert_eq!(line["line"], 2);
    assert_eq!(
        line["note"],
        "PR #12 defect 1: eval ran a string from the request body.\nParse it instead."
    );
    let clean = check(&plugin, &p, "good.ts", Some(BIN));
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert!(clean.stdout.is_empty());
    // A rule that does not parse: 2, not turned into 1 as for Codex.
    p.write(
        ".kairoku/rules/broken.yml",
        "id: broken\nlanguage: TypeScript\nrule: [unclosed\n",
    );
    let broken = check(&plugin, &p, "good.ts", Some(BIN));
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        stderr(&broken).starts_with("rule-fairy gate: .kairoku/rules/broken.yml:"),
        "{}",
        stderr(&broken)
    );
}

#[test]
fn a_plugin_that_names_its_version_hears_the_program_s_first() {
    let plugin = installed("hooks/run");
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("bad.ts", "eval(input);\n")
        .write("good.ts", "const a = 1;\n");
    let asked = |file: &str| {
        launch(&p, &plugin.path("hooks/run"))
            .args(["gate", "check"])
            .arg(p.path(file))
            .args(["--json", "--project"])
            .arg(p.root())
            .env("RULE_FAIRY_BIN", BIN)
            .env("RULE_FAIRY_PLUGIN_VERSION", "9.9.9")
            .output()
    };
    // The program says its version and where it runs from.
    let version = serde_json::json!({
        "programPath": fs::canonicalize(BIN).unwrap(),
        "programVersion": env!("CARGO_PKG_VERSION"),
    })
    .to_string();
    let clean = asked("good.ts");
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert_eq!(stdout(&clean), format!("{version}\n"));
    let found = asked("bad.ts");
    assert_eq!(found.status.code(), Some(1));
    let lines: Vec<String> = stdout(&found).lines().map(str::to_string).collect();
    assert_eq!(lines[0], version);
    assert!(lines[1].contains("\"ruleId\":\"no-eval\""), "{lines:?}");
    // Before anything can fail: a rule that does not parse still says it.
    p.write(".kairoku/rules/broken.yml", "id: broken\nrule: [unclosed\n");
    let broken = asked("good.ts");
    assert_eq!(broken.status.code(), Some(2));
    assert_eq!(stdout(&broken), format!("{version}\n"));
    // Without the variable, nothing but the findings.
    fs::remove_file(p.path(".kairoku/rules/broken.yml")).unwrap();
    let plain = check(&plugin, &p, "good.ts", Some(BIN));
    assert!(plain.stdout.is_empty(), "{}", stdout(&plain));
}
