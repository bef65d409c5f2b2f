//! Whole `rule-fairy doctor --json` processes on a generated 200-rule
//! project, start to exit: with no host set up, and with Claude Code's
//! plugin installed and enabled. Neither starts `codex app-server` (no
//! codex on PATH); what starting it once costs is timed on its own, with
//! the Codex pinned in tests/codex when it is installed. Run with
//! `scripts/bench`; prints medians.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use rule_fairy_test_support::{median_time, stderr, Project};

fn project() -> Project {
    let p = Project::new();
    p.dir(".git");
    p.generated_rules(200);
    p
}

/// Claude Code's record of the plugin installed and enabled, in the
/// project's home, as `claude plugin install` writes it.
fn claude_installed(p: &Project) {
    let config = p.home().join(".claude");
    let plugin = config.join("plugins/cache/rule-fairy/rule-fairy/0.1.0");
    std::fs::create_dir_all(plugin.join(".claude-plugin")).unwrap();
    std::fs::write(
        plugin.join(".claude-plugin/plugin.json"),
        format!(
            r#"{{"name": "rule-fairy", "version": "{}"}}"#,
            env!("CARGO_PKG_VERSION")
        ),
    )
    .unwrap();
    std::fs::write(
        config.join("plugins/installed_plugins.json"),
        format!(
            r#"{{"version": 2, "plugins": {{"rule-fairy@rule-fairy": [{{"scope": "user", "installPath": "{}"}}]}}}}"#,
            plugin.display()
        ),
    )
    .unwrap();
    std::fs::write(
        config.join("settings.json"),
        r#"{"enabledPlugins": {"rule-fairy@rule-fairy": true}}"#,
    )
    .unwrap();
}

fn time_doctor(label: &str, p: &Project) {
    let binary = env!("CARGO_BIN_EXE_rule-fairy");
    let run = || {
        let start = Instant::now();
        let out = p
            .command(binary)
            .env("PATH", "/usr/bin:/bin")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("RULE_FAIRY_PROJECT_DIR")
            .args(["doctor", "--json"])
            .output();
        assert!(out.status.success(), "{}", stderr(&out));
        start.elapsed()
    };
    let median = median_time(5, 51, run);
    println!(
        "doctor --json, 200 rules, {label}: median {:.2} ms wall (51 runs)",
        median.as_secs_f64() * 1e3
    );
}

/// Starting `codex app-server` and its answer to `initialize`, as doctor
/// and `codex trust` start it, in an empty Codex home.
fn time_app_server(codex: &Path) {
    let home = tempfile::tempdir().unwrap();
    let run = || {
        let start = Instant::now();
        let mut child = Command::new(codex)
            .arg("app-server")
            .env("CODEX_HOME", home.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("codex starts");
        let mut stdin = child.stdin.take().unwrap();
        writeln!(
            stdin,
            r#"{{"id":1,"method":"initialize","params":{{"clientInfo":{{"name":"bench","version":"0"}}}}}}"#
        )
        .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let answered = lines.any(|line| line.is_ok_and(|l| l.contains(r#""id":1"#)));
        let elapsed = start.elapsed();
        assert!(answered, "codex app-server answered initialize");
        let _ = child.kill();
        let _ = child.wait();
        elapsed
    };
    let median = median_time(2, 11, run);
    println!(
        "codex app-server started and initialized: median {:.2} ms wall (11 runs)",
        median.as_secs_f64() * 1e3
    );
}

fn main() {
    let bare = project();
    time_doctor("no host set up", &bare);
    let claude = project();
    claude_installed(&claude);
    time_doctor("Claude Code's plugin installed and enabled", &claude);
    let codex =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/codex/node_modules/.bin/codex");
    if codex.exists() {
        time_app_server(&codex);
    } else {
        println!(
            "codex app-server: skipped, {} is not installed (npm ci --prefix tests/codex)",
            codex.display()
        );
    }
}
