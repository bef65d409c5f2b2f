//! The plugin's launchers finding a program installed by npm: the platform
//! package's binary is run directly (no Node per hook), from a global
//! install on PATH or off it and from the project's node_modules, and a
//! broken install is told as it is. tests/npm/install runs the real npm.

use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::util::codex::*;
use crate::util::*;

/// A Node launcher that must never run from a hook.
const NODE_LAUNCHER: &str = "#!/bin/sh\necho 'the Node launcher ran' >&2\nexit 3\n";

/// npm's platform name for this machine, as the launchers compute it.
fn platform() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "linux-x64",
        ("linux", "aarch64") => "linux-arm64",
        ("macos", "x86_64") => "darwin-x64",
        ("macos", "aarch64") => "darwin-arm64",
        other => panic!("no npm platform for {other:?}"),
    }
}

/// An npm package folder `package` (…/node_modules/rule-fairy) with its
/// launcher, and the platform package `platform` at `platform_dir` (the
/// folder holding `@rule-fairy`) whose binary is this build.
fn npm_package(package: &Path, platform_dir: &Path, platform: &str) {
    fs::create_dir_all(package.join("bin")).unwrap();
    let launcher = package.join("bin/rule-fairy.js");
    write_program(&launcher, NODE_LAUNCHER);
    let cli = platform_dir.join(format!("@rule-fairy/cli-{platform}"));
    fs::create_dir_all(&cli).unwrap();
    symlink(BIN, cli.join("rule-fairy")).unwrap();
}

/// A global install under `prefix`, laid out as npm lays one out from the
/// registry: the platform package nested in the launcher's package.
fn global_install(prefix: &Path) -> PathBuf {
    let package = prefix.join("lib/node_modules/rule-fairy");
    npm_package(&package, &package.join("node_modules"), platform());
    fs::create_dir_all(prefix.join("bin")).unwrap();
    symlink(
        "../lib/node_modules/rule-fairy/bin/rule-fairy.js",
        prefix.join("bin/rule-fairy"),
    )
    .unwrap();
    package
}

/// A Codex prompt through hooks/run, from `project`, with `path` before
/// the system's and `env` added.
fn prompt(
    plugin: &Project,
    project: &Project,
    path: Option<&Path>,
    env: &[(&str, &str)],
) -> Output {
    let input = prompt_input("s1", "hi", None).to_string();
    let system = "/usr/bin:/bin".to_string();
    let path = path.map_or(system.clone(), |dir| format!("{}:{system}", dir.display()));
    launch(project, &plugin.path("hooks/run"))
        .args(["codex", "prompt"])
        .env("PATH", path)
        .envs(env)
        .stdin(input)
        .output()
}

/// A prompt in a session of its own.
fn fresh_prompt() -> String {
    static SESSIONS: AtomicUsize = AtomicUsize::new(0);
    let session = SESSIONS.fetch_add(1, Ordering::Relaxed);
    prompt_input(&format!("npm-{session}"), "hi", None).to_string()
}

fn delivered(out: &Output) -> Vec<String> {
    let context = codex_accepts(PROMPT, out)
        .unwrap_or_else(|| panic!("no context: {} {}", stdout(out), stderr(out)));
    assert!(!stderr(out).contains("Node launcher"), "{}", stderr(out));
    injected(&context)
}

fn rules_project() -> Project {
    let project = project();
    project.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    project
}

#[test]
fn a_global_npm_install_is_run_without_node_on_path_or_off_it() {
    let plugin = installed("hooks/run");
    let project = rules_project();
    let prefix = project.beside("npm-global");
    global_install(&prefix);
    let out = prompt(&plugin, &project, Some(&prefix.join("bin")), &[]);
    assert_eq!(delivered(&out), vec!["base.mdc"]);

    // Off PATH (a desktop app's PATH may not hold npm's folder): npm's
    // configured prefix, from the environment or from ~/.npmrc.
    let project = rules_project();
    let prefix_text = prefix.display().to_string();
    let out = prompt(
        &plugin,
        &project,
        None,
        &[("npm_config_prefix", &prefix_text)],
    );
    assert_eq!(delivered(&out), vec!["base.mdc"]);
    let project = rules_project();
    project.write(".npmrc", ""); // not the home's: ignored
    fs::create_dir_all(project.home()).unwrap();
    fs::write(
        project.home().join(".npmrc"),
        format!("fund=false\nprefix={prefix_text}\n"),
    )
    .unwrap();
    let out = prompt(&plugin, &project, None, &[]);
    assert_eq!(delivered(&out), vec!["base.mdc"]);
}

#[test]
fn a_project_s_own_npm_install_is_found_from_a_folder_below_it() {
    let plugin = installed("hooks/run");
    let project = rules_project();
    let modules = project.dir("node_modules");
    // A project's install hoists the platform package beside the launcher's.
    npm_package(&modules.join("rule-fairy"), &modules, platform());
    let below = project.dir("src/ui");
    let input = fresh_prompt();
    let out = launch(&project, &plugin.path("hooks/run"))
        .args(["codex", "prompt"])
        .cwd(&below)
        .stdin(input)
        .output();
    assert_eq!(delivered(&out), vec!["base.mdc"]);

    // Through node_modules/.bin on PATH, the same binary.
    symlink(
        "../rule-fairy/bin/rule-fairy.js",
        project.dir("node_modules/.bin").join("rule-fairy"),
    )
    .unwrap();
    let out = prompt(
        &plugin,
        &project,
        Some(&project.path("node_modules/.bin")),
        &[],
    );
    assert_eq!(delivered(&out), vec!["base.mdc"]);
}

#[test]
fn a_project_s_committed_npm_install_is_never_run() {
    // A cloned repository carrying node_modules/rule-fairy: its "program"
    // would run on every hook of anyone who opened it.
    let plugin = installed("hooks/run");
    let project = rules_project();
    let modules = project.dir("node_modules");
    npm_package(&modules.join("rule-fairy"), &modules, platform());
    project.init_git().commit_all("vendored");
    let out = launch(&project, &plugin.path("hooks/run"))
        .args(["codex", "prompt"])
        .stdin(fresh_prompt())
        .output();
    let context = codex_accepts(PROMPT, &out).expect("valid output");
    assert!(
        context.contains(&format!(
            "the project's {}/node_modules/rule-fairy is committed to its git repository, so it is not run",
            project.root().display()
        )),
        "{context}"
    );
    assert!(
        context.contains("Install it yourself: npm install -g rule-fairy"),
        "{context}"
    );
    assert!(injected(&context).is_empty(), "{context}");
}

#[test]
fn a_broken_npm_install_is_told_with_its_fix_not_passed_over() {
    let plugin = installed("hooks/run");
    let project = rules_project();
    let prefix = project.beside("npm-global");
    let package = global_install(&prefix);
    // A working program further down the list is not taken instead.
    let cargo = project.home().join(".cargo/bin");
    fs::create_dir_all(&cargo).unwrap();
    symlink(BIN, cargo.join("rule-fairy")).unwrap();

    // No execute bit on the platform package's binary.
    let binary = package.join(format!(
        "node_modules/@rule-fairy/cli-{}/rule-fairy",
        platform()
    ));
    fs::remove_file(&binary).unwrap();
    fs::copy(BIN, &binary).unwrap();
    fs::set_permissions(&binary, fs::Permissions::from_mode(0o644)).unwrap();
    let out = prompt(&plugin, &project, Some(&prefix.join("bin")), &[]);
    let context = codex_accepts(PROMPT, &out).expect("valid output");
    assert!(
        context.contains(&format!(
            "the program {} is not executable",
            binary.display()
        )),
        "{context}"
    );
    assert!(
        context.contains(&format!("chmod +x {}", binary.display())),
        "{context}"
    );
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(said["systemMessage"]
        .as_str()
        .unwrap()
        .contains("is not executable"));

    // The platform package left out (npm --omit=optional).
    fs::remove_dir_all(package.join("node_modules")).unwrap();
    let out = prompt(&plugin, &project, Some(&prefix.join("bin")), &[]);
    let context = codex_accepts(PROMPT, &out).expect("valid output");
    assert!(
        context.contains(&format!(
            "the npm package rule-fairy at {} holds no program for this machine: its platform package @rule-fairy/cli-{} is not installed",
            package.display(),
            platform()
        )),
        "{context}"
    );
    assert!(
        context.contains("npm install -g rule-fairy --include=optional"),
        "{context}"
    );

    // The Claude Code mod's gate check: 127 and the same words.
    let out = launch(&project, &plugin.path("hooks/run"))
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", prefix.join("bin").display()),
        )
        .args(["gate", "check", "a.ts", "--json", "--project"])
        .arg(project.root())
        .output();
    assert_eq!(out.status.code(), Some(127));
    assert!(
        stderr(&out).starts_with("rule-fairy: the npm package rule-fairy at "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn of_several_platform_packages_the_machine_s_is_run() {
    let plugin = installed("hooks/run");
    let project = rules_project();
    let prefix = project.beside("npm-global");
    let package = global_install(&prefix);
    // Another platform's package, copied in with node_modules from elsewhere.
    let other = package.join("node_modules/@rule-fairy/cli-aix-ppc64");
    fs::create_dir_all(&other).unwrap();
    write_program(other.join("rule-fairy"), NODE_LAUNCHER);
    let out = prompt(&plugin, &project, Some(&prefix.join("bin")), &[]);
    assert_eq!(delivered(&out), vec!["base.mdc"]);
}
