//! The per-write check loads only the rules that can judge the written
//! files (behaviour §8.4): every rule that can is still checked, and a
//! broken rule that can is reported exactly as the whole load reports it.

#[allow(unused_imports)]
mod support;

use rule_fairy_gate::{check_files, Gate, GateError};
use support::*;

fn rule(id: &str, head: &str, body: &str) -> String {
    format!("id: {id}\n{head}\nseverity: error\nmessage: {id}.\nrule:\n  {body}\n")
}

/// Rules of every kind a check must not lose: a plain one, one reached by
/// a language alias, one with `files:`, one with `ignores:`, one for
/// `.tsx` through `languageGlobs`, and some that cannot judge TypeScript.
fn project() -> Project {
    let p = Project::new();
    p.write(
        "sgconfig.yml",
        "ruleDirs:\n  - rules\nlanguageGlobs:\n  typescript: [\"*.tsx\"]\n",
    )
    .write(
        "rules/ts.yml",
        [
            rule("plain", "language: TypeScript", "pattern: eval($X)"),
            rule("alias", "language: ts", "pattern: alert($X)"),
            rule(
                "api-only",
                "language: TypeScript\nfiles: [\"src/api/**\"]",
                "pattern: console.log($$$)",
            ),
            rule(
                "not-in-api",
                "language: TypeScript\nignores: [\"src/api/**\"]",
                "kind: debugger_statement",
            ),
        ]
        .join("---\n"),
    )
    .write(
        "rules/other.yml",
        [
            rule("py", "language: Python", "pattern: eval($X)"),
            rule("tsx-grammar", "language: Tsx", "pattern: eval($X)"),
            rule("js", "language: JavaScript", "pattern: eval($X)"),
        ]
        .join("---\n"),
    );
    let code = "eval(1);\nalert(2);\nconsole.log(3);\ndebugger;\n";
    for file in ["src/api/a.ts", "src/ui/b.ts", "src/ui/c.tsx", "src/d.py"] {
        p.write(file, code);
    }
    p
}

fn ids(rules: &[rule_fairy_gate::Rule]) -> Vec<&str> {
    rules.iter().map(rule_fairy_gate::Rule::id).collect()
}

fn found(report: &rule_fairy_gate::ScanReport) -> Vec<(String, String, usize)> {
    report
        .findings
        .iter()
        .map(|f| (f.rule_id.clone(), f.file.clone(), f.line))
        .collect()
}

#[test]
fn every_rule_that_can_judge_the_file_is_checked_and_only_those_are_loaded() {
    let p = project();
    let whole = Gate::load(p.root()).unwrap();
    for (file, loaded) in [
        ("src/api/a.ts", vec!["plain", "alias", "api-only"]),
        ("src/ui/b.ts", vec!["plain", "alias", "not-in-api"]),
        // `languageGlobs` makes a .tsx file TypeScript, not Tsx.
        ("src/ui/c.tsx", vec!["plain", "alias", "not-in-api"]),
        ("src/d.py", vec!["py"]),
    ] {
        let files = paths(&[file]);
        let gate = Gate::load_for(p.root(), None, &files).unwrap();
        assert_eq!(ids(gate.rules()), loaded, "{file}");
        // What the check finds is what the scan of record finds there.
        let checked = gate.check_files(&files).unwrap();
        let scanned = whole.scan(&files).unwrap();
        assert_eq!(found(&checked), found(&scanned), "{file}");
        assert_eq!(checked.findings.len(), loaded.len(), "{file}");
        assert_eq!(
            found(&check_files(p.root(), &files).unwrap()),
            found(&scanned)
        );
    }
    // Two files of two languages: the rules of both.
    let both = paths(&["src/api/a.ts", "src/d.py"]);
    let gate = Gate::load_for(p.root(), None, &both).unwrap();
    assert_eq!(ids(gate.rules()), ["py", "plain", "alias", "api-only"]);
    assert_eq!(
        found(&gate.check_files(&both).unwrap()),
        found(&whole.scan(&both).unwrap())
    );
}

fn load_error(p: &Project) -> GateError {
    match Gate::load(p.root()) {
        Ok(_) => panic!("the whole gate loaded"),
        Err(e) => e,
    }
}

fn check_error(p: &Project, file: &str) -> GateError {
    match check_files(p.root(), &paths(&[file])) {
        Ok(report) => panic!("the check of {file} ran: {:?}", report.findings),
        Err(e) => e,
    }
}

#[test]
fn a_broken_rule_that_can_apply_is_reported_as_the_whole_load_reports_it() {
    for (why, broken) in [
        (
            "a misspelt key",
            "id: bad\nlanguage: ts\nrulee:\n  pattern: eval($X)\n",
        ),
        ("bad YAML", "id: bad\nlanguage: TypeScript\nrule: [\n"),
        (
            "a pattern that does not compile",
            "id: bad\nlanguage: TypeScript\nrule:\n  pattern: \"\"\n",
        ),
        (
            "a broken rule whose `files` take the file",
            "id: bad\nlanguage: TypeScript\nfiles: [\"src/**\"]\nrulee: 1\n",
        ),
        // What cannot be read cleanly could be anything: it is reported.
        (
            "YAML broken before the language",
            "id: bad\nrule: [\nlanguage: python\n",
        ),
        (
            "an unknown language",
            "id: bad\nlanguage: Klingon\nrule:\n  pattern: a\n",
        ),
        (
            "a language left out",
            "id: bad\nlanguage: ruby\nrule:\n  pattern: a\n",
        ),
        (
            "`files` that do not compile",
            "id: bad\nlanguage: python\nfiles: [\"a[\"]\nrulee: 1\n",
        ),
    ] {
        let p = project();
        p.write("rules/broken.yml", broken);
        let whole = load_error(&p);
        let checked = check_error(&p, "src/ui/b.ts");
        assert_eq!(checked.to_string(), whole.to_string(), "{why}");
        assert_eq!(checked.file(), Some("rules/broken.yml"), "{why}");
    }
}

#[test]
fn a_broken_rule_that_cannot_apply_is_left_to_the_scan_of_record() {
    for (why, broken) in [
        (
            "another language",
            "id: bad\nlanguage: Python\nrulee:\n  pattern: eval($X)\n",
        ),
        (
            "`files` that leave the file out",
            "id: bad\nlanguage: TypeScript\nfiles: [\"src/api/**\"]\nrulee: 1\n",
        ),
        (
            "`ignores` that take the file",
            "id: bad\nlanguage: TypeScript\nignores: [\"src/ui/**\"]\nrule:\n  pattern: \"\"\n",
        ),
    ] {
        let p = project();
        p.write("rules/broken.yml", broken);
        // The scan of record and `rule-fairy check` fail on it...
        assert_eq!(load_error(&p).file(), Some("rules/broken.yml"), "{why}");
        // ...the check of a file it could never judge runs every rule that can.
        let report = check_files(p.root(), &paths(&["src/ui/b.ts"]))
            .unwrap_or_else(|e| panic!("{why}: {e}"));
        let rules: Vec<&str> = report.findings.iter().map(|f| f.rule_id.as_str()).collect();
        assert_eq!(rules, ["plain", "alias", "not-in-api"], "{why}");
    }
    // The same rule is reported to a check of a file it can judge.
    let p = project();
    p.write(
        "rules/broken.yml",
        "id: bad\nlanguage: TypeScript\nfiles: [\"src/api/**\"]\nrulee: 1\n",
    );
    assert_eq!(
        check_error(&p, "src/api/a.ts").to_string(),
        load_error(&p).to_string()
    );
}

#[test]
fn a_gate_loaded_for_some_files_judges_nothing_else() {
    let p = project();
    let gate = Gate::load_for(p.root(), None, &paths(&["src/api/a.ts"])).unwrap();
    let other = gate.check_files(&paths(&["src/d.py"])).unwrap_err();
    assert!(other.to_string().contains("src/d.py"), "{other}");
    assert!(gate.scan(&[]).is_err());
    assert!(gate.test().is_err());
    assert!(gate.coverage().is_err());
}

#[test]
fn a_rule_file_with_no_rule_is_still_an_error() {
    let p = project();
    p.write("rules/empty.yml", "# nothing yet\n");
    assert_eq!(
        check_error(&p, "src/ui/b.ts").to_string(),
        load_error(&p).to_string()
    );
}
