//! `rule-fairy doctor` over temporary homes: Claude Code's configuration
//! with the plugin installed and enabled, disabled, or not installed; a
//! Codex home with the plugin and a stand-in `codex app-server` answering
//! `hooks/list`; corrupt and unreadable files; projects with problems of
//! their own. Doctor reports each and goes on, and writes nothing.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

use crate::util::*;

const VERSION: &str = env!("CARGO_PKG_VERSION");
const ID: &str = "rule-fairy@rule-fairy";

/// A project with one rule, its homes beside it, and a directory of
/// stand-in programs that alone makes up `PATH` with the system's.
struct Setup {
    p: Project,
    bin: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let p = Project::new();
        p.dir(".git");
        p.rule(
            "base.mdc",
            "---\nalwaysApply: true\n---\n# Base\n\nKeep it small.\n",
        );
        let bin = p.beside("bin");
        fs::create_dir_all(&bin).unwrap();
        Setup { p, bin }
    }

    fn claude_dir(&self) -> PathBuf {
        self.p.home().join(".claude")
    }

    fn codex_dir(&self) -> PathBuf {
        self.p.home().join(".codex")
    }

    /// A program in `bin`, a shell script.
    fn program(&self, name: &str, script: &str) {
        let path = self.bin.join(name);
        write_program(&path, format!("#!/bin/sh\n{script}"));
    }

    /// Claude Code's record of an install, as `claude plugin install`
    /// writes it (version 2: a list of installs per plugin).
    fn claude_installed(&self, enabled: Option<bool>) {
        let plugin = self
            .claude_dir()
            .join("plugins/cache/rule-fairy/rule-fairy")
            .join(VERSION);
        write(
            &plugin.join(".claude-plugin/plugin.json"),
            &json!({"name": "rule-fairy", "version": VERSION}).to_string(),
        );
        write(
            &self.claude_dir().join("plugins/installed_plugins.json"),
            &json!({"version": 2, "plugins": {ID: [{
                "scope": "user", "installPath": plugin, "version": VERSION,
                "installedAt": "2026-01-01T00:00:00.000Z",
                "lastUpdated": "2026-01-01T00:00:00.000Z"}]}})
            .to_string(),
        );
        let mut settings = json!({});
        if let Some(on) = enabled {
            settings["enabledPlugins"] = json!({ID: on});
        }
        write(
            &self.claude_dir().join("settings.json"),
            &settings.to_string(),
        );
    }

    fn claude_version(&self, version: &str) {
        self.program("claude", &format!("echo '{version} (Claude Code)'\n"));
    }

    /// The plugin in the Codex home as `codex plugin add` leaves it.
    fn codex_installed(&self, plugin_version: &str, enabled: bool) {
        write(
            &self.codex_dir().join("config.toml"),
            &format!("model = \"gpt-5.5\"\n\n[plugins.\"{ID}\"]\nenabled = {enabled}\n"),
        );
        write(
            &self
                .codex_dir()
                .join("plugins/cache/rule-fairy/rule-fairy")
                .join(plugin_version)
                .join(".codex-plugin/plugin.json"),
            &json!({"name": "rule-fairy", "version": plugin_version}).to_string(),
        );
    }

    /// A stand-in `codex` whose app-server lists two of the plugin's hooks
    /// with these trust states, and one hook of another plugin.
    fn codex_lists(&self, states: [&str; 2]) {
        let hook = |event: &str, state: &str, plugin: &str| {
            json!({"key": format!("{plugin}:hooks/codex-hooks.json:{event}:0:0"),
                   "eventName": event, "command": "run", "pluginId": plugin,
                   "currentHash": "sha256:aa/sha256:bb", "trustStatus": state})
        };
        let answer = json!({"data": [{"hooks": [
            hook("userPromptSubmit", states[0], ID),
            hook("postToolUse", states[1], ID),
            hook("postToolUse", "untrusted", "other@market"),
        ]}]});
        self.program(
            "codex",
            &format!(
                r#"[ "$1" = app-server ] || exit 2
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  [ -n "$id" ] || continue
  case "$line" in
    *'"hooks/list"'*) printf '{{"id":%s,"result":%s}}\n' "$id" '{answer}' ;;
    *) printf '{{"id":%s,"result":{{}}}}\n' "$id" ;;
  esac
done
"#
            ),
        );
    }

    fn doctor(&self, args: &[&str]) -> Output {
        self.p
            .rule_fairy()
            .env("PATH", format!("{}:/usr/bin:/bin", self.bin.display()))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .arg("doctor")
            .args(args)
            .output()
    }

    /// `doctor --json`: the report and the exit status.
    fn report(&self) -> (Value, i32) {
        let out = self.doctor(&["--json"]);
        let report = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
        (report, out.status.code().unwrap_or(-1))
    }
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// The check `id` of section `section`; panics naming what the report holds.
fn check<'a>(report: &'a Value, section: &str, id: &str) -> &'a Value {
    report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == section)
        .and_then(|s| {
            s["checks"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["id"] == id)
        })
        .unwrap_or_else(|| panic!("no check {section}/{id} in {report:#}"))
}

fn status<'a>(report: &'a Value, section: &str, id: &str) -> &'a str {
    check(report, section, id)["status"].as_str().unwrap()
}

#[test]
fn claude_code_with_the_plugin_installed_and_enabled_is_in_order() {
    let s = Setup::new();
    s.claude_installed(Some(true));
    s.claude_version("2.1.328");
    let (report, code) = s.report();
    assert_eq!(status(&report, "claudeCode", "plugin"), "ok", "{report:#}");
    assert_eq!(status(&report, "claudeCode", "enabled"), "ok");
    assert_eq!(status(&report, "claudeCode", "pluginVersion"), "ok");
    let version = check(&report, "claudeCode", "version");
    assert_eq!(version["status"], "ok");
    assert_eq!(version["version"], "2.1.328 (Claude Code)");
    assert_eq!(check(&report, "program", "version")["version"], VERSION);
    assert_eq!(code, 0, "{report:#}");
}

#[test]
fn a_disabled_plugin_is_broken_with_the_command_that_enables_it() {
    let s = Setup::new();
    s.claude_installed(Some(false));
    let (report, code) = s.report();
    let enabled = check(&report, "claudeCode", "enabled");
    assert_eq!(enabled["status"], "broken");
    assert_eq!(
        enabled["fix"],
        format!("claude plugin enable {ID} --scope user")
    );
    assert_eq!(code, 1);
    // Named in no settings file, it is off too.
    s.claude_installed(None);
    let (report, code) = s.report();
    assert_eq!(status(&report, "claudeCode", "enabled"), "broken");
    assert_eq!(code, 1);
}

#[test]
fn the_project_s_own_settings_decide_over_the_user_s() {
    let s = Setup::new();
    s.claude_installed(Some(true));
    s.p.write(
        ".claude/settings.local.json",
        json!({"enabledPlugins": {ID: false}}).to_string(),
    );
    let (report, _) = s.report();
    let enabled = check(&report, "claudeCode", "enabled");
    assert_eq!(enabled["status"], "broken");
    assert_eq!(enabled["scope"], "local");
    assert_eq!(
        enabled["fix"],
        format!("claude plugin enable {ID} --scope local")
    );
}

#[test]
fn no_plugin_is_a_warning_with_the_install_commands_and_no_claude_is_unknown() {
    let s = Setup::new();
    let (report, code) = s.report();
    let plugin = check(&report, "claudeCode", "plugin");
    assert_eq!(plugin["status"], "warning");
    assert!(plugin["fix"]
        .as_str()
        .unwrap()
        .contains("claude plugin install rule-fairy@rule-fairy"));
    let version = check(&report, "claudeCode", "version");
    assert_eq!(version["status"], "ok", "not an error: {version}");
    assert!(version["detail"].as_str().unwrap().starts_with("unknown"));
    assert_eq!(status(&report, "codex", "plugin"), "warning");
    assert_eq!(code, 0, "{report:#}");
}

#[test]
fn a_claude_code_too_old_for_mods_is_broken() {
    let s = Setup::new();
    s.claude_installed(Some(true));
    s.claude_version("2.1.325");
    let (report, code) = s.report();
    let version = check(&report, "claudeCode", "version");
    assert_eq!(version["status"], "broken");
    assert!(version["fix"].as_str().unwrap().contains("2.1.326"));
    assert_eq!(code, 1);
    // Without the plugin, nothing is there for it to load.
    fs::remove_dir_all(s.claude_dir()).unwrap();
    let (report, code) = s.report();
    assert_eq!(status(&report, "claudeCode", "version"), "warning");
    assert_eq!(code, 0);
}

#[test]
fn corrupt_claude_code_files_are_reported_and_the_rest_goes_on() {
    let s = Setup::new();
    s.claude_installed(Some(true));
    write(
        &s.claude_dir().join("settings.json"),
        "{\"enabledPlugins\": ",
    );
    let (report, code) = s.report();
    let enabled = check(&report, "claudeCode", "enabled");
    assert_eq!(enabled["status"], "broken");
    assert!(enabled["detail"]
        .as_str()
        .unwrap()
        .contains("not valid JSON"));
    assert_eq!(code, 1);
    write(
        &s.claude_dir().join("plugins/installed_plugins.json"),
        "not json",
    );
    let (report, _) = s.report();
    let plugin = check(&report, "claudeCode", "plugin");
    assert_eq!(plugin["status"], "broken");
    assert!(plugin["fix"]
        .as_str()
        .unwrap()
        .contains("installed_plugins.json"));
    // The other sections are all there.
    assert_eq!(status(&report, "project", "rules"), "ok");
    assert_eq!(status(&report, "codex", "plugin"), "warning");
}

#[test]
fn codex_hooks_trusted_and_unchanged_are_in_order() {
    let s = Setup::new();
    s.codex_installed(VERSION, true);
    s.codex_lists(["trusted", "trusted"]);
    let (report, code) = s.report();
    assert_eq!(status(&report, "codex", "plugin"), "ok", "{report:#}");
    assert_eq!(status(&report, "codex", "pluginVersion"), "ok");
    let trust = check(&report, "codex", "trust");
    assert_eq!(trust["status"], "ok", "{trust}");
    assert_eq!(
        trust["hooks"].as_array().unwrap().len(),
        2,
        "only the plugin's own"
    );
    assert_eq!(code, 0, "{report:#}");
}

#[test]
fn codex_hooks_changed_since_trusted_are_broken_with_the_trust_fix() {
    let s = Setup::new();
    s.codex_installed(VERSION, true);
    s.codex_lists(["modified", "untrusted"]);
    let (report, code) = s.report();
    let trust = check(&report, "codex", "trust");
    assert_eq!(trust["status"], "broken");
    assert_eq!(trust["fix"], "rule-fairy codex trust");
    let detail = trust["detail"].as_str().unwrap();
    assert!(
        detail.contains("1 changed since they were trusted"),
        "{detail}"
    );
    assert!(detail.contains("1 never trusted"), "{detail}");
    assert_eq!(code, 1);
    let text = stdout(&s.doctor(&[]));
    assert!(
        text.lines().any(|l| l.starts_with("  broken  hook trust: ")
            && l.ends_with("(fix: rule-fairy codex trust)")),
        "{text}"
    );
}

#[test]
fn without_codex_on_path_the_trust_is_unchecked_and_broken_only_with_the_plugin() {
    let s = Setup::new();
    let (report, code) = s.report();
    assert_eq!(status(&report, "codex", "trust"), "ok");
    assert_eq!(code, 0);
    s.codex_installed(VERSION, true);
    let (report, code) = s.report();
    let trust = check(&report, "codex", "trust");
    assert_eq!(trust["status"], "broken");
    assert!(trust["detail"].as_str().unwrap().contains("not on PATH"));
    assert_eq!(code, 1);
}

#[test]
fn a_disabled_codex_plugin_and_a_version_apart_are_told() {
    let s = Setup::new();
    s.codex_installed("0.0.1", false);
    s.codex_lists(["trusted", "trusted"]);
    let (report, code) = s.report();
    let plugin = check(&report, "codex", "plugin");
    assert_eq!(plugin["status"], "broken");
    assert!(plugin["fix"].as_str().unwrap().contains("enabled = true"));
    let version = check(&report, "codex", "pluginVersion");
    assert_eq!(version["status"], "warning");
    assert_eq!(version["version"], "0.0.1");
    // The program to the plugin's version first, npm then cargo; or the plugin.
    let fix = version["fix"].as_str().unwrap();
    assert!(
        fix.starts_with("bring the program to the plugin's version: npm install -g rule-fairy@0.0.1 (or with cargo: cargo install --locked --force --git "),
        "{fix}"
    );
    assert!(
        fix.ends_with("; or update the plugin: codex plugin marketplace upgrade rule-fairy, codex plugin add rule-fairy@rule-fairy, then rule-fairy codex trust"),
        "{fix}"
    );
    assert_eq!(code, 1);
}

#[test]
fn a_corrupt_codex_config_is_reported_and_the_rest_goes_on() {
    let s = Setup::new();
    s.codex_installed(VERSION, true);
    write(
        &s.codex_dir().join("config.toml"),
        "[plugins.\"rule-fairy@rule-fairy\"\nenabled = ",
    );
    let (report, code) = s.report();
    let config = check(&report, "codex", "config");
    assert_eq!(config["status"], "broken");
    assert!(config["detail"]
        .as_str()
        .unwrap()
        .contains("not valid TOML"));
    assert_eq!(status(&report, "project", "rules"), "ok");
    assert_eq!(code, 1);
}

#[test]
fn an_unreadable_codex_home_is_reported_and_the_rest_goes_on() {
    let s = Setup::new();
    s.codex_installed(VERSION, true);
    let home = s.codex_dir();
    fs::set_permissions(&home, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read_dir(&home).is_ok() {
        fs::set_permissions(&home, fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("skipped: this test runs with a user that reads a directory of mode 000 (root), so no home is unreadable to it");
        return;
    }
    let (report, code) = s.report();
    fs::set_permissions(&home, fs::Permissions::from_mode(0o755)).unwrap();
    let check = check(&report, "codex", "home");
    assert_eq!(check["status"], "broken");
    assert!(check["fix"].as_str().unwrap().contains("readable"));
    assert_eq!(status(&report, "project", "check"), "ok");
    assert_eq!(code, 1);
}

#[test]
fn a_missing_project_is_reported_and_the_hosts_still_are() {
    let s = Setup::new();
    let missing = s.p.root().parent().unwrap().join("no-such-project");
    let out = s.doctor(&["--json", "--project", missing.to_str().unwrap()]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let project = check(&report, "project", "project");
    assert_eq!(project["status"], "broken");
    assert!(project["detail"]
        .as_str()
        .unwrap()
        .contains("does not exist"));
    assert_eq!(status(&report, "claudeCode", "plugin"), "warning");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_state_directory_that_is_a_file_or_a_link_is_broken() {
    let s = Setup::new();
    s.p.write(".rule-fairy", "not a directory");
    let (report, code) = s.report();
    let state = check(&report, "project", "stateDir");
    assert_eq!(state["status"], "broken");
    assert!(state["fix"]
        .as_str()
        .unwrap()
        .contains("remove or rename the file .rule-fairy"));
    assert_eq!(code, 1);
    s.p.remove(".rule-fairy");
    s.p.dir(".rule-fairy");
    s.p.link(".rule-fairy/codex", s.p.home());
    let (report, _) = s.report();
    let state = check(&report, "project", "stateDir");
    assert_eq!(state["status"], "broken");
    assert!(state["detail"]
        .as_str()
        .unwrap()
        .contains(".rule-fairy/codex is a symbolic link"));
}

#[test]
fn the_rules_are_counted_by_source_and_check_s_findings_by_severity() {
    let s = Setup::new();
    s.p.write("rule-fairy.edn", "{:formats [:claude]}\n")
        .write(".claude/rules/style.md", "# Style\n\nShort lines.\n")
        .write(".cursorrules", "Legacy rule.\n")
        .write(
            "services/api/.cursor/rules/api.mdc",
            "---\nglobs: src/**\n---\n# API\n",
        )
        .rule("quoted.mdc", "---\nalwaysApply: \"true\"\n---\n# Quoted\n");
    let (report, code) = s.report();
    let rules = check(&report, "project", "rules");
    assert_eq!(rules["rules"], 5, "{rules:#}");
    let places: Vec<(&str, &str, &str, u64)> = rules["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["place"].as_str().unwrap(),
                s["format"].as_str().unwrap(),
                s["kind"].as_str().unwrap(),
                s["rules"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        places,
        vec![
            (".claude/rules", "Claude Code", "folder", 1),
            (".cursor/rules", "Cursor", "folder", 2),
            (".cursorrules", "Cursor", "file", 1),
            ("services/api/.cursor/rules", "Cursor", "nested", 1),
        ]
    );
    let findings = check(&report, "project", "check");
    assert_eq!(findings["status"], "broken");
    assert_eq!(findings["errors"], 1, "the quoted alwaysApply");
    assert_eq!(code, 1);
}

#[test]
fn the_gate_s_rules_are_counted() {
    let s = Setup::new();
    s.p.write(
        ".kairoku/rules/no-eval.yml",
        "id: no-eval\nlanguage: TypeScript\nseverity: error\nmessage: Do not call eval.\nrule:\n  pattern: eval($X)\n",
    );
    let (report, _) = s.report();
    let gate = check(&report, "project", "gate");
    assert_eq!(gate["status"], "ok", "{gate}");
    assert_eq!(gate["hasRules"], true);
    assert_eq!(gate["built"], true);
    assert!(gate["detail"]
        .as_str()
        .unwrap()
        .starts_with("1 ast-grep rule"));
    s.p.write(".kairoku/rules/no-eval.yml", "id: [unclosed\n");
    let (report, code) = s.report();
    assert_eq!(status(&report, "project", "gate"), "broken");
    assert_eq!(code, 1);
}

/// Every path below `root` with its kind, mode, size, time and bytes.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let meta = fs::symlink_metadata(&path).unwrap();
            let content = if meta.is_file() {
                fs::read(&path)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default()
            } else if meta.file_type().is_symlink() {
                fs::read_link(&path).unwrap().display().to_string()
            } else {
                stack.push(path.clone());
                String::new()
            };
            out.insert(
                path,
                format!(
                    "{:?} {:o} {} {:?} {content}",
                    meta.file_type(),
                    meta.permissions().mode(),
                    meta.len(),
                    meta.modified().ok()
                ),
            );
        }
    }
    out
}

#[test]
fn doctor_writes_nothing_whatever_it_finds() {
    let s = Setup::new();
    s.claude_installed(Some(false));
    s.claude_version("2.1.328");
    s.codex_installed("0.0.1", true);
    s.codex_lists(["modified", "trusted"]);
    s.p.write(".rule-fairy", "a file")
        .write("rule-fairy.edn", "{:rules {:dirs [\"missing\"]}}\n")
        .write(".claude/settings.json", "{broken");
    let base = s.p.root().parent().unwrap().to_path_buf();
    let before = snapshot(&base);
    assert!(before.len() > 10, "the snapshot sees the trees");
    let (_, code) = s.report();
    let text = s.doctor(&[]);
    assert_eq!(code, 1);
    assert_eq!(text.status.code(), Some(1));
    assert_eq!(snapshot(&base), before);
}

#[test]
fn a_codex_home_that_is_not_a_directory_cannot_be_read_and_is_reported() {
    // Unreadable even to root, unlike a directory of mode 000.
    let s = Setup::new();
    write(&s.codex_dir(), "not a directory");
    let (report, code) = s.report();
    let home = check(&report, "codex", "home");
    assert_eq!(home["status"], "broken");
    assert!(home["detail"].as_str().unwrap().starts_with("cannot read"));
    let codex = report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "codex")
        .unwrap();
    let ids: Vec<&str> = codex["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["home"],
        "no trust to ask of Codex when the home cannot be read"
    );
    assert_eq!(status(&report, "project", "rules"), "ok");
    assert_eq!(code, 1);
}
