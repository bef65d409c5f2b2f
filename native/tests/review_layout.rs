//! The plugin's skill and agent files: the frontmatter both hosts need
//! (Claude Code and Codex discover `skills/<name>/SKILL.md` by `name` and
//! `description`; Claude Code loads `agents/*.md` the same way), every file
//! a skill's text names exists, and the launchers find the program or say
//! plainly that they cannot.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::util::review::*;
use crate::util::*;

/// The `key: value` lines between the opening and closing `---`.
fn frontmatter(file: &Path) -> Vec<(String, String)> {
    let text = fs::read_to_string(file).unwrap();
    let body = text
        .strip_prefix("---\n")
        .unwrap_or_else(|| panic!("{} has no frontmatter", file.display()));
    let end = body
        .find("\n---\n")
        .unwrap_or_else(|| panic!("{}: frontmatter not closed", file.display()));
    body[..end]
        .lines()
        .map(|line| {
            let (key, value) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("{}: not a key: {line}", file.display()));
            (key.to_string(), value.trim().to_string())
        })
        .collect()
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Paths written after `prefix` in a text: `<skill-dir>/scripts/run`.
fn mentions(text: &str, prefix: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (at, _) in text.match_indices(prefix) {
        let path: String = text[at + prefix.len()..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || "._/-".contains(*c))
            .collect();
        let path = path.trim_end_matches('.').to_string();
        if !path.is_empty() && !found.contains(&path) {
            found.push(path);
        }
    }
    found
}

/// Targets of Markdown links that are relative paths.
fn relative_links(text: &str) -> Vec<String> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            let end = rest.find(')')?;
            let target = &rest[..end];
            (!target.contains("://") && !target.starts_with('#') && !target.contains(' '))
                .then(|| target.to_string())
        })
        .collect()
}

fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Checks the files a text names: relative links from its directory,
/// `<skill-dir>/...` from `skill_dir`, `<plugin-root>/...` from the plugin
/// root, and `rule-fairy:<name>` as a skill or an agent.
fn check_named_files(file: &Path, skill_dir: Option<&Path>) {
    let text = fs::read_to_string(file).unwrap();
    let root = repo_root();
    for link in relative_links(&text) {
        let target = file.parent().unwrap().join(&link);
        assert!(target.exists(), "{}: link {link}", file.display());
    }
    if let Some(dir) = skill_dir {
        for rel in mentions(&text, "<skill-dir>/") {
            let target = dir.join(&rel);
            assert!(target.exists(), "{}: <skill-dir>/{rel}", file.display());
            if rel.starts_with("scripts/") {
                assert!(is_executable(&target), "{rel} is executable");
            }
        }
    }
    for rel in mentions(&text, "<plugin-root>/") {
        assert!(
            root.join(&rel).exists(),
            "{}: <plugin-root>/{rel}",
            file.display()
        );
    }
    for name in mentions(&text, "rule-fairy:") {
        let skill = root.join("skills").join(&name).join("SKILL.md");
        let agent = root.join("agents").join(format!("{name}.md"));
        assert!(
            skill.is_file() || agent.is_file(),
            "{}: rule-fairy:{name}",
            file.display()
        );
    }
}

fn skill_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(repo_root().join("skills"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn skills_carry_the_frontmatter_both_hosts_need() {
    let dirs = skill_dirs();
    let names: Vec<String> = dirs
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for expected in ["review", "review-plan"] {
        assert!(names.iter().any(|n| n == expected), "skills/{expected}");
    }
    for dir in &dirs {
        let skill = dir.join("SKILL.md");
        let fields = frontmatter(&skill);
        let name = dir.file_name().unwrap().to_str().unwrap();
        assert_eq!(field(&fields, "name"), Some(name), "{}", skill.display());
        let description = field(&fields, "description").unwrap_or("");
        assert!(!description.is_empty(), "{name}: description");
        assert!(
            description.chars().count() <= 1024,
            "{name}: description under both hosts' cap"
        );
        if let Some(allowed) = field(&fields, "allowed-tools") {
            let launcher = allowed
                .strip_prefix("Bash(${CLAUDE_SKILL_DIR}/")
                .and_then(|rest| rest.strip_suffix(" *)"))
                .unwrap_or_else(|| panic!("{name}: allowed-tools {allowed}"));
            assert!(is_executable(&dir.join(launcher)), "{name}: {launcher}");
        }
        check_named_files(&skill, Some(dir));
    }
}

#[test]
fn every_file_the_texts_name_exists() {
    let root = repo_root();
    let procedure = root.join("skills/review/references/procedure.md");
    assert!(procedure.is_file());
    check_named_files(&procedure, Some(&root.join("skills/review")));
    for dir in skill_dirs() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                check_named_files(&path, Some(&dir));
            }
        }
    }
}

#[test]
fn the_mention_checks_can_fail() {
    let dir = Project::new();
    let file = dir.path("SKILL.md");
    fs::write(&file, "Run `<skill-dir>/scripts/missing`.\n").unwrap();
    assert!(std::panic::catch_unwind(|| check_named_files(&file, Some(dir.root()))).is_err());
    fs::write(&file, "See [the procedure](references/none.md).\n").unwrap();
    assert!(std::panic::catch_unwind(|| check_named_files(&file, None)).is_err());
    fs::write(&file, "Start `rule-fairy:no-such-agent`.\n").unwrap();
    assert!(std::panic::catch_unwind(|| check_named_files(&file, None)).is_err());
}

#[test]
fn agents_are_read_only_reviewers() {
    let mut agents: Vec<PathBuf> = fs::read_dir(repo_root().join("agents"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    agents.sort();
    assert!(agents.iter().any(|a| a.ends_with("rules-reviewer.md")));
    for agent in agents {
        let fields = frontmatter(&agent);
        let stem = agent.file_stem().unwrap().to_str().unwrap();
        assert_eq!(field(&fields, "name"), Some(stem));
        assert!(!field(&fields, "description").unwrap_or("").is_empty());
        let list = |key: &str| -> Vec<String> {
            field(&fields, key)
                .unwrap_or("")
                .split(',')
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect()
        };
        let writers = ["Write", "Edit", "MultiEdit", "NotebookEdit", "Bash"];
        let tools = list("tools");
        assert!(
            !tools.is_empty(),
            "{stem}: an allowlist, not every tool inherited"
        );
        assert!(
            tools.iter().all(|t| !writers.contains(&t.as_str())),
            "{stem}: {tools:?}"
        );
        let denied = list("disallowedTools");
        assert!(
            writers.iter().all(|w| denied.iter().any(|d| d == w)),
            "{stem}: {denied:?}"
        );
        check_named_files(&agent, None);
    }
}

/// A copy of one skill's launcher in a plugin layout of its own, so the
/// launcher's "checkout" is the copy and not this repository.
fn installed_skill(skill: &str) -> (Project, PathBuf) {
    let rel = format!("skills/{skill}/scripts/run");
    let plugin = installed(&rel);
    let launcher = plugin.path(&rel);
    (plugin, launcher)
}

fn bare_env(sandbox: &Project) -> Vec<(&'static str, String)> {
    vec![
        ("PATH", "/usr/bin:/bin".to_string()),
        ("HOME", sandbox.home().display().to_string()),
    ]
}

/// The launcher's own failure (no program found): exit 1, `Error: ...`.
fn assert_launcher_fails(out: &std::process::Output, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("Error: ") && err.contains(message), "{err}");
}

#[test]
fn launchers_find_the_program_in_turn() {
    for (skill, check) in [
        ("review", "usage: review fetch"),
        ("review-plan", "usage: review-plan paths"),
    ] {
        let sandbox = Project::new();
        let (plugin, launcher) = installed_skill(skill);
        let run = |env: &[(&str, String)], args: &[&str]| {
            sandbox.command(&launcher).args(args).envs(env).output()
        };

        // None anywhere: a clear error, nothing written.
        let out = run(&bare_env(&sandbox), &["clean"]);
        assert_launcher_fails(
            &out,
            "the rule-fairy program was not found (not on PATH, in npm's global or the project's node_modules, in ~/.cargo/bin or in ",
        );
        assert!(stderr(&out).contains("Install it: npm install -g rule-fairy (or"));

        // The plugin's own build, then ~/.cargo/bin, then PATH, then RULE_FAIRY_BIN.
        let plugin = plugin.root();
        let install = |dir: &Path| {
            fs::create_dir_all(dir).unwrap();
            std::os::unix::fs::symlink(BIN, dir.join("rule-fairy")).unwrap();
        };
        install(&plugin.join("target/release"));
        assert_fails(&run(&bare_env(&sandbox), &[]), check);
        install(&sandbox.home().join(".cargo/bin"));
        assert_fails(&run(&bare_env(&sandbox), &[]), check);
        let path_dir = sandbox.beside("on-path");
        install(&path_dir);
        let mut env = bare_env(&sandbox);
        env[0].1 = format!("{}:/usr/bin:/bin", path_dir.display());
        assert_fails(&run(&env, &[]), check);
        let old = sandbox.beside("old").join("rule-fairy");
        write_program(
            &old,
            "#!/bin/sh\necho \"error: unrecognized subcommand '$1'\" >&2\nexit 2\n",
        );
        env.push(("RULE_FAIRY_BIN", old.display().to_string()));
        let out = run(&env, &["clean"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stderr(&out).contains("does not understand"),
            "{}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("it is older than this plugin"));
        // The program's own usage error, exit 2 too, is passed on as it is.
        let env = vec![("RULE_FAIRY_BIN", BIN.to_string())];
        let out = run(&env, &["nonsense"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(!stderr(&out).contains("older"), "{}", stderr(&out));
        assert!(stderr(&out).contains(check), "{}", stderr(&out));

        // Found and working: arguments pass through unchanged.
        let env = vec![("RULE_FAIRY_BIN", BIN.to_string())];
        let out = run(&env, &["clean"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).starts_with("Removed "), "{}", stdout(&out));
    }
}

#[test]
fn help_is_the_usage_on_every_review_subcommand() {
    let p = Project::new();
    for args in [
        &["review", "--help"][..],
        &["review", "fetch", "--help"],
        &["review-plan", "paths", "-h"],
    ] {
        let out = p.command(BIN).args(args).output();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        // Clap's help for the command, the usage of its subcommands below it.
        let said = stdout(&out);
        assert!(
            said.contains("fetch") || said.contains("paths"),
            "{args:?}: {said}"
        );
    }
}
