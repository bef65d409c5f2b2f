//! Whole processes of the linter-facing commands, start to exit, beside
//! the floor of the same binary doing nothing (`--version`):
//! `rule-fairy test` on 200 rules with a test of 5 events each (3 that
//! must select the rule, 2 that must not), and `rule-fairy check` on 500
//! rules with 1,000 findings printed as SARIF, beside the same findings as
//! JSON, so the SARIF's own cost is the difference. Run with
//! `scripts/bench`; prints medians.

use std::time::{Duration, Instant};

use rule_fairy_test_support::{median_time, stderr, Project};

const BINARY: &str = env!("CARGO_BIN_EXE_rule-fairy");
const RUNS: usize = 31;

/// 200 rules of 2 globs and 3 keywords, each with its test file.
fn tested_project() -> Project {
    let p = Project::new();
    p.dir(".git");
    for i in 0..200 {
        p.rule(
            &format!("r{i}.mdc"),
            format!("---\ndescription: rule {i}\nglobs: src/m{i}/**/*.ts, lib/k{i}/*.rs\npromptAnyOf: topic{i}, area{i}, thing{i}\n---\n# Rule {i}\n\nBody.\n"),
        );
        p.write(
            &format!(".cursor/rule-tests/r{i}.yml"),
            format!("rule: r{i}.mdc\nfires:\n  - prompt: please fix topic{i} now\n  - paths: [src/m{i}/a.ts]\n  - paths: [lib/k{i}/b.rs]\nsilent:\n  - prompt: nothing to see here\n  - paths: [docs/readme.md]\n"),
        );
    }
    p
}

/// 500 rules whose 2 globs match no file: 1,000 warnings.
fn findings_project() -> Project {
    let p = Project::new();
    p.dir(".git");
    for i in 0..500 {
        p.rule(
            &format!("r{i}.mdc"),
            format!(
                "---\ndescription: r{i}\nglobs: nope{i}/**/*.ts, none{i}/*.rs\n---\n# R\n\nBody.\n"
            ),
        );
    }
    p
}

fn time(label: &str, p: &Project, args: &[&str]) -> Duration {
    let run = || {
        let start = Instant::now();
        let out = p.command(BINARY).args(args).output();
        assert!(out.status.success(), "{label}: {}", stderr(&out));
        start.elapsed()
    };
    let median = median_time(3, RUNS, run);
    println!(
        "{label}: median {:.2} ms wall ({RUNS} runs)",
        median.as_secs_f64() * 1e3
    );
    median
}

fn main() {
    let tested = tested_project();
    let floor = time("rule-fairy --version (the floor)", &tested, &["--version"]);
    let test = time(
        "rule-fairy test, 200 rules x 5 events",
        &tested,
        &["test", "--project", &tested.root().display().to_string()],
    );
    println!(
        "  {:.1} times the floor; target under 50 ms",
        test.as_secs_f64() / floor.as_secs_f64()
    );

    let findings = findings_project();
    let root = findings.root().display().to_string();
    let out = findings
        .command(BINARY)
        .args(["check", "--format", "sarif", "--project", &root])
        .output();
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let results = sarif["runs"][0]["results"].as_array().map_or(0, Vec::len);
    assert_eq!(results, 1000, "the project makes 1,000 findings");
    let json = time(
        "rule-fairy check --format json, 1,000 findings",
        &findings,
        &["check", "--format", "json", "--project", &root],
    );
    let sarif = time(
        "rule-fairy check --format sarif, 1,000 findings",
        &findings,
        &["check", "--format", "sarif", "--project", &root],
    );
    println!(
        "  SARIF's own cost: {:.2} ms ({:.2} times the JSON run); target under 20 ms",
        (sarif.as_secs_f64() - json.as_secs_f64()) * 1e3,
        sarif.as_secs_f64() / json.as_secs_f64()
    );
}
