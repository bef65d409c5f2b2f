//! The plugin's version against the program's in Codex (behaviour §10.5):
//! the first hook of a session that opens it reads the plugin's manifest
//! and warns when the versions differ; no later hook reads it or warns.

use std::fs;
use std::path::PathBuf;
use std::process::Output;

use serde_json::{json, Value};

use crate::util::codex::*;
use crate::util::*;

/// The program's version, which the manifests carry when nothing drifted.
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn versioned_project() -> Project {
    let p = project();
    p.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base rule")
        .rule("widget.mdc", "---\npromptAnyOf: widget\n---\n# Widget rule");
    p
}

/// A plugin folder beside the project whose Codex manifest says `manifest`.
fn plugin(p: &Project, manifest: &str) -> PathBuf {
    let root = p.beside("plugin");
    fs::create_dir_all(root.join(".codex-plugin")).unwrap();
    fs::write(root.join(".codex-plugin/plugin.json"), manifest).unwrap();
    root
}

fn manifest(version: &str) -> String {
    json!({"name": "rule-fairy", "version": version}).to_string()
}

/// The prompt hook run by the plugin at `root` (none: no plugin root set).
fn prompt(p: &Project, session: &str, text: &str, root: Option<&PathBuf>) -> Output {
    let root = root.map(|r| r.to_string_lossy().into_owned());
    let env: Vec<(&str, &str)> = root
        .iter()
        .map(|r| ("RULE_FAIRY_PLUGIN_ROOT", r.as_str()))
        .collect();
    let input = prompt_input(session, text, None).to_string();
    p.hook_raw(p.root(), "prompt", input.as_bytes(), &env)
}

/// The person's lines of a hook's output.
fn system_message(out: &Output) -> String {
    codex_accepts(PROMPT, out);
    let value: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    value["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn warned(message: &str) -> bool {
    message.contains("the plugin is ")
}

#[test]
fn another_plugin_version_is_told_on_the_session_s_first_event_only() {
    let p = versioned_project();
    let root = plugin(&p, &manifest("9.9.9"));
    let first = system_message(&prompt(&p, "s1", "hi", Some(&root)));
    let lines: Vec<&str> = first.lines().collect();
    assert!(
        lines[0].starts_with("Rule Fairy: base.mdc (always on)"),
        "{first}"
    );
    assert_eq!(
        lines[1],
        format!(
            "Rule Fairy: the plugin is 9.9.9 but the rule-fairy program at {} is {VERSION}; bring the program to the plugin's version: npm install -g rule-fairy@9.9.9 (or with cargo: cargo install --locked --force --git https://github.com/rule-fairy/rule-fairy rule-fairy)",
            // Which program: an older one earlier on PATH is the usual cause.
            std::fs::canonicalize(BIN).unwrap().display()
        ),
        "{first}"
    );
    assert_eq!(lines.len(), 2, "{first}");
    let state = p.state("s1");
    assert_eq!(state["version_checked"], json!(true));
    let told = state["journal"]["problems"][0]["text"].as_str().unwrap();
    assert!(told.starts_with("the plugin is 9.9.9 but"), "{told}");
    // The next event of the session delivers and does not tell it again.
    let second = system_message(&prompt(&p, "s1", "a widget", Some(&root)));
    assert!(second.starts_with("Rule Fairy: widget.mdc"), "{second}");
    assert!(!warned(&second), "{second}");
    // Not even when the manifest is gone: it is not read again.
    fs::remove_file(root.join(".codex-plugin/plugin.json")).unwrap();
    p.rule("more.mdc", "---\npromptAnyOf: more\n---\n# More");
    let third = prompt(&p, "s1", "more", Some(&root));
    assert!(
        !stderr(&third).contains("plugin.json"),
        "{}",
        stderr(&third)
    );
    assert!(system_message(&third).starts_with("Rule Fairy: more.mdc"));
    // Another session is told again.
    fs::write(root.join(".codex-plugin/plugin.json"), manifest("9.9.9")).unwrap();
    assert!(warned(&system_message(&prompt(
        &p,
        "s2",
        "hi",
        Some(&root)
    ))));
}

#[test]
fn the_same_version_or_no_plugin_root_tells_nothing() {
    let p = versioned_project();
    let root = plugin(&p, &manifest(VERSION));
    let same = system_message(&prompt(&p, "s1", "hi", Some(&root)));
    assert!(
        same.starts_with("Rule Fairy: base.mdc") && !warned(&same),
        "{same}"
    );
    assert_eq!(p.state("s1")["version_checked"], json!(true));
    let unset = system_message(&prompt(&p, "s2", "hi", None));
    assert!(!warned(&unset), "{unset}");
}

#[test]
fn a_manifest_that_cannot_be_read_is_noted_on_standard_error_only() {
    for broken in ["{not json", r#"{"name":"rule-fairy"}"#] {
        let p = versioned_project();
        let root = plugin(&p, broken);
        let out = prompt(&p, "s1", "hi", Some(&root));
        let message = system_message(&out);
        assert!(
            message.starts_with("Rule Fairy: base.mdc") && !warned(&message),
            "{message}"
        );
        assert!(
            stderr(&out).contains("the plugin's version was not compared with the program's"),
            "{}",
            stderr(&out)
        );
        assert_eq!(p.state("s1")["version_checked"], json!(true));
    }
    // No manifest at all: the same.
    let p = versioned_project();
    let root = p.beside("plugin");
    assert!(!warned(&system_message(&prompt(
        &p,
        "s1",
        "hi",
        Some(&root)
    ))));
}

#[test]
fn a_hook_that_opens_no_session_leaves_the_check_to_one_that_does() {
    let p = project();
    p.rule("widget.mdc", "---\npromptAnyOf: widget\n---\n# Widget rule");
    let root = plugin(&p, &manifest("9.9.9"));
    // Nothing to deliver: no state is opened, the manifest is not read.
    let quiet = prompt(&p, "s1", "hi", Some(&root));
    assert_eq!(codex_accepts(PROMPT, &quiet), None);
    assert!(!p.state_dir().join("s1.json").exists());
    let delivered = system_message(&prompt(&p, "s1", "a widget", Some(&root)));
    assert!(warned(&delivered), "{delivered}");
}

#[test]
fn a_subagent_leaves_the_version_to_its_parent_s_session() {
    let p = versioned_project();
    let root = plugin(&p, &manifest("9.9.9"));
    let root_text = root.to_string_lossy().into_owned();
    let mut input = prompt_input("s1", "hi", None);
    input["agent_id"] = json!("a1");
    input["agent_type"] = json!("default");
    let out = p.hook_raw(
        p.root(),
        "prompt",
        input.to_string().as_bytes(),
        &[("RULE_FAIRY_PLUGIN_ROOT", &root_text)],
    );
    let message = system_message(&out);
    assert!(
        message.starts_with("Rule Fairy: base.mdc") && !warned(&message),
        "{message}"
    );
}
