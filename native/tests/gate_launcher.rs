//! The launcher the Claude Code mod runs the gate check through,
//! `hooks/run gate check FILE --json --project DIR`: it passes the check's
//! own statuses on (0 clean, 1 an error finding, 2 could not check), which
//! the Codex hooks never see, and exits 127 with a line to show when it
//! finds no program.

#![cfg(feature = "gate")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const NO_EVAL: &str = "id: no-eval
language: TypeScript
severity: error
message: Do not call eval.
note: Incident 12 - eval ran user input.
rule:
  pattern: eval($X)
";

/// A copy of the launcher in a plugin directory of its own, so it cannot
/// find this checkout's builds.
fn installed_launcher() -> tempfile::TempDir {
    let plugin = tempfile::tempdir().unwrap();
    fs::create_dir(plugin.path().join("hooks")).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    fs::copy(repo.join("hooks/run"), plugin.path().join("hooks/run")).unwrap();
    plugin
}

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

/// Runs the launcher as the mod does: no input, a bare environment.
fn check(plugin: &Path, project: &Path, file: &str, binary: Option<&str>) -> Output {
    let home = tempfile::tempdir().unwrap();
    let file: PathBuf = project.join(file);
    let mut command = Command::new(plugin.join("hooks/run"));
    command
        .args(["gate", "check"])
        .arg(&file)
        .args(["--json", "--project"])
        .arg(project)
        .current_dir(project)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home.path())
        .stdin(Stdio::null());
    if let Some(binary) = binary {
        command.env("RULE_FAIRY_BIN", binary);
    }
    command.output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_missing_program_is_127_with_a_line_saying_how_to_install_it() {
    let plugin = installed_launcher();
    let p = project(&[
        (".kairoku/rules/no-eval.yml", NO_EVAL),
        ("a.ts", "eval(x)\n"),
    ]);
    let out = check(plugin.path(), p.path(), "a.ts", None);
    assert_eq!(out.status.code(), Some(127), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let said = stderr(&out);
    assert!(
        said.starts_with("rule-fairy: the rule-fairy program was not found"),
        "{said}"
    );
    assert!(said.contains("cargo install --locked --git"), "{said}");
}

#[test]
fn the_check_s_statuses_pass_through() {
    let plugin = installed_launcher();
    let binary = env!("CARGO_BIN_EXE_rule-fairy");
    let p = project(&[
        (".kairoku/rules/no-eval.yml", NO_EVAL),
        ("bad.ts", "const a = 1;\neval(input);\n"),
        ("good.ts", "const a = 1;\n"),
    ]);
    let found = check(plugin.path(), p.path(), "bad.ts", Some(binary));
    assert_eq!(found.status.code(), Some(1), "{}", stderr(&found));
    let line: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    assert_eq!(line["ruleId"], "no-eval");
    assert_eq!(line["file"], "bad.ts");
    assert_eq!(line["line"], 2);
    assert_eq!(line["note"], "Incident 12 - eval ran user input.");
    let clean = check(plugin.path(), p.path(), "good.ts", Some(binary));
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert!(clean.stdout.is_empty());
    // A rule that does not parse: 2, not turned into 1 as for Codex.
    fs::write(
        p.path().join(".kairoku/rules/broken.yml"),
        "id: broken\nlanguage: TypeScript\nrule: [unclosed\n",
    )
    .unwrap();
    let broken = check(plugin.path(), p.path(), "good.ts", Some(binary));
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        stderr(&broken).starts_with("rule-fairy gate: .kairoku/rules/broken.yml:"),
        "{}",
        stderr(&broken)
    );
}
