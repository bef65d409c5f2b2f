//! Scanning and checking temporary projects: kairoku's behaviours and the
//! holes found in it (peers 2.7, 2.8), each reproduced.

mod support;

use rule_fairy_gate::{check_files, Gate, Severity};
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

#[test]
fn a_finding_names_rule_file_line_message_and_note() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL).write(
        "src/api.ts",
        "const a = 1;\n\nexport const b = eval(body);\n",
    );
    let report = load(&p).scan(&[]).unwrap();
    assert_eq!(report.files_scanned, 1);
    let [finding] = report.findings.as_slice() else {
        panic!("{:?}", report.findings)
    };
    assert_eq!(finding.rule_id, "no-eval");
    assert_eq!(finding.file, "src/api.ts");
    assert_eq!((finding.line, finding.column), (3, 18));
    // `eval(body)`: the end is the column just past its `)`.
    assert_eq!((finding.end_line, finding.end_column), (3, 28));
    assert_eq!(finding.message, "Do not call eval on body.");
    assert_eq!(
        finding.note.as_deref(),
        Some("PR #12 defect 1: eval ran a string from the request body.\nParse it instead.")
    );
    assert_eq!(finding.severity, Severity::Error);
    assert!(report.has_errors());
    assert_eq!(
        finding.human(),
        "error[no-eval] src/api.ts:3: Do not call eval on body.\n  PR #12 defect 1: eval ran a string from the request body.\n  Parse it instead.\n"
    );
}

#[test]
fn a_clean_tree_and_a_warning_do_not_fail() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/rules.yml",
        format!("{NO_EVAL}---\n{NO_CONSOLE_WARNING}"),
    )
    .write("src/a.ts", "console.log('hi');\n");
    let report = load(&p).scan(&[]).unwrap();
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].severity, Severity::Warning);
    assert!(!report.has_errors());
    p.write("src/a.ts", "log('hi');\n");
    assert!(load(&p).scan(&[]).unwrap().findings.is_empty());
}

#[test]
fn several_rules_per_file_keep_their_lines() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/all.yml",
        format!("# two rules\n{NO_EVAL}---\n{NO_CONSOLE_WARNING}"),
    );
    let gate = load(&p);
    let lines: Vec<(&str, usize)> = gate.rules().iter().map(|r| (r.id(), r.line)).collect();
    assert_eq!(lines, vec![("no-eval", 2), ("no-console", 12)]);
}

#[test]
fn a_rule_in_a_subdirectory_is_read() {
    // kairoku lists it with ls-tree -r, then fetches it by its basename
    // from the top directory, and the whole run fails.
    let p = Project::new();
    p.write(".kairoku/rules/security/deep/no-eval.yml", NO_EVAL)
        .write("a.ts", "eval(x)\n");
    let gate = load(&p);
    assert_eq!(
        gate.rules()[0].file,
        ".kairoku/rules/security/deep/no-eval.yml"
    );
    assert_eq!(gate.scan(&[]).unwrap().findings.len(), 1);
}

#[test]
fn a_missing_path_is_an_error_not_a_clean_scan() {
    // ast-grep prints [] and exits 0 for a path that does not exist.
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL);
    let err = load(&p).scan(&paths(&["src/nope.ts"])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "path does not exist: src/nope.ts (nothing was scanned)"
    );
    // The same without any rule: the answer does not depend on rules.
    let empty = Project::new();
    assert!(load(&empty).scan(&paths(&["nope"])).is_err());
}

#[test]
fn tsx_is_seen_by_a_typescript_rule_only_through_language_globs() {
    let p = Project::new();
    p.write("rules/no-eval.yml", NO_EVAL)
        .write("sgconfig.yml", "ruleDirs:\n  - rules\n")
        .write(
            "src/load.tsx",
            "export function load(s: string) { return eval(s); }\n",
        )
        .write("src/a.ts", "eval(y)\n");
    let without = load(&p).scan(&[]).unwrap();
    assert_eq!(
        without
            .findings
            .iter()
            .map(|f| f.file.as_str())
            .collect::<Vec<_>>(),
        vec!["src/a.ts"]
    );
    p.write(
        "sgconfig.yml",
        "ruleDirs:\n  - rules\nlanguageGlobs:\n  typescript: ['*.tsx']\n",
    );
    let with = load(&p).scan(&[]).unwrap();
    assert_eq!(
        with.findings
            .iter()
            .map(|f| f.file.as_str())
            .collect::<Vec<_>>(),
        vec!["src/a.ts", "src/load.tsx"]
    );
}

#[test]
fn invalid_yaml_names_the_file_and_line() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/bad.yml",
        format!("{NO_CONSOLE_WARNING}---\nid: broken\nlanguage: ts\nrule: [unclosed\n"),
    );
    let message = load_error(&p);
    assert!(message.starts_with(".kairoku/rules/bad.yml:"), "{message}");
    let line: usize = message.split(':').nth(1).unwrap().parse().unwrap();
    assert!((9..=11).contains(&line), "{message}");
    assert!(message.contains("invalid rule"), "{message}");
}

#[test]
fn an_unknown_key_is_named_with_its_line() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/bad.yml",
        "id: a\nlanguage: ts\nmesage: typo\nrule:\n  pattern: f()\n",
    );
    assert!(
        load_error(&p).starts_with(".kairoku/rules/bad.yml:3: invalid rule: unknown key `mesage`")
    );
}

#[test]
fn an_unknown_language_is_an_error() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/bad.yml",
        "id: a\nlanguage: Klingon\nrule:\n  pattern: f()\n",
    );
    assert!(load_error(&p).starts_with(".kairoku/rules/bad.yml:2: unknown language `Klingon`"));
}

#[test]
fn a_compiled_out_language_is_refused_with_a_message_not_a_panic() {
    // With ast-grep's grammar left out, parsing this rule's pattern panics
    // inside ast-grep ("tree-sitter parser is not implemented when feature
    // flag is off").
    let p = Project::new();
    p.write(
        ".kairoku/rules/ruby.yml",
        "id: no-puts\nlanguage: ruby\nrule:\n  pattern: puts $X\n",
    )
    .write("a.rb", "puts 1\n");
    let message = load_error(&p);
    assert!(
        message.starts_with(
            ".kairoku/rules/ruby.yml:2: language `ruby` (Ruby) is not compiled into this build"
        ),
        "{message}"
    );
}

#[test]
fn a_rule_without_id_or_language_is_refused() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/a.yml",
        "language: ts\nrule:\n  pattern: f()\n",
    );
    assert_eq!(
        load_error(&p),
        ".kairoku/rules/a.yml:1: the rule has no `id`"
    );
    p.write(".kairoku/rules/a.yml", "id: a\nrule:\n  pattern: f()\n");
    assert_eq!(
        load_error(&p),
        ".kairoku/rules/a.yml:1: the rule has no `language`"
    );
}

#[test]
fn a_duplicate_id_names_both_places() {
    let p = Project::new();
    p.write(".kairoku/rules/a.yml", NO_EVAL)
        .write(".kairoku/rules/b.yml", NO_EVAL);
    assert_eq!(
        load_error(&p),
        ".kairoku/rules/b.yml:1: rule id `no-eval` is already used at .kairoku/rules/a.yml:1; each rule needs its own id"
    );
}

#[test]
fn a_bad_files_glob_is_named() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/a.yml",
        "id: a\nlanguage: ts\nfiles: ['src/[oops']\nrule:\n  pattern: f()\n",
    );
    assert!(load_error(&p).starts_with(".kairoku/rules/a.yml:1: rule `a`: `files`:"));
}

#[test]
fn files_and_ignores_limit_a_rule() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/a.yml",
        "id: api-eval\nlanguage: ts\nseverity: error\nfiles: ['src/api/**']\nignores: ['**/*.test.ts']\nrule:\n  pattern: eval($X)\n",
    )
    .write("src/api/a.ts", "eval(1)\n")
    .write("src/api/a.test.ts", "eval(1)\n")
    .write("src/ui/b.ts", "eval(1)\n");
    let files: Vec<String> = load(&p)
        .scan(&[])
        .unwrap()
        .findings
        .into_iter()
        .map(|f| f.file)
        .collect();
    assert_eq!(files, vec!["src/api/a.ts"]);
}

#[test]
fn the_walk_honours_gitignore_but_an_explicit_path_is_scanned() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write(".gitignore", "dist/\n")
        .write("dist/out.ts", "eval(1)\n")
        .write("src/a.ts", "eval(1)\n");
    let gate = load(&p);
    let all = gate.scan(&[]).unwrap();
    assert_eq!(all.findings.len(), 1);
    assert_eq!(all.findings[0].file, "src/a.ts");
    let explicit = gate.scan(&paths(&["dist/out.ts"])).unwrap();
    assert_eq!(explicit.findings[0].file, "dist/out.ts");
    let dir = gate.scan(&paths(&["src"])).unwrap();
    assert_eq!(dir.findings.len(), 1);
}

#[test]
fn an_ast_grep_ignore_comment_suppresses_a_finding() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("a.ts", "// ast-grep-ignore: no-eval\neval(1)\neval(2)\n");
    let findings = load(&p).scan(&[]).unwrap().findings;
    assert_eq!(findings.iter().map(|f| f.line).collect::<Vec<_>>(), vec![3]);
}

#[test]
fn sgconfig_problems_fail_closed() {
    let p = Project::new();
    p.write("sgconfig.yml", "ruleDirs: [missing]\n");
    assert_eq!(
        load_error(&p),
        "sgconfig.yml:1: `ruleDirs` names `missing`, which is not a directory"
    );
    p.write("sgconfig.yml", "testConfigs: []\n");
    assert!(load_error(&p).contains("ast-grep needs `ruleDirs`"));
    p.write("rules/x.yml", NO_EVAL)
        .write("sgconfig.yml", "ruleDirs: [rules]\nutilDirs: [utils]\n");
    assert!(load_error(&p).contains("`utilDirs` is not supported by the gate"));
    p.write("sgconfig.yml", "ruleDirs: [rules]\nrulesDir: [x]\n");
    assert!(load_error(&p).contains("unknown field `rulesDir`"));
    p.write(
        "sgconfig.yml",
        "ruleDirs: [rules]\nlanguageGlobs:\n  klingon: ['*.k']\n",
    );
    assert!(load_error(&p).contains("`languageGlobs`: unknown language `klingon`"));
}

#[test]
fn rule_fairy_edn_adds_gate_directories() {
    let p = Project::new();
    p.write("lint/ast/no-eval.yml", NO_EVAL)
        .write("rule-fairy.edn", "{:gate {:dirs [\"lint/ast\"]}}\n")
        .write("a.ts", "eval(1)\n");
    assert_eq!(load(&p).scan(&[]).unwrap().findings.len(), 1);
    p.write("rule-fairy.edn", "{:gate\n {:dirs []}}\n");
    assert!(load_error(&p)
        .starts_with("rule-fairy.edn:2: :gate :dirs in rule-fairy.edn must be a non-empty vector"));
    p.write("rule-fairy.edn", "{:gate {:dirs [\"nowhere\"]}}\n");
    assert_eq!(
        load_error(&p),
        "rule-fairy.edn: :gate :dirs names `nowhere`, which is not a directory"
    );
}

#[test]
fn no_rules_means_nothing_runs() {
    let p = Project::new();
    p.write("a.ts", "eval(1)\n");
    let gate = load(&p);
    assert!(gate.rules().is_empty());
    assert!(gate.scan(&[]).unwrap().findings.is_empty());
    assert!(check_files(p.root(), &paths(&["a.ts"]))
        .unwrap()
        .findings
        .is_empty());
}

#[test]
fn check_files_reads_only_the_written_files_of_the_project() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL)
        .write("src/a.ts", "eval(1)\n")
        .write("src/b.ts", "eval(2)\n")
        .write("notes.md", "eval(3)\n");
    // A relative path is the project's (kairoku: src/a.ts → <worktree>/src/a.ts).
    let findings = check_files(p.root(), &paths(&["src/a.ts"]))
        .unwrap()
        .findings;
    assert_eq!(findings.len(), 1);
    assert_eq!(
        (findings[0].file.as_str(), findings[0].line),
        ("src/a.ts", 1)
    );
    let absolute = p.root().join("src/b.ts");
    let findings = check_files(p.root(), &[absolute]).unwrap().findings;
    assert_eq!(findings[0].file, "src/b.ts");
    // Deleted, outside the project, or of no rule's language: nothing to say.
    let outside = Project::new();
    outside.write("x.ts", "eval(1)\n");
    let quiet = check_files(
        p.root(),
        &[
            "gone.ts".into(),
            "notes.md".into(),
            outside.root().join("x.ts"),
            "/etc/hosts".into(),
        ],
    )
    .unwrap();
    assert!(quiet.findings.is_empty(), "{:?}", quiet.findings);
    assert!(quiet.unchecked.is_empty(), "{:?}", quiet.unchecked);
}

#[test]
fn check_files_reports_a_broken_rule_as_an_error() {
    let p = Project::new();
    p.write(".kairoku/rules/bad.yml", "id: a\nlanguage: ts\nrule: [\n")
        .write("a.ts", "eval(1)\n");
    let err = check_files(p.root(), &paths(&["a.ts"])).unwrap_err();
    assert_eq!(err.file(), Some(".kairoku/rules/bad.yml"));
}

#[test]
fn a_source_file_that_is_not_utf8_fails_the_scan() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL);
    std::fs::write(p.root().join("a.ts"), b"eval(1)\n\xff\n").unwrap();
    let report = load(&p).scan(&[]).unwrap();
    assert!(!report.complete());
    assert_eq!(
        report.unchecked[0].to_string(),
        "could not check fully: a.ts: not UTF-8 at line 2"
    );
}

#[test]
fn every_language_of_the_default_build_scans() {
    let cases = [
        ("javascript", "eval($X)", "a.js", "eval(1)\n"),
        ("python", "eval($X)", "a.py", "eval(1)\n"),
        (
            "rust",
            "unsafe { $$$ }",
            "a.rs",
            "fn f() { unsafe { g() } }\n",
        ),
        (
            "go",
            "panic($X)",
            "a.go",
            "package a\nfunc f() { panic(1) }\n",
        ),
        (
            "java",
            "System.exit($X)",
            "A.java",
            "class A { void f() { System.exit(1); } }\n",
        ),
        ("yaml", "privileged: true", "a.yaml", "privileged: true\n"),
        ("bash", "rm -rf $X", "a.sh", "rm -rf build\n"),
        ("tsx", "eval($X)", "a.tsx", "const a = <b>{eval(1)}</b>;\n"),
    ];
    for (lang, pattern, file, source) in cases {
        let p = Project::new();
        p.write(
            ".kairoku/rules/r.yml",
            format!("id: r\nlanguage: {lang}\nseverity: error\nrule:\n  pattern: '{pattern}'\n"),
        )
        .write(file, source);
        let findings = load(&p).scan(&[]).unwrap().findings;
        assert_eq!(findings.len(), 1, "{lang}: {findings:?}");
    }
}

#[test]
fn a_large_tree_is_scanned_in_order() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL);
    for i in 0..60 {
        p.write(&format!("src/m{i:02}.ts"), "eval(1)\nok()\neval(2)\n");
    }
    let report = load(&p).scan(&[]).unwrap();
    assert_eq!(report.files_scanned, 60);
    let names: Vec<(String, usize)> = report
        .findings
        .iter()
        .map(|f| (f.file.clone(), f.line))
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert_eq!(names.len(), 120);
}

#[test]
fn the_scan_without_suppressions_finds_what_ast_grep_s_combined_scan_finds() {
    // A file that mentions ast-grep-ignore goes through ast-grep's own
    // combined scan; any other file through the gate's single walk.
    let source = "eval(a)\nfunction f() { for (;;) { eval(b); console.log(c) } }\nconst x = eval(eval(d));\n";
    let p = Project::new();
    p.write(
        ".kairoku/rules/r.yml",
        format!("{NO_EVAL}---\n{NO_CONSOLE_WARNING}"),
    )
    .write("plain.ts", source)
    .write(
        "mention.ts",
        format!("{source}// ast-grep-ignore is not used here\n"),
    );
    let findings = load(&p).scan(&[]).unwrap().findings;
    let of = |file: &str| -> Vec<(usize, usize, String, String)> {
        findings
            .iter()
            .filter(|f| f.file == file)
            .map(|f| (f.line, f.column, f.rule_id.clone(), f.message.clone()))
            .collect()
    };
    assert_eq!(of("plain.ts").len(), 5);
    assert_eq!(of("plain.ts"), of("mention.ts"));
}
