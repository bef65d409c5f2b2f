//! What the gate cannot judge is never judged clean (behaviour §8): a rule
//! directory or rule file that holds no rule, a file over the size bound,
//! a file whose parse holds a syntax error; and the files a project lets
//! go unchecked.

mod support;

use std::time::{Duration, Instant};

use rule_fairy_gate::{check_files, Gate, Unchecked, UncheckedReason, MAX_SOURCE_BYTES};
use support::*;

fn load(p: &Project) -> Gate {
    Gate::load(p.root()).unwrap_or_else(|e| panic!("{e}"))
}

fn load_error(p: &Project) -> String {
    match Gate::load(p.root()) {
        Ok(_) => panic!("the gate loaded"),
        Err(e) => e.to_string(),
    }
}

/// TypeScript of `bytes` bytes: a violation, then blank space, cheap to
/// parse.
fn padded(bytes: usize) -> String {
    let mut text = "eval(input);\n".to_string();
    text.push_str(&" ".repeat(bytes - text.len() - 1));
    text.push('\n');
    text
}

#[test]
fn a_rule_directory_without_rules_fails_closed_naming_it() {
    let p = Project::new();
    p.write("rules/README.md", "Rules go here.\n")
        .write("sgconfig.yml", "ruleDirs: [rules]\n")
        .write("a.ts", "eval(1)\n");
    assert_eq!(
        load_error(&p),
        "sgconfig.yml:1: `ruleDirs` names `rules`, which holds no rule files (.yml or .yaml); nothing would be checked"
    );
    p.write("sgconfig.yml", "ruleDirs: []\n");
    assert_eq!(
        load_error(&p),
        "sgconfig.yml:1: `ruleDirs` is empty; nothing would be checked"
    );
    let p = Project::new();
    p.write(".kairoku/rules/README.md", "none yet\n");
    assert_eq!(
        load_error(&p),
        ".kairoku/rules: the rule directory holds no rule files (.yml or .yaml); nothing would be checked"
    );
    let p = Project::new();
    p.write("lint/keep", "")
        .write("rule-fairy.edn", "{:gate {:dirs [\"lint\"]}}\n");
    assert_eq!(
        load_error(&p),
        "rule-fairy.edn: :gate :dirs names `lint`, which holds no rule files (.yml or .yaml); nothing would be checked"
    );
}

#[test]
fn an_empty_rule_file_fails_closed_naming_it() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write(".kairoku/rules/emptied.yml", "");
    assert_eq!(
        load_error(&p),
        ".kairoku/rules/emptied.yml: the rule file holds no rule; give it one or delete it"
    );
    p.write(
        ".kairoku/rules/emptied.yml",
        "# the rule was here\n---\n---\n",
    );
    assert!(load_error(&p).starts_with(".kairoku/rules/emptied.yml: the rule file holds no rule"));
}

#[test]
fn a_file_over_the_bound_is_reported_not_parsed() {
    let p = Project::new();
    let big = padded(MAX_SOURCE_BYTES as usize + 1);
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("big.ts", &big)
        .write("small.ts", "eval(1)\n");
    let report = load(&p).scan(&[]).unwrap();
    assert_eq!(report.files_scanned, 2);
    // The small file's finding; none from the big one, which was not read.
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].file, "small.ts");
    assert_eq!(
        report.unchecked,
        vec![Unchecked {
            file: "big.ts".into(),
            reason: UncheckedReason::TooLarge(big.len() as u64),
            allowed: false,
        }]
    );
    assert!(!report.complete());
    assert_eq!(
        report.unchecked[0].to_string(),
        format!(
            "could not check fully: big.ts: too large to parse: {} bytes, over the gate's bound of 4194304 bytes",
            big.len()
        )
    );
    // A file at the bound is parsed.
    p.write("big.ts", padded(MAX_SOURCE_BYTES as usize));
    let report = load(&p).scan(&[]).unwrap();
    assert!(report.complete(), "{:?}", report.unchecked);
    assert_eq!(report.findings.len(), 2);
}

#[test]
fn a_long_minified_line_with_many_findings_is_linear() {
    // One line of 1 MiB holding 116,508 findings: ast-grep's own column
    // count reads the line from its start for each, 10^11 steps.
    let p = Project::new();
    let line = "eval(a);;".repeat(1024 * 1024 / 9);
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("min.ts", &line);
    let started = Instant::now();
    let report = load(&p).scan(&[]).unwrap();
    // Generous: a few seconds in a test build; before, many minutes.
    assert!(started.elapsed() < Duration::from_secs(120));
    assert!(report.complete());
    let last = report.findings.last().unwrap();
    assert_eq!(report.findings.len(), line.len() / 9);
    assert_eq!((last.line, last.column), (1, line.len() - 9 + 1));
    assert_eq!((last.end_line, last.end_column), (1, line.len() - 2 + 1));
}

#[test]
fn columns_count_characters_on_lines_with_several_findings() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL).write(
        "a.ts",
        "const é = 1; eval(a); eval(\"ü\"); eval(b);\neval(c);\n",
    );
    let found: Vec<(usize, usize, usize, usize)> = load(&p)
        .scan(&[])
        .unwrap()
        .findings
        .iter()
        .map(|f| (f.line, f.column, f.end_line, f.end_column))
        .collect();
    assert_eq!(
        found,
        vec![(1, 14, 1, 21), (1, 23, 1, 32), (1, 34, 1, 41), (2, 1, 2, 8)]
    );
}

/// A violation after an import with no closing brace: tree-sitter's error
/// recovery swallows the rest, and ast-grep finds nothing.
const HIDDEN: &str = "const a = 1;\nimport { a from \"./b\";\neval(input);\n";

#[test]
fn a_syntax_error_is_reported_with_its_line_and_the_findings_kept() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("hidden.ts", HIDDEN)
        .write(
            "partial.ts",
            "eval(first);\nfunction f( {\n  return 1;\n}\n",
        );
    let report = load(&p).scan(&[]).unwrap();
    assert_eq!(
        report.unchecked,
        vec![
            Unchecked {
                file: "hidden.ts".into(),
                reason: UncheckedReason::SyntaxError(2),
                allowed: false,
            },
            Unchecked {
                file: "partial.ts".into(),
                reason: UncheckedReason::SyntaxError(2),
                allowed: false,
            },
        ]
    );
    assert_eq!(
        report.unchecked[0].to_string(),
        "could not check fully: hidden.ts: syntax error at line 2"
    );
    // What the partial parse found is still reported.
    let found: Vec<(&str, usize)> = report
        .findings
        .iter()
        .map(|f| (f.file.as_str(), f.line))
        .collect();
    assert_eq!(found, vec![("partial.ts", 1)]);
    assert!(!report.complete());
    // The check at the write says the same.
    let checked = check_files(p.root(), &paths(&["hidden.ts"])).unwrap();
    assert!(checked.findings.is_empty());
    assert_eq!(checked.unchecked, report.unchecked[..1]);
    // A clean parse has nothing to report.
    p.write("hidden.ts", "const s = `closed`;\neval(input);\n")
        .write("partial.ts", "eval(first);\n");
    let report = load(&p).scan(&[]).unwrap();
    assert!(report.complete(), "{:?}", report.unchecked);
    assert_eq!(report.findings.len(), 2);
}

#[test]
fn a_missing_node_is_a_syntax_error_too() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("a.ts", "const a = 1;\nconst b = (2;\n");
    let report = load(&p).scan(&[]).unwrap();
    assert_eq!(
        report.unchecked[0].reason,
        UncheckedReason::SyntaxError(2),
        "{:?}",
        report.unchecked
    );
}

#[test]
fn a_file_that_is_not_utf8_is_reported_and_the_others_scanned() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("b.ts", "eval(2)\n");
    std::fs::write(p.root().join("a.ts"), b"eval(1)\n\xff\n").unwrap();
    let report = load(&p).scan(&[]).unwrap();
    assert_eq!(
        report.unchecked[0].to_string(),
        "could not check fully: a.ts: not UTF-8 at line 2"
    );
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].file, "b.ts");
}

#[cfg(unix)]
#[test]
fn a_fifo_named_for_a_scan_is_refused_without_waiting() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL);
    let made = std::process::Command::new("mkfifo")
        .arg(p.root().join("pipe.ts"))
        .status()
        .unwrap();
    assert!(made.success());
    let report = load(&p).scan(&paths(&["pipe.ts"])).unwrap();
    assert_eq!(report.unchecked[0].reason, UncheckedReason::NotRegularFile);
}

#[test]
fn unchecked_globs_let_listed_files_go_unchecked() {
    let p = Project::new();
    p.write("lint/no-eval.yml", NO_EVAL)
        .write(
            "rule-fairy.edn",
            "{:gate {:dirs [\"lint\"] :unchecked [\"vendor/**\" \"src/gen/*.ts\"]}}\n",
        )
        .write("vendor/lib.ts", padded(MAX_SOURCE_BYTES as usize + 1))
        .write("src/gen/api.ts", "eval(x);\nconst s = `open;\n")
        .write("src/app.ts", HIDDEN);
    let report = load(&p).scan(&[]).unwrap();
    let told: Vec<(&str, bool)> = report
        .unchecked
        .iter()
        .map(|u| (u.file.as_str(), u.allowed))
        .collect();
    assert_eq!(
        told,
        vec![
            ("src/app.ts", false),
            ("src/gen/api.ts", true),
            ("vendor/lib.ts", true)
        ]
    );
    assert!(!report.complete());
    // An allowed file's findings still count.
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].file, "src/gen/api.ts");
    p.write("src/app.ts", "const ok = 1;\n");
    assert!(load(&p).scan(&[]).unwrap().complete());
    // A glob that does not parse names the file and the glob.
    p.write(
        "rule-fairy.edn",
        "{:gate {:dirs [\"lint\"] :unchecked [\"a/{b\"]}}\n",
    );
    assert!(
        load_error(&p).starts_with("rule-fairy.edn: :gate :unchecked: `a/{b`: "),
        "{}",
        load_error(&p)
    );
}
