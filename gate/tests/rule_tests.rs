//! Rule tests as `ast-grep test` runs them: valid cases must not match,
//! invalid cases must.

mod support;

use rule_fairy_gate::{Failure, Gate};
use support::*;

const TEST: &str = "id: no-eval
valid:
  - JSON.parse(body)
invalid:
  - eval(body)
";

#[test]
fn passing_cases_and_coverage_through_sgconfig() {
    let p = Project::new();
    p.write("rules/no-eval.yml", NO_EVAL)
        .write("rules/no-console.yml", NO_CONSOLE_WARNING)
        .write("tests/no-eval-test.yml", TEST)
        .write(
            "tests/__snapshots__/no-eval-snapshot.yml",
            "id: no-eval\nsnapshots: {}\n",
        )
        .write(
            "sgconfig.yml",
            "ruleDirs: [rules]\ntestConfigs:\n  - testDir: tests\n",
        );
    let gate = Gate::load(p.root()).unwrap();
    let report = gate.test().unwrap();
    assert!(report.passed(), "{report:?}");
    assert_eq!(report.cases, 2);
    assert_eq!(report.untested_rules, vec!["no-console"]);
    let coverage = gate.coverage().unwrap();
    let eval = coverage.iter().find(|c| c.id == "no-eval").unwrap();
    assert_eq!((eval.valid_cases, eval.invalid_cases), (1, 1));
    assert_eq!(eval.language, "TypeScript");
}

#[test]
fn a_rule_that_stops_matching_its_defect_fails() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/no-eval.yml",
        NO_EVAL.replace("eval($ARG)", "evil($ARG)"),
    )
    .write(".kairoku/rule-tests/no-eval-test.yml", TEST);
    let report = Gate::load(p.root()).unwrap().test().unwrap();
    assert!(!report.passed());
    let [failure] = report.failures.as_slice() else {
        panic!("{report:?}")
    };
    assert_eq!(failure.failure, Failure::Missing);
    assert_eq!(failure.code, "eval(body)");
    assert_eq!(failure.file, ".kairoku/rule-tests/no-eval-test.yml");
}

#[test]
fn a_valid_case_that_matches_is_noisy() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL).write(
        ".kairoku/rule-tests/no-eval-test.yml",
        "id: no-eval\nvalid:\n  - ok()\n  - eval(fine)\ninvalid:\n  - eval(x)\n",
    );
    let report = Gate::load(p.root()).unwrap().test().unwrap();
    let [failure] = report.failures.as_slice() else {
        panic!("{report:?}")
    };
    assert_eq!((failure.failure, failure.index), (Failure::Noisy, 2));
}

#[test]
fn a_test_for_a_rule_that_does_not_exist_fails() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL).write(
        ".kairoku/rule-tests/gone-test.yml",
        "id: gone\ninvalid: [x()]\n",
    );
    let report = Gate::load(p.root()).unwrap().test().unwrap();
    assert!(!report.passed());
    assert_eq!(report.unknown_rules[0].0, "gone");
}

#[test]
fn a_broken_test_file_names_its_line() {
    let p = Project::new();
    p.write(".kairoku/rules/no-eval.yml", NO_EVAL).write(
        ".kairoku/rule-tests/no-eval-test.yml",
        "id: no-eval\nvalid: [\n",
    );
    let err = Gate::load(p.root()).unwrap().test().unwrap_err();
    assert_eq!(err.file(), Some(".kairoku/rule-tests/no-eval-test.yml"));
    assert!(err.message.starts_with("invalid rule test:"), "{err}");
}

#[test]
fn an_off_rule_s_tests_are_skipped() {
    let p = Project::new();
    p.write(
        ".kairoku/rules/no-eval.yml",
        NO_EVAL.replace("severity: error", "severity: off"),
    )
    .write(".kairoku/rule-tests/no-eval-test.yml", TEST)
    .write("a.ts", "eval(1)\n");
    let gate = Gate::load(p.root()).unwrap();
    let report = gate.test().unwrap();
    assert!(report.passed());
    assert_eq!(report.skipped_rules, vec!["no-eval"]);
    assert!(gate.scan(&[]).unwrap().findings.is_empty());
}

#[test]
fn edn_test_dirs_are_read() {
    let p = Project::new();
    p.write("lint/rules/no-eval.yml", NO_EVAL)
        .write("lint/tests/no-eval-test.yml", TEST)
        .write(
            "rule-fairy.edn",
            "{:gate {:dirs [\"lint/rules\"] :test-dirs [\"lint/tests\"]}}",
        );
    assert_eq!(Gate::load(p.root()).unwrap().test().unwrap().cases, 2);
}
