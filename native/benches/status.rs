//! Whole `rule-fairy status --json` processes on a generated 200-rule
//! project with 50 session files, start to exit, beside the floor of a
//! process of the same binary that does nothing (`--version`). Half the
//! sessions are Codex's, made by real hook runs (a prompt and ten edits
//! each); half are Claude Code's, each holding a full journal (the 100
//! deliveries a journal keeps), the largest a state file gets. Run with
//! `scripts/bench`; prints medians.

use std::time::{Duration, Instant};

use rule_fairy_test_support::{median_time, stderr, Project};

const BINARY: &str = env!("CARGO_BIN_EXE_rule-fairy");

/// A Codex session of a prompt and ten edits, through the real hooks.
fn codex_session(p: &Project, session: &str) {
    let hook = |name: &str, input: String| {
        let out = p
            .command(BINARY)
            .args(["codex", name])
            .env("RULE_FAIRY_PROJECT_DIR", p.root())
            .stdin(input)
            .output();
        assert!(out.status.success(), "{}", stderr(&out));
    };
    hook(
        "prompt",
        format!(
            r#"{{"session_id":"{session}","hook_event_name":"UserPromptSubmit","prompt":"topic1 topic2 feature3x","cwd":"/","model":"gpt-5.5"}}"#
        ),
    );
    for i in 0..10 {
        let patch =
            format!("*** Begin Patch\\n*** Add File: src/mod{i}/a.ts\\n+x\\n*** End Patch\\n");
        hook(
            "post-tool",
            format!(
                r#"{{"session_id":"{session}","hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{{"command":"{patch}"}},"tool_response":"Success.","cwd":"/","model":"gpt-5.5"}}"#
            ),
        );
    }
}

/// A Claude Code state file holding a full journal.
fn claude_session(p: &Project, session: &str, at: i64) {
    let delivery = |k: i64| {
        format!(
            r#"{{"atMs":{},"event":"prompt","rules":[{{"name":"gen/rule{:04}.mdc","reasons":[{{"kind":"keyword","keywords":["topic{k}"]}}],"chars":120}}],"chars":400}}"#,
            at + k,
            k % 200
        )
    };
    let deliveries: Vec<String> = (0..100).map(delivery).collect();
    p.write(
        &format!(".rule-fairy/claude/{session}.json"),
        format!(
            r#"{{"delivered":{{}},"shell":{{"checked_at_ms":{at},"pending":[]}},"journal":{{"deliveries":[{}],"totals":{{"deliveries":100,"rules":100,"chars":40000}}}},"ts":{at}}}"#,
            deliveries.join(",")
        ),
    );
}

fn time(label: &str, p: &Project, args: &[&str]) -> Duration {
    let run = || {
        let start = Instant::now();
        let out = p.command(BINARY).args(args).output();
        assert!(out.status.success(), "{}", stderr(&out));
        start.elapsed()
    };
    let median = median_time(5, 51, run);
    println!(
        "{label}: median {:.2} ms wall (51 runs)",
        median.as_secs_f64() * 1e3
    );
    median
}

fn main() {
    let p = Project::new();
    p.dir(".git");
    p.generated_rules(200);
    for s in 0..25 {
        codex_session(&p, &format!("codex-{s:02}"));
        claude_session(&p, &format!("claude-{s:02}"), 1_796_000_000_000 + s);
    }
    let floor = time("rule-fairy --version (the floor)", &p, &["--version"]);
    let all = time(
        "status --json, 200 rules, 50 sessions",
        &p,
        &["status", "--json"],
    );
    let latest = time(
        "status --latest, 200 rules, 50 sessions",
        &p,
        &["status", "--latest"],
    );
    println!(
        "ratios to the floor: all sessions {:.1}, the latest {:.1}",
        all.as_secs_f64() / floor.as_secs_f64(),
        latest.as_secs_f64() / floor.as_secs_f64()
    );
}
