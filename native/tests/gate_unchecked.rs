//! What the gate cannot judge, through the commands (behaviour §8): a file
//! over the size bound and a file whose parse holds a syntax error make
//! `gate scan` and `gate check` exit 2 naming them; the check at the write
//! hands them to the agent with the findings, every time; `:gate
//! :unchecked` lets listed files go; a rule directory without rules fails
//! closed.

#![cfg(feature = "gate")]

use std::process::Output;

use rule_fairy_engine::gate_check::{read_gate_run, GateRun};
use rule_fairy_test_support::{code, NO_EVAL};
use serde_json::Value;

use crate::util::codex::*;
use crate::util::*;

/// `rule-fairy <args>` from the project's directory, told it as a host
/// tells it.
fn run(p: &Project, args: &[&str]) -> Output {
    p.rule_fairy()
        .env("RULE_FAIRY_PROJECT_DIR", p.root())
        .args(args)
        .output()
}

/// An import with no closing brace: tree-sitter's error recovery swallows
/// the violation on line 3, and ast-grep finds nothing.
const HIDDEN: &str = "const a = 1;\nimport { a from \"./b\";\neval(input);\n";

fn gated() -> Project {
    let p = project();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("src/ok.ts", "eval(ok);\n");
    p
}

#[test]
fn a_52_mb_file_and_a_10_mb_line_are_named_not_parsed_and_the_scan_exits_2() {
    let p = gated();
    let line = "export const a = eval(input);\n";
    p.write("src/huge.ts", line.repeat(52_000_000 / line.len()))
        .write("dist/min.js.ts", "eval(a);".repeat(10_000_000 / 8));
    let out = run(&p, &["gate", "scan", "--format", "short"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    // The other file's finding is still printed.
    assert!(
        stdout(&out).starts_with("error[no-eval] src/ok.ts:1: "),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        stderr(&out),
        "rule-fairy gate: could not check fully: dist/min.js.ts: too large to parse: 10000000 bytes, over the gate's bound of 4194304 bytes\n\
         rule-fairy gate: could not check fully: src/huge.ts: too large to parse: 51999990 bytes, over the gate's bound of 4194304 bytes\n\
         1 error, 0 other findings in 3 files checked against 1 rule; 2 files not checked fully.\n"
    );
}

#[test]
fn a_syntax_error_that_hides_a_violation_exits_2_naming_file_and_line() {
    let p = gated();
    p.write("src/hidden.ts", HIDDEN);
    let out = run(&p, &["gate", "scan", "--format", "short", "src/hidden.ts"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "rule-fairy gate: could not check fully: src/hidden.ts: syntax error at line 2\n\
         0 errors, 0 other findings in 1 file checked against 1 rule; 1 file not checked fully.\n"
    );
    // The findings before the error are still reported, in JSON too.
    p.write("src/hidden.ts", format!("eval(before);\n{HIDDEN}"));
    let out = run(&p, &["gate", "scan", "--json", "src/hidden.ts"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let found: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (found["file"].as_str(), found["line"].as_u64()),
        (Some("src/hidden.ts"), Some(1))
    );
    assert_eq!(
        stderr(&out),
        "rule-fairy gate: could not check fully: src/hidden.ts: syntax error at line 3\n"
    );
}

#[test]
fn the_check_at_the_write_tells_the_agent_with_the_findings() {
    let p = gated();
    p.write("src/hidden.ts", format!("eval(before);\n{HIDDEN}"));
    // As the Claude Code mod runs it, through the launcher, and reads it.
    let plugin = installed("hooks/run");
    let out = launch(&p, &plugin.path("hooks/run"))
        .env("RULE_FAIRY_BIN", BIN)
        .args(["gate", "check"])
        .arg(p.path("src/hidden.ts"))
        .args(["--json", "--project"])
        .arg(p.root())
        .output();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let findings: Vec<String> = stdout(&out)
        .lines()
        .map(|l| {
            let f: Value = serde_json::from_str(l).unwrap();
            rule_fairy_engine::labels::gate_finding(
                f["severity"].as_str().unwrap(),
                f["ruleId"].as_str().unwrap(),
                f["file"].as_str().unwrap(),
                f["line"].as_u64().unwrap() as usize,
                f["message"].as_str().unwrap(),
                f["note"].as_str(),
            )
        })
        .collect();
    assert_eq!(findings.len(), 1);
    let GateRun::Found(entry) = read_gate_run(code_of(&out), &findings, &stderr(&out)) else {
        panic!("{}", stderr(&out))
    };
    assert!(
        entry.starts_with("[rule-fairy gate: 1 finding in the files just written]\nerror[no-eval] src/hidden.ts:1: "),
        "{entry}"
    );
    assert!(
        entry.contains("\n\n[rule-fairy gate: could not check fully: src/hidden.ts: syntax error at line 3]\nThe gate could not judge these files whole"),
        "{entry}"
    );
    // As the Codex hooks run it, in process: told with each write.
    for _ in 0..2 {
        let context = codex_accepts(
            POST_TOOL,
            &p.hook(
                "post-tool",
                &patch_input("s1", &add_file_patch("src/hidden.ts"), None),
            ),
        )
        .expect("the agent is told");
        assert!(
            context.contains("error[no-eval] src/hidden.ts:1: "),
            "{context}"
        );
        assert!(
            context.contains(
                "[rule-fairy gate: could not check fully: src/hidden.ts: syntax error at line 3]"
            ),
            "{context}"
        );
    }
    // A file over the bound: the check exits at once, naming it.
    p.write("src/big.ts", " ".repeat(5 * 1024 * 1024));
    let out = run(&p, &["gate", "check", "--json", "src/big.ts"]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).starts_with(
            "rule-fairy gate: could not check fully: src/big.ts: too large to parse: 5242880 bytes"
        ),
        "{}",
        stderr(&out)
    );
}

fn code_of(out: &Output) -> Option<i32> {
    out.status.code()
}

#[test]
fn files_listed_in_gate_unchecked_do_not_fail_the_scan() {
    let p = gated();
    p.write("rule-fairy.edn", "{:gate {:unchecked [\"vendor/**\"]}}\n")
        .write("vendor/lib.ts", HIDDEN)
        .write("vendor/big.ts", " ".repeat(5 * 1024 * 1024))
        .write("src/ok.ts", "const ok = 1;\n");
    let out = run(&p, &["gate", "scan", "--format", "short"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "rule-fairy gate: could not check fully: vendor/big.ts: too large to parse: 5242880 bytes, over the gate's bound of 4194304 bytes (allowed by :gate :unchecked)\n\
         rule-fairy gate: could not check fully: vendor/lib.ts: syntax error at line 2 (allowed by :gate :unchecked)\n\
         0 errors, 0 other findings in 3 files checked against 1 rule; 2 files not checked fully, as :gate :unchecked allows.\n"
    );
    // The check at the write says nothing of them.
    let out = run(&p, &["gate", "check", "--json", "vendor/lib.ts"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!((stdout(&out), stderr(&out)), (String::new(), String::new()));
    // Other paths still fail.
    p.write("src/app.ts", HIDDEN);
    assert_eq!(code(&run(&p, &["gate", "scan", "--format", "short"])), 2);
    // A bad value is `check`'s to report, with its line.
    p.write("rule-fairy.edn", "{:gate\n {:unchecked []}}\n");
    let out = run(&p, &["gate", "scan", "--format", "short"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("rule-fairy gate: rule-fairy.edn:2: :gate :unchecked in rule-fairy.edn must be a non-empty vector of globs"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_rule_directory_or_file_without_rules_fails_closed_naming_it() {
    let p = project();
    p.write("sgconfig.yml", "ruleDirs: [rules]\n")
        .write("rules/.keep", "")
        .write("a.ts", "eval(1);\n");
    let out = run(&p, &["gate", "scan", "--format", "short"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "rule-fairy gate: sgconfig.yml:1: `ruleDirs` names `rules`, which holds no rule files (.yml or .yaml); nothing would be checked\n\
         rule-fairy gate: nothing was judged clean; fix this and run again\n"
    );
    p.write("rules/no-eval.yml", "");
    let out = run(&p, &["gate", "scan", "--format", "short"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("rule-fairy gate: rules/no-eval.yml: the rule file holds no rule"),
        "{}",
        stderr(&out)
    );
    // `rule-fairy check` fails on it too.
    let out = run(&p, &["check", "--format", "short"]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("gate: error: rules/no-eval.yml: the rule file holds no rule"),
        "{}",
        stdout(&out)
    );
    p.write("rules/no-eval.yml", NO_EVAL);
    assert_eq!(code(&run(&p, &["gate", "scan", "--format", "short"])), 1);
}
