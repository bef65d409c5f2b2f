//! The Codex plugin as shipped: manifests Codex 0.169 loads hooks from, and
//! the launcher that finds the binary or says it is missing.

use std::fs;
use std::process::Output;

use rule_fairy_engine::labels::NOTHING_INJECTED;
use serde_json::Value;

use crate::util::codex::*;
use crate::util::*;

fn json_file(rel: &str) -> Value {
    let text = fs::read_to_string(repo_root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn the_manifests_point_codex_at_its_own_hooks() {
    // A root plugin.json makes Codex load no hooks at all.
    assert!(!repo_root().join("plugin.json").exists());
    let plugin = json_file(".codex-plugin/plugin.json");
    // Without the leading ./ Codex silently falls back to hooks/hooks.json,
    // which is Claude Code's registration.
    assert_eq!(plugin["hooks"], "./hooks/codex-hooks.json");
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(plugin["version"], version);
    let market = json_file(".claude-plugin/marketplace.json");
    let entry = market["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == plugin["name"])
        .expect("the marketplace lists the plugin");
    assert_eq!(entry["source"], "./");
    assert_eq!(entry["version"], version);
}

#[test]
fn the_manifests_carry_the_program_s_version_and_its_license() {
    // One version for the program and every manifest, so a plugin never
    // runs a program of another release unnoticed (doctor reports it too).
    let version = env!("CARGO_PKG_VERSION");
    for manifest in [
        ".claude-plugin/plugin.json",
        ".codex-plugin/plugin.json",
        "npm/rule-fairy/package.json",
        "npm/opencode/package.json",
    ] {
        assert_eq!(json_file(manifest)["version"], version, "{manifest}");
    }
    // The npm launcher runs only a platform package of its own version.
    let npm = json_file("npm/rule-fairy/package.json");
    let platforms = npm["optionalDependencies"].as_object().unwrap();
    assert_eq!(platforms.len(), 5, "{platforms:?}");
    for (package, wanted) in platforms {
        assert!(package.starts_with("@rule-fairy/cli-"), "{package}");
        assert_eq!(wanted, version, "{package}");
    }
    assert_eq!(npm["license"], "MIT");
    assert_eq!(json_file("npm/opencode/package.json")["license"], "MIT");
    let claude = json_file(".claude-plugin/plugin.json");
    assert_eq!(claude["license"], "MIT");
    let license = fs::read_to_string(repo_root().join("LICENSE")).unwrap();
    assert!(license.starts_with("MIT License\n"), "{license}");
}

#[test]
fn every_handler_is_unlimited_and_runs_a_real_subcommand() {
    let hooks = json_file("hooks/codex-hooks.json");
    let events = hooks["hooks"].as_object().unwrap();
    let mut seen = Vec::new();
    for (event, groups) in events {
        for group in groups.as_array().unwrap() {
            for handler in group["hooks"].as_array().unwrap() {
                assert_eq!(handler["type"], "command");
                // Codex cuts context past 2,500 tokens to a preview otherwise.
                assert_eq!(handler["additionalContextLimit"], 0, "{event}");
                let command = handler["command"].as_str().unwrap();
                let args = command
                    .strip_prefix("\"${PLUGIN_ROOT}/hooks/run\" ")
                    .unwrap_or_else(|| panic!("{event}: {command}"));
                seen.push((event.clone(), args.to_string(), group["matcher"].clone()));
            }
        }
    }
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    let names: Vec<(&str, &str)> = seen
        .iter()
        .map(|(e, a, _)| (e.as_str(), a.as_str()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("PostToolUse", "codex post-tool"),
            ("SessionStart", "codex session-start"),
            ("SubagentStart", "codex subagent-start"),
            ("UserPromptSubmit", "codex prompt"),
        ]
    );
    assert_eq!(seen[1].2, "compact");
    // Each subcommand exists: blank input is answered with nothing, exit 0.
    for (_, args, _) in &seen {
        let hook = args.strip_prefix("codex ").unwrap();
        let out = Project::new().hook_raw(&repo_root(), hook, b"", &[]);
        assert_eq!(out.status.code(), Some(0), "{hook}: {}", stderr(&out));
    }
}

#[test]
fn the_post_tool_matcher_takes_shell_patch_and_mcp_edit_tools() {
    let hooks = json_file("hooks/codex-hooks.json");
    let matcher = hooks["hooks"]["PostToolUse"][0]["matcher"]
        .as_str()
        .unwrap();
    // Codex matches the whole tool name, case-sensitively.
    let whole = |name: &str| {
        let anchored = format!("^(?:{matcher})$");
        regex_lite_match(&anchored, name)
    };
    for name in [
        "Bash",
        "apply_patch",
        "Edit",
        "Write",
        "mcp__fs__edit_file",
        "mcp__x__write",
        "mcp__git__apply_patch",
    ] {
        assert!(whole(name), "{name}");
    }
    for name in [
        "bash",
        "exec_command",
        "Read",
        "mcp__fs__read_file",
        "view_image",
    ] {
        assert!(!whole(name), "{name}");
    }
}

/// The matcher's dialect is small enough to check with the shell's own
/// extended regular expressions, avoiding a regex dependency for one test.
fn regex_lite_match(pattern: &str, name: &str) -> bool {
    let pattern = pattern.replace("(?:", "(");
    Run::new("grep")
        .args(["-qE", &pattern])
        .stdin(format!("{name}\n"))
        .output()
        .status
        .success()
}

/// The launcher run as Codex runs it, in a project with one rule.
fn run_launcher(plugin: &Project, args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Output {
    let project = project();
    project.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    run_launcher_in(&project, plugin, args, env, stdin)
}

fn run_launcher_in(
    project: &Project,
    plugin: &Project,
    args: &[&str],
    env: &[(&str, &str)],
    stdin: &[u8],
) -> Output {
    launch(project, &plugin.path("hooks/run"))
        .args(args)
        .envs(env)
        .stdin(stdin)
        .output()
}

#[test]
fn the_launcher_says_so_when_the_binary_is_missing() {
    let plugin = installed("hooks/run");
    let input = prompt_input("s1", "hi", None).to_string();
    let out = run_launcher(&plugin, &["codex", "prompt"], &[], input.as_bytes());
    let context = codex_accepts(PROMPT, &out).expect("the person is told");
    assert!(
        context.starts_with("[rule-fairy error: the rule-fairy program was not found (not on PATH, in npm's global or the project's node_modules, in ~/.cargo/bin or in "),
        "{context}"
    );
    // npm first, cargo the other way.
    assert!(
        context.contains("Tell the person: Install it: npm install -g rule-fairy (or, with a Rust toolchain: cargo install --locked --git"),
        "{context}"
    );
    // The launcher runs when no engine can: its closing line is a copy of
    // the engine's, held equal here.
    assert!(
        context.ends_with(&format!("\n{NOTHING_INJECTED}")),
        "{context}"
    );
    let message: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(message["systemMessage"]
        .as_str()
        .unwrap()
        .contains("not found"));
    assert!(stderr(&out).contains("was not found"));
    let start = session_start_input("s1", "compact", None).to_string();
    let out = run_launcher(&plugin, &["codex", "session-start"], &[], start.as_bytes());
    assert!(codex_accepts(SESSION_START, &out).is_some());
    // The input is read even then: Codex's write of a large prompt must not fail.
    let large = prompt_input("s1", &"word ".repeat(200_000), None).to_string();
    let out = run_launcher(&plugin, &["codex", "prompt"], &[], large.as_bytes());
    assert!(codex_accepts(PROMPT, &out).is_some());
    // After a tool call it fails the hook rather than repeat the entry.
    let out = run_launcher(&plugin, &["codex", "post-tool"], &[], b"{}");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_launcher_runs_the_binary_and_never_exits_2() {
    let plugin = installed("hooks/run");
    let input = prompt_input("s1", "hi", None).to_string();
    let project = project();
    project.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    let out = run_launcher_in(
        &project,
        &plugin,
        &["codex", "prompt"],
        &[("RULE_FAIRY_BIN", BIN)],
        input.as_bytes(),
    );
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
    // The launcher tells the binary where the plugin is installed, and the
    // binary records it in the project, never in the plugin.
    let recorded = fs::read_to_string(project.state_dir().join("plugin-root")).unwrap();
    assert_eq!(
        fs::canonicalize(recorded.trim_end()).unwrap(),
        plugin.root()
    );
    assert_eq!(fs::read_dir(plugin.root()).unwrap().count(), 1);
    // A binary too old to know a subcommand exits 2 (usage), which would
    // make Codex drop the prompt; the launcher turns it into a failure.
    let out = run_launcher(
        &plugin,
        &["codex", "no-such-hook"],
        &[("RULE_FAIRY_BIN", BIN)],
        b"{}",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    // Codex may write the input after such a binary has already exited:
    // the launcher reads it, so the write does not fail (a broken pipe).
    let mut child = launch(&project, &plugin.path("hooks/run"))
        .args(["codex", "no-such-hook"])
        .envs(&[("RULE_FAIRY_BIN", BIN)])
        .spawn();
    std::thread::sleep(std::time::Duration::from_millis(300));
    feed(&mut child, input.as_bytes());
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn trusting_without_codex_says_what_is_missing() {
    let out = Run::new(BIN)
        .args(["codex", "trust", "--codex", "/nonexistent/codex"])
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("cannot start `/nonexistent/codex app-server`"),
        "{}",
        stderr(&out)
    );
}
