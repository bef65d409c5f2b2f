//! `--rules-from REF`: the rules of one commit, in real git repositories.

mod support;

use rule_fairy_gate::Gate;
use support::*;

fn repo_with_rule() -> Project {
    let p = Project::new();
    p.init_git();
    p.write(".kairoku/rules/security/no-eval.yml", NO_EVAL)
        .write(
            ".kairoku/rule-tests/no-eval-test.yml",
            "id: no-eval\ninvalid: [eval(x)]\n",
        )
        .write("src/a.ts", "eval(1)\n");
    p.commit_all("rules");
    p
}

#[test]
fn rules_come_from_the_ref_not_the_working_tree() {
    let p = repo_with_rule();
    // The change under review deletes the rule and adds a weaker one.
    p.remove(".kairoku/rules/security/no-eval.yml");
    p.write(".kairoku/rules/weak.yml", NO_CONSOLE_WARNING);
    let from_tree = Gate::load(p.root()).unwrap();
    assert!(from_tree.scan(&[]).unwrap().findings.is_empty());
    let from_ref = Gate::load_from_ref(p.root(), "main").unwrap();
    let ids: Vec<&str> = from_ref
        .rules()
        .iter()
        .map(rule_fairy_gate::Rule::id)
        .collect();
    assert_eq!(ids, vec!["no-eval"]);
    assert_eq!(
        from_ref.rules()[0].file,
        "main:.kairoku/rules/security/no-eval.yml"
    );
    let findings = from_ref.scan(&[]).unwrap().findings;
    assert_eq!(findings.len(), 1);
    assert_eq!(from_ref.test().unwrap().cases, 1);
}

#[test]
fn the_ref_is_read_from_a_project_in_a_subdirectory() {
    let p = Project::new();
    p.init_git();
    p.write("app/sgconfig.yml", "ruleDirs: [rules]\n")
        .write("app/rules/deep/no-eval.yml", NO_EVAL)
        .write("app/a.ts", "eval(1)\n")
        .write("other/rules/x.yml", "not: [a rule\n");
    p.commit_all("app");
    let gate = Gate::load_from_ref(&p.root().join("app"), "HEAD").unwrap();
    assert_eq!(gate.rules().len(), 1);
    assert_eq!(gate.scan(&[]).unwrap().findings[0].file, "a.ts");
}

#[test]
fn a_broken_rule_on_the_ref_names_ref_file_and_line() {
    let p = repo_with_rule();
    p.write(
        ".kairoku/rules/bad.yml",
        "id: b\nlanguage: cobol\nrule:\n  pattern: x\n",
    );
    p.commit_all("bad");
    let err = Gate::load_from_ref(p.root(), "main").err().unwrap();
    assert!(
        err.to_string()
            .starts_with("main:.kairoku/rules/bad.yml:2: unknown language `cobol`"),
        "{err}"
    );
}

#[test]
fn an_unknown_ref_is_an_error() {
    let p = repo_with_rule();
    let err = Gate::load_from_ref(p.root(), "origin/nope").err().unwrap();
    assert!(
        err.message
            .starts_with("cannot read the gate's rules from git ref `origin/nope`"),
        "{err}"
    );
    let outside = Project::new();
    assert!(Gate::load_from_ref(outside.root(), "main").is_err());
    assert!(Gate::load_from_ref(p.root(), "--output=x").is_err());
}

#[test]
fn an_older_commit_holds_its_own_rules() {
    let p = repo_with_rule();
    let first = p.git(&["rev-parse", "HEAD"]).trim().to_string();
    p.git(&["rm", "-q", "-r", ".kairoku/rules"]);
    p.commit_all("drop the rules");
    assert!(Gate::load_from_ref(p.root(), "main")
        .unwrap()
        .rules()
        .is_empty());
    assert_eq!(
        Gate::load_from_ref(p.root(), &first).unwrap().rules().len(),
        1
    );
}
