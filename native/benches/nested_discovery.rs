//! Finding the nested rules folders of a 20,000-file repository (behaviour
//! §1.2; target: at most 20 ms): the native finder alone (one walk with the
//! `ignore` crate, what git ignores and `node_modules` left out), beside
//! `git ls-files` asked the same on the same tree (what the Claude Code mod
//! runs once per session); and whole `rule-fairy explain` processes in the
//! checkout (searched) and on the same tree outside git (not searched).
//! The tree: 40 packages of 10 directories with 49 files each, 20 of the
//! packages with a nested `.cursor/rules` of 5 rules, an ignored `build/`
//! and a `node_modules` of 2,000 files more. Run with `scripts/bench`;
//! prints medians.

// The finder as the binary builds it.
#[path = "../src/nested_folders.rs"]
mod nested_folders;

use std::process::Command;
use std::time::{Duration, Instant};

use rule_fairy_engine::nested::git_arguments;
use rule_fairy_test_support::Project as TempProject;

const RUNS: usize = 21;

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// 20,000 files in 400 directories with 20 nested folders, in a git
/// checkout or not.
fn repository(git: bool) -> TempProject {
    let p = TempProject::new();
    if git {
        p.init_git();
    }
    p.write(".gitignore", "build/\n")
        .rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    for package in 0..40 {
        for dir in 0..10 {
            for file in 0..49 {
                p.write(
                    &format!("packages/p{package}/src/d{dir}/f{file}.ts"),
                    "export {};\n",
                );
            }
        }
        if package < 20 {
            for rule in 0..5 {
                p.write(
                    &format!("packages/p{package}/.cursor/rules/r{rule}.mdc"),
                    format!("---\nglobs: src/d{rule}/**\n---\n# Rule {rule}"),
                );
            }
        }
    }
    for file in 0..2_000 {
        p.write(&format!("node_modules/m{}/f{file}.js", file % 100), "x");
        if file < 100 {
            p.write(&format!("build/out{file}.js"), "x");
        }
    }
    p
}

fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

fn explain(p: &TempProject) -> Duration {
    time(RUNS, || {
        let out = p
            .command(env!("CARGO_BIN_EXE_rule-fairy"))
            .args(["explain", "--prompt", "hello", "--json"])
            .env_remove("RULE_FAIRY_PROJECT_DIR")
            .output();
        assert!(out.status.success(), "{out:?}");
    })
}

fn main() {
    if Command::new("git").arg("--version").output().is_err() {
        println!("nested_discovery: skipped, git is not installed");
        return;
    }
    let folders = vec![".cursor/rules".to_string()];
    let with = repository(true);
    let without = repository(false);
    let root = std::fs::canonicalize(with.root()).unwrap();
    let root = root.to_string_lossy();
    let found = nested_folders::find(&root, &folders).unwrap();
    assert_eq!(found.len(), 21, "{found:?}");
    let finder = time(RUNS, || {
        nested_folders::find(&root, &folders).unwrap();
    });
    let argv = git_arguments(&folders);
    let git = time(RUNS, || {
        let out = Command::new(&argv[0])
            .args(&argv[1..])
            .current_dir(with.root())
            .output()
            .unwrap();
        assert!(out.status.success());
    });
    println!(
        "nested discovery of a 20,000-file repository (20 folders): median {} (git ls-files on it: {})",
        ms(finder),
        ms(git)
    );
    for (what, p) in [
        ("in the checkout", &with),
        ("outside git (not searched)", &without),
    ] {
        println!(
            "`rule-fairy explain` process {what}: median {}",
            ms(explain(p))
        );
    }
}
