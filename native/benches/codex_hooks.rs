//! Whole `rule-fairy codex prompt` processes, start to exit, as Codex runs
//! them: wall time and peak memory (maximum resident set) on a generated
//! 200-rule project, and the transcript scan on a 100 MB transcript, first
//! in full and then only what each later event appended. Run with
//! `scripts/bench`; prints medians. Linux only (peak memory comes from
//! Linux's `wait4` accounting).

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use rule_fairy_test_support::{feed, hello_world, measure, Measured, Project};

const RULES: usize = 200;
const RUNS: usize = 51;

fn project() -> Project {
    let p = Project::new();
    p.dir(".git");
    p.rule(
        "base.mdc",
        "---\nalwaysApply: true\n---\n# Base\n\nKeep changes small.\n",
    )
    .generated_rules(RULES - 1);
    p
}

/// A transcript of about `bytes`, in Codex's rollout shape, with a
/// compaction record every 10,000 lines; returns how many it wrote.
fn transcript(path: &Path, bytes: usize) -> u64 {
    let mut out = BufWriter::new(File::create(path).unwrap());
    let filler = "x".repeat(900);
    let mut written = 0;
    let mut ordinal = 0;
    let mut compactions = 0;
    while written < bytes {
        ordinal += 1;
        let line = if ordinal % 10_000 == 0 {
            compactions += 1;
            format!("{{\"timestamp\":\"2026-11-30T02:00:47.000Z\",\"ordinal\":{ordinal},\"type\":\"compacted\",\"payload\":{{\"message\":\"summary\",\"replacement_history\":[]}}}}\n")
        } else {
            format!("{{\"timestamp\":\"2026-11-30T02:00:47.000Z\",\"ordinal\":{ordinal},\"type\":\"response_item\",\"payload\":{{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"{filler}\"}}}}\n")
        };
        out.write_all(line.as_bytes()).unwrap();
        written += line.len();
    }
    compactions
}

/// One hook process with `input` on stdin, timed from spawn to exit, with
/// its peak memory.
fn run_prompt(p: &Project, input: &str) -> Measured {
    let start = Instant::now();
    let mut child = p
        .command(env!("CARGO_BIN_EXE_rule-fairy"))
        .args(["codex", "prompt"])
        .env_remove("RULE_FAIRY_PROJECT_DIR")
        .discard_output()
        .spawn();
    feed(&mut child, input.as_bytes());
    let run = measure(child, start);
    assert!(run.status.success(), "hook failed: {:?}", run.status);
    run
}

fn input(session: &str, prompt: &str, transcript: Option<&Path>) -> String {
    serde_json::json!({
        "session_id": session, "turn_id": "t", "transcript_path": transcript,
        "cwd": "/ignored", "hook_event_name": "UserPromptSubmit", "model": "gpt-5.5",
        "permission_mode": "bypassPermissions", "prompt": prompt,
    })
    .to_string()
}

fn median<T: Ord + Copy>(mut values: Vec<T>) -> T {
    values.sort();
    values[values.len() / 2]
}

fn report(label: &str, runs: Vec<Measured>, floor: Duration) {
    let n = runs.len();
    let wall = median(runs.iter().map(|r| r.wall).collect());
    let rss = median(runs.iter().map(|r| r.max_rss_kib).collect());
    let worst_rss = runs.iter().map(|r| r.max_rss_kib).max().unwrap();
    println!(
        "{label}: median {:.2} ms wall ({:.2}x the floor), median peak memory {:.1} MB (largest {:.1} MB), {n} runs",
        wall.as_secs_f64() * 1e3,
        wall.as_secs_f64() / floor.as_secs_f64(),
        rss as f64 / 1024.0,
        worst_rss as f64 / 1024.0
    );
}

fn main() {
    if !cfg!(all(target_os = "linux", target_pointer_width = "64")) {
        println!("codex_hooks: skipped, peak memory is read with 64-bit Linux's wait4");
        return;
    }
    let p = project();
    let prompt = "refactor topic7 and keep feature42x, area 3 too";
    let small: PathBuf = p.path("rollout-small.jsonl");
    transcript(&small, 64 * 1024);

    // The floor: a hello-world process built with the same profile, timed
    // the same way, so each hook reads as a ratio to what any process costs.
    let hello = hello_world();
    let floor = median(
        (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                let run = measure(
                    Command::new(&hello)
                        .stdout(std::process::Stdio::null())
                        .spawn()
                        .unwrap(),
                    start,
                );
                assert!(run.status.success());
                run.wall
            })
            .collect(),
    );
    println!(
        "floor, a hello-world of the same profile: median {:.2} ms wall, {RUNS} runs",
        floor.as_secs_f64() * 1e3
    );

    // The rules reach the model: a fresh session on every run.
    let mut session = 0;
    let mut fresh = || {
        session += 1;
        run_prompt(
            &p,
            &input(&format!("fresh-{session}"), prompt, Some(&small)),
        )
    };
    for _ in 0..5 {
        fresh();
    }
    report(
        "codex prompt, 200 rules, 4 rules delivered",
        (0..RUNS).map(|_| fresh()).collect(),
        floor,
    );

    // Everything already delivered: the common case after the first prompt.
    let steady = input("steady", prompt, Some(&small));
    run_prompt(&p, &steady);
    report(
        "codex prompt, 200 rules, nothing due",
        (0..RUNS).map(|_| run_prompt(&p, &steady)).collect(),
        floor,
    );

    // The transcript scan: a 100 MB transcript read in full by a session's
    // first event, then only what was appended before each later event.
    let big = p.path("rollout-100mb.jsonl");
    let compactions = transcript(&big, 100 * 1024 * 1024);
    let size_mb = fs::metadata(&big).unwrap().len() as f64 / (1024.0 * 1024.0);
    let quiet = "nothing here";
    let mut first = 0;
    let full: Vec<Measured> = (0..11)
        .map(|_| {
            first += 1;
            run_prompt(&p, &input(&format!("scan-{first}"), quiet, Some(&big)))
        })
        .collect();
    report(
        &format!("codex prompt, first event on a {size_mb:.0} MB transcript (full scan)"),
        full,
        floor,
    );
    let later_input = input("scan-1", quiet, Some(&big));
    let line = format!(
        "{{\"timestamp\":\"t\",\"ordinal\":1,\"type\":\"event_msg\",\"payload\":{{\"text\":\"{}\"}}}}\n",
        "y".repeat(8 * 1024)
    );
    let later: Vec<Measured> = (0..RUNS)
        .map(|_| {
            let mut file = fs::OpenOptions::new().append(true).open(&big).unwrap();
            for _ in 0..8 {
                file.write_all(line.as_bytes()).unwrap();
            }
            run_prompt(&p, &later_input)
        })
        .collect();
    report(
        "codex prompt, later event on the same transcript (64 KB appended)",
        later,
        floor,
    );
    let state: serde_json::Value =
        serde_json::from_slice(&fs::read(p.path(".rule-fairy/codex/scan-1.json")).unwrap())
            .unwrap();
    assert_eq!(
        state["transcript_scan"]["scanned_bytes"].as_u64(),
        Some(fs::metadata(&big).unwrap().len()),
        "the cursor reached the end"
    );
    // A first read takes only the transcript's last 64 MiB (behaviour
    // §5.3), so it counts the compactions there, not all of them.
    let counted = state["transcript_scan"]["compaction_count"]
        .as_u64()
        .unwrap();
    assert!(
        counted > 0 && counted <= compactions,
        "{counted} of {compactions} compactions counted"
    );
}
