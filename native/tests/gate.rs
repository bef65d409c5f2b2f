//! `rule-fairy gate` and the gate's part of `rule-fairy check`, as whole
//! processes on temporary projects.

#![cfg(feature = "gate")]

use std::fs;
use std::path::Path;
use std::process::Output;

use rule_fairy_test_support::{code, NO_EVAL};
use serde_json::Value;

use crate::util::*;

const NO_EVAL_TEST: &str = "id: no-eval
valid:
  - JSON.parse(body)
invalid:
  - eval(body)
";

/// `rule-fairy <args>` from `cwd`, told the project's directory as a host
/// tells it.
fn run_in(p: &Project, cwd: &Path, args: &[&str]) -> Output {
    p.rule_fairy()
        .cwd(cwd)
        .env("RULE_FAIRY_PROJECT_DIR", p.root())
        .args(args)
        .output()
}

/// `rule-fairy <args>` from the project's directory, told it as a host
/// tells it.
fn run(p: &Project, args: &[&str]) -> Output {
    run_in(p, p.root(), args)
}

fn violating() -> Project {
    let p = Project::new();
    p.write(".kairoku/rules/security/no-eval.yml", NO_EVAL)
        .write(".kairoku/rule-tests/no-eval-test.yml", NO_EVAL_TEST)
        .write("src/api.ts", "const a = 1;\nexport const b = eval(body);\n")
        .write("src/ok.ts", "export const c = 2;\n");
    p
}

#[test]
fn scan_prints_rule_file_line_message_and_note_and_exits_1() {
    let p = violating();
    let out = run(&p, &["gate", "scan", "--format", "short"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "error[no-eval] src/api.ts:2: Do not call eval on body.\n  PR #12 defect 1: eval ran a string from the request body.\n  Parse it instead.\n"
    );
    assert_eq!(
        stderr(&out),
        "1 error, 0 other findings in 2 files checked against 1 rule.\n"
    );
}

#[test]
fn scan_json_prints_one_object_per_finding() {
    let p = violating();
    p.write("src/more.ts", "eval(a);\neval(b);\n");
    let out = run(&p, &["gate", "scan", "--json"]);
    assert_eq!(code(&out), 1);
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["ruleId"], "no-eval");
    assert_eq!(lines[0]["file"], "src/api.ts");
    assert_eq!(lines[0]["line"], 2);
    assert_eq!(lines[0]["severity"], "error");
    assert_eq!(lines[0]["message"], "Do not call eval on body.");
    assert!(lines[0]["note"]
        .as_str()
        .unwrap()
        .starts_with("PR #12 defect 1"));
    assert_eq!(lines[2]["line"], 2);
    assert!(stderr(&out).is_empty());
}

#[test]
fn a_clean_scan_exits_0_and_paths_are_the_shell_s() {
    let p = violating();
    let out = run_in(
        &p,
        &p.root().join("src"),
        &["gate", "scan", "--format", "short", "ok.ts"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).starts_with("0 errors, 0 other findings in 1 file"));
}

#[test]
fn a_missing_path_exits_2_with_a_message() {
    let p = violating();
    let out = run(&p, &["gate", "scan", "src/nope.ts", "--json"]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).starts_with("rule-fairy gate: path does not exist: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_rule_that_cannot_be_read_exits_2_naming_file_and_line() {
    for (rule, expected) in [
        ("id: a\nlanguage: ts\nrule: [\n", ".kairoku/rules/bad.yml:"),
        (
            "id: a\nlanguage: Klingon\nrule:\n  pattern: x\n",
            ".kairoku/rules/bad.yml:2: unknown language `Klingon`",
        ),
        (
            "id: a\nlanguage: ruby\nrule:\n  pattern: puts $X\n",
            ".kairoku/rules/bad.yml:2: language `ruby` (Ruby) is not compiled into this build",
        ),
    ] {
        let p = violating();
        p.write(".kairoku/rules/bad.yml", rule)
            .write("a.rb", "puts 1\n");
        for args in [
            &["gate", "scan", "--format", "short"][..],
            &["gate", "check", "--format", "short", "src/api.ts"],
            &["gate", "test"],
        ] {
            let out = run(&p, args);
            assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
            let message = stderr(&out);
            assert!(
                message.starts_with(&format!("rule-fairy gate: {expected}")),
                "{args:?}: {message}"
            );
            assert!(!message.contains("panicked"), "{message}");
        }
    }
}

#[test]
fn check_reports_only_the_written_files() {
    let p = violating();
    p.write("src/other.ts", "eval(x)\n");
    let out = run(&p, &["gate", "check", "src/ok.ts", "src/api.ts", "--json"]);
    assert_eq!(code(&out), 1);
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["file"], "src/api.ts");
    let clean = run(&p, &["gate", "check", "--format", "short", "src/ok.ts"]);
    assert_eq!((code(&clean), stdout(&clean)), (0, String::new()));
    // A file the write deleted has nothing to report.
    let gone = run(
        &p,
        &["gate", "check", "--format", "short", "src/deleted.ts"],
    );
    assert_eq!(code(&gone), 0, "{}", stderr(&gone));
    let absolute = p.root().join("src/api.ts");
    let human = run(
        &p,
        &[
            "gate",
            "check",
            "--format",
            "short",
            absolute.to_str().unwrap(),
        ],
    );
    assert!(stdout(&human).starts_with("error[no-eval] src/api.ts:2: "));
}

#[test]
fn test_runs_the_rule_tests() {
    let p = violating();
    let out = run(&p, &["gate", "test"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(stdout(&out), "1 rule: 2 of 2 cases passed.\n");
    p.write(
        ".kairoku/rules/security/no-eval.yml",
        NO_EVAL.replace("eval($ARG)", "evaluate($ARG)"),
    );
    let out = run(&p, &["gate", "test"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "FAIL no-eval (Missing): invalid case 1 at .kairoku/rule-tests/no-eval-test.yml:1 did not match, but must:\n    eval(body)\n1 rule: 1 of 2 cases passed.\n"
    );
    // The same run as JSON, camelCase keys.
    let out = run(&p, &["gate", "test", "--json"]);
    assert_eq!(code(&out), 1);
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(run["passed"], false);
    assert_eq!(run["cases"], 2);
    assert_eq!(
        run["failures"][0],
        serde_json::json!({"ruleId": "no-eval", "file": ".kairoku/rule-tests/no-eval-test.yml",
            "line": 1, "kind": "missing", "case": "invalid", "index": 1, "code": "eval(body)"})
    );
}

#[test]
fn rules_from_a_ref_hold_even_when_the_change_deletes_them() {
    let p = violating();
    p.init_git().commit_all("rules");
    p.git(&["checkout", "-q", "-b", "change"]);
    fs::remove_dir_all(p.root().join(".kairoku")).unwrap();
    let weakened = run(&p, &["gate", "scan", "--format", "short"]);
    assert_eq!(code(&weakened), 0);
    let held = run(
        &p,
        &["gate", "scan", "--format", "short", "--rules-from", "main"],
    );
    assert_eq!(code(&held), 1, "{}", stderr(&held));
    assert!(stdout(&held).starts_with("error[no-eval] src/api.ts:2:"));
    let tests = run(&p, &["gate", "test", "--rules-from", "main"]);
    assert_eq!(code(&tests), 0, "{}", stdout(&tests));
    let unknown = run(
        &p,
        &[
            "gate",
            "scan",
            "--format",
            "short",
            "--rules-from",
            "origin/nope",
        ],
    );
    assert_eq!(code(&unknown), 2);
    assert!(stderr(&unknown).contains("git ref `origin/nope`"));
}

#[test]
fn check_lists_gate_rules_with_languages_and_coverage() {
    let p = violating();
    p.write(
        ".kairoku/rules/py.yml",
        "id: no-pickle\nlanguage: python\nseverity: warning\nrule:\n  pattern: pickle.loads($X)\n",
    );
    let out = run(&p, &["check", "--format", "short"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Gate: 2 ast-grep rules, 1 with tests:\n"),
        "{text}"
    );
    assert!(
        text.contains("  no-eval    TypeScript  error    1 valid, 1 invalid  (.kairoku/rules/security/no-eval.yml:1)\n"),
        "{text}"
    );
    assert!(
        text.contains("  no-pickle  Python      warning  no tests  (.kairoku/rules/py.yml:1)\n"),
        "{text}"
    );
    let json: Value = serde_json::from_slice(&run(&p, &["check", "--json"]).stdout).unwrap();
    // Rules come in the order of their files.
    assert_eq!(json["gate"]["rules"][0]["id"], "no-pickle");
    assert_eq!(json["gate"]["rules"][0]["language"], "Python");
    assert_eq!(json["gate"]["rules"][1]["id"], "no-eval");
    assert_eq!(json["gate"]["rules"][1]["invalidCases"], 1);
}

#[test]
fn check_fails_on_a_broken_gate_and_says_nothing_without_one() {
    let p = violating();
    p.write(
        ".kairoku/rules/bad.yml",
        "id: x\nlanguage: cobol\nrule:\n  pattern: x\n",
    );
    let out = run(&p, &["check", "--format", "short"]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("gate: error: .kairoku/rules/bad.yml:2: unknown language `cobol`")
    );
    let json: Value = serde_json::from_slice(&run(&p, &["check", "--json"]).stdout).unwrap();
    assert!(json["gate"]["error"].as_str().unwrap().contains("cobol"));
    let plain = Project::new();
    let out = run(&plain, &["check", "--json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json.get("gate").is_none());
}

#[test]
fn the_worked_example_catches_its_defect_and_its_test_passes() {
    let example = repo_root().join("examples/webshop");
    let example = example.to_str().unwrap();
    let here = Project::new();
    let scan = run(
        &here,
        &["gate", "scan", "--format", "short", "--project", example],
    );
    assert_eq!(code(&scan), 1, "{}", stderr(&scan));
    let text = stdout(&scan);
    assert!(
        text.starts_with("error[no-raw-error-response] src/api/payments.ts:8: Do not send the caught error `error` to the client"),
        "{text}"
    );
    assert!(text.contains("  webshop PR #41 defect 2: "), "{text}");
    let test = run(&here, &["gate", "test", "--project", example]);
    assert_eq!(code(&test), 0, "{}", stdout(&test));
    assert_eq!(stdout(&test), "1 rule: 3 of 3 cases passed.\n");
}

#[test]
fn check_names_a_bad_gate_key_once() {
    let p = violating();
    p.write("rule-fairy.edn", "{:gate {:dirs []}}\n");
    let out = run(&p, &["check", "--format", "short"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_eq!(
        text.matches(":gate :dirs in rule-fairy.edn must be")
            .count(),
        1,
        "{text}"
    );
    assert!(
        text.starts_with("rule-fairy.edn:1: error: :gate :dirs"),
        "{text}"
    );
    let scan = run(&p, &["gate", "scan", "--format", "short"]);
    assert_eq!(code(&scan), 2);
    assert!(stderr(&scan).starts_with("rule-fairy gate: rule-fairy.edn:1: :gate :dirs"));
}
