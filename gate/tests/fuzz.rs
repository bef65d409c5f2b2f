//! The gate's rule YAML, fuzzed: mutated real rules, rule tests and
//! `sgconfig.yml`, and generated rules nested deep, each loaded from a
//! temporary project, scanned and tested. Whatever the files hold, the
//! gate answers within a generous bound without a panic; a file it cannot
//! read is an error naming that file, and every finding names a scanned
//! file and a line in it.

#[allow(unused_imports)]
mod support;

use std::fs;
use std::path::PathBuf;

use proptest::prelude::*;
use rule_fairy_gate::Gate;
use support::Project;

/// The mutations and seeds the engine's fuzz suite uses.
#[path = "../../engine/tests/fuzz/inputs.rs"]
#[allow(dead_code)]
mod inputs;

use inputs::{bounded, config, mutated, token_soup};

const WEBSHOP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/webshop");

const SGCONFIG: &[&[u8]] = &[
    include_bytes!("../../examples/webshop/sgconfig.yml"),
    b"ruleDirs: [rules, .kairoku/rules]\ntestConfigs:\n  - testDir: tests\n    snapshotDir: snaps\nutilDirs: [utils]\n",
];

const RULE: &[&[u8]] = &[
    include_bytes!("../../examples/webshop/.kairoku/rules/api/no-raw-error-response.yml"),
    support::NO_CONSOLE_WARNING.as_bytes(),
    b"id: two\nlanguage: Python\nrule:\n  any:\n    - pattern: eval($X)\n    - all:\n        - kind: call\n        - not: {has: {kind: string}}\nfix: safe($X)\n---\nid: three\nlanguage: Rust\nrule: {pattern: 'unsafe { $$$ }'}\nfiles: [\"src/**\"]\nignores: [\"**/gen/**\"]\n",
];

const RULE_TEST: &[&[u8]] = &[include_bytes!(
    "../../examples/webshop/.kairoku/rule-tests/no-raw-error-response-test.yml"
)];

/// Where the files of a case go.
const RULE_FILE: &str = ".kairoku/rules/api/no-raw-error-response.yml";
const TEST_FILE: &str = ".kairoku/rule-tests/no-raw-error-response-test.yml";

fn scanned() -> Vec<PathBuf> {
    [
        "src/api/payments.ts",
        "src/api/orders.ts",
        "src/ui/Button.tsx",
    ]
    .iter()
    .map(PathBuf::from)
    .collect()
}

/// A project with the example's sources and the given gate files.
fn project(sgconfig: &[u8], rule: &[u8], rule_test: &[u8]) -> Project {
    let p = Project::new();
    for rel in [
        "src/api/payments.ts",
        "src/api/orders.ts",
        "src/ui/Button.tsx",
    ] {
        p.write(
            rel,
            fs::read(format!("{WEBSHOP}/{rel}")).expect("the example's source"),
        );
    }
    p.write("sgconfig.yml", sgconfig);
    p.write(RULE_FILE, rule);
    p.write(TEST_FILE, rule_test);
    p
}

/// Loads, scans and tests; checks what each says about its files.
fn run(p: Project) -> Result<(), TestCaseError> {
    let root = p.root().to_path_buf();
    let outcome = bounded("gate", move || {
        let gate = Gate::load(&root).map_err(|e| e.to_string())?;
        let scan = gate.scan(&scanned()).map_err(|e| e.to_string());
        let test = gate.test().map(drop).map_err(|e| e.to_string());
        Ok::<_, String>((scan, test))
    });
    let names_a_file = |message: &str| {
        [
            "sgconfig.yml",
            RULE_FILE,
            TEST_FILE,
            ".kairoku",
            "rules",
            "tests",
            "utils",
            "src/",
        ]
        .iter()
        .any(|f| message.contains(f))
    };
    match outcome {
        Err(message) => prop_assert!(
            names_a_file(&message),
            "an error naming no file: {}",
            message
        ),
        Ok((scan, test)) => {
            match scan {
                Ok(report) => {
                    for finding in &report.findings {
                        prop_assert!(finding.file.starts_with("src/"), "{:?}", finding);
                        prop_assert!(finding.line >= 1 && finding.end_line >= finding.line);
                    }
                }
                Err(message) => prop_assert!(names_a_file(&message), "{}", message),
            }
            if let Err(message) = test {
                prop_assert!(names_a_file(&message), "{}", message);
            }
        }
    }
    Ok(())
}

/// A rule nested `depth` levels deep in `all`/`any`/`not`/`inside`/`has`.
fn nested_rule() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(
            prop::sample::select(vec!["all", "any", "not", "inside", "has"]),
            0..200,
        ),
        token_soup(),
        prop::sample::select(vec![
            "TypeScript",
            "Tsx",
            "JavaScript",
            "Python",
            "Rust",
            "Go",
            "Yaml",
            "Cobol",
            "",
        ]),
    )
        .prop_map(|(levels, pattern, language)| {
            let mut rule = format!("pattern: {}", serde_json::Value::from(pattern));
            for level in levels.iter().rev() {
                rule = match *level {
                    "all" | "any" => format!("{level}: [{{{rule}}}]"),
                    _ => format!("{level}: {{{rule}}}"),
                };
            }
            format!("id: nested\nlanguage: {language}\nmessage: m\nrule: {{{rule}}}\n")
        })
}

proptest! {
    #![proptest_config(config(96))]

    /// Mutated `sgconfig.yml`, rule and rule-test files of the example.
    #[test]
    fn mutated_gate_files_fail_naming_the_file(
        sgconfig in mutated(SGCONFIG),
        rule in mutated(RULE),
        rule_test in mutated(RULE_TEST),
        which in 0..3usize,
    ) {
        // One mutated file at a time, so the error is about that file.
        let p = match which {
            0 => project(&sgconfig, RULE[0], RULE_TEST[0]),
            1 => project(SGCONFIG[0], &rule, RULE_TEST[0]),
            _ => project(SGCONFIG[0], RULE[0], &rule_test),
        };
        run(p)?;
    }

    /// Generated rules nested deep, in known and unknown languages.
    #[test]
    fn nested_rules_load_or_fail_naming_the_file(rule in nested_rule()) {
        run(project(SGCONFIG[0], rule.as_bytes(), b""))?;
    }
}
