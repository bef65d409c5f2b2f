//! The Codex shell hook on a change of 25,000 and 100,000 untracked files,
//! beside `git status` alone on the same tree: the hook runs that one git
//! command, reads the times of the files some rule could select and
//! selects, so its cost should stay close to git's (target: within 1.2
//! times; behaviour §5.4). Two cases: no rule matches the files (none is
//! timed, nothing is printed), and a rule matches every file (each is
//! timed and delivered, and the list is cleared). Run with `scripts/bench`; prints medians.

use std::fs;
use std::process::Command;
use std::time::{Duration, Instant};

use rule_fairy_test_support::{stdout, Project};

const RUNS: usize = 7;

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn input(session: &str, event: &str) -> String {
    let common = serde_json::json!({
        "session_id": session, "turn_id": "t", "transcript_path": null, "cwd": "/ignored",
        "model": "gpt-5.5", "permission_mode": "bypassPermissions",
    });
    let mut value = common;
    let extra = if event == "prompt" {
        serde_json::json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"})
    } else {
        serde_json::json!({"hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": "generate"}, "tool_response": "", "tool_use_id": "c"})
    };
    for (key, v) in extra.as_object().unwrap() {
        value[key] = v.clone();
    }
    value.to_string()
}

fn hook(p: &Project, which: &str, session: &str) -> (Duration, String) {
    let event = if which == "prompt" {
        "prompt"
    } else {
        "post-tool"
    };
    let start = Instant::now();
    let out = p
        .command(env!("CARGO_BIN_EXE_rule-fairy"))
        .args(["codex", event])
        .env_remove("RULE_FAIRY_PROJECT_DIR")
        .stdin(input(session, which))
        .output();
    let took = start.elapsed();
    assert!(out.status.success(), "hook failed: {out:?}");
    (took, stdout(&out))
}

fn git_status(p: &Project) -> Duration {
    let start = Instant::now();
    let out = Command::new("git")
        .args(["status", "--porcelain=v1", "-z", "--untracked-files=all"])
        .current_dir(p.root())
        .output()
        .unwrap();
    assert!(out.status.success());
    start.elapsed()
}

fn main() {
    if Command::new("git").arg("--version").output().is_err() {
        println!("shell_hook: skipped, git is not installed");
        return;
    }
    println!(
        "{:>8}  {:>12}  {:>12}  {:>12}  {:>8}",
        "files", "rules match", "git status", "shell hook", "ratio"
    );
    for count in [25_000, 100_000] {
        for matching in [false, true] {
            let p = Project::new();
            p.init_git();
            p.git(&["commit", "-q", "--allow-empty", "-m", "start"]);
            let glob = if matching { "gen/**" } else { "src/**" };
            p.write("rule-fairy.edn", "{:shell-hook {:codex true}}")
                .rule(
                    "wide.mdc",
                    format!("---\nglobs: {glob}\n---\n# Wide\n\nA rule."),
                );
            p.commit_all("rules");
            let mut git = Vec::new();
            let mut hooks = Vec::new();
            for run in 0..RUNS {
                let session = format!("s{run}");
                // The prompt starts the check; then the files appear.
                hook(&p, "prompt", &session);
                for i in 0..count {
                    let dir = p.path(format!("gen/d{}", i % 250));
                    if i < 250 {
                        fs::create_dir_all(&dir).unwrap();
                    }
                    fs::write(dir.join(format!("f{i}.txt")), "x").unwrap();
                }
                git.push(git_status(&p));
                let (took, out) = hook(&p, "post-tool", &session);
                assert_eq!(
                    out.trim().is_empty(),
                    !matching,
                    "{}",
                    &out[..out.len().min(300)]
                );
                hooks.push(took);
                fs::remove_dir_all(p.path("gen")).unwrap();
            }
            let (git, hook) = (median(git), median(hooks));
            println!(
                "{count:>8}  {:>12}  {:>12}  {:>12}  {:>8}",
                if matching { "all" } else { "none" },
                ms(git),
                ms(hook),
                format!("{:.2}x", hook.as_secs_f64() / git.as_secs_f64())
            );
        }
    }
}
