//! Whole `rule-fairy codex prompt` processes, start to exit, as Codex runs
//! them: wall time and peak memory (maximum resident set) on a generated
//! 200-rule project, and the transcript scan on a 100 MB transcript, first
//! in full and then only what each later event appended. Run with
//! `scripts/bench`; prints medians. Linux only (peak memory comes from
//! Linux's `wait4` accounting).

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

use rule_fairy_test_support::{feed, Project};

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

struct Run {
    wall: Duration,
    max_rss_kib: i64,
}

/// One hook process with `input` on stdin, timed from spawn to exit, its
/// peak memory read from the kernel's accounting when it is reaped (with
/// `wait4`, which `Child::wait` cannot report, hence the lint).
#[allow(clippy::zombie_processes)]
fn run_prompt(p: &Project, input: &str) -> Run {
    let start = Instant::now();
    let mut child = p
        .command(env!("CARGO_BIN_EXE_rule-fairy"))
        .args(["codex", "prompt"])
        .env_remove("RULE_FAIRY_PROJECT_DIR")
        .discard_output()
        .spawn();
    feed(&mut child, input.as_bytes());
    let (status, max_rss_kib) = reap(child.id() as i32);
    let wall = start.elapsed();
    assert!(status.success(), "hook failed: {status:?}");
    Run { wall, max_rss_kib }
}

/// `struct rusage` of 64-bit Linux: two `timeval`s, then fourteen longs,
/// the first of which is the peak resident set in KiB. Declared here rather
/// than through a bindings crate, for this one call of one benchmark.
#[repr(C)]
struct Rusage {
    user_time: [i64; 2],
    system_time: [i64; 2],
    max_rss_kib: i64,
    rest: [i64; 13],
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, usage: *mut Rusage) -> i32;
}

/// Waits for our child `pid`: its exit status and peak memory in KiB.
fn reap(pid: i32) -> (ExitStatus, i64) {
    let mut status = 0;
    let mut usage = Rusage {
        user_time: [0; 2],
        system_time: [0; 2],
        max_rss_kib: 0,
        rest: [0; 13],
    };
    // SAFETY: `pid` is an unreaped child of this process, and both pointers
    // are valid for writes of their types.
    let reaped = unsafe { wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 failed");
    (ExitStatus::from_raw(status), usage.max_rss_kib)
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

fn report(label: &str, runs: Vec<Run>) {
    let n = runs.len();
    let wall = median(runs.iter().map(|r| r.wall).collect());
    let rss = median(runs.iter().map(|r| r.max_rss_kib).collect());
    let worst_rss = runs.iter().map(|r| r.max_rss_kib).max().unwrap();
    println!(
        "{label}: median {:.2} ms wall, median peak memory {:.1} MB (largest {:.1} MB), {n} runs",
        wall.as_secs_f64() * 1e3,
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

    // What any process costs on this machine right now, to read the rest by.
    let baseline: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let status = Command::new("true").status().unwrap();
            assert!(status.success());
            start.elapsed()
        })
        .collect();
    println!(
        "baseline, an empty process (true): median {:.2} ms wall, {RUNS} runs",
        median(baseline).as_secs_f64() * 1e3
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
    );

    // Everything already delivered: the common case after the first prompt.
    let steady = input("steady", prompt, Some(&small));
    run_prompt(&p, &steady);
    report(
        "codex prompt, 200 rules, nothing due",
        (0..RUNS).map(|_| run_prompt(&p, &steady)).collect(),
    );

    // The transcript scan: a 100 MB transcript read in full by a session's
    // first event, then only what was appended before each later event.
    let big = p.path("rollout-100mb.jsonl");
    let compactions = transcript(&big, 100 * 1024 * 1024);
    let size_mb = fs::metadata(&big).unwrap().len() as f64 / (1024.0 * 1024.0);
    let quiet = "nothing here";
    let mut first = 0;
    let full: Vec<Run> = (0..11)
        .map(|_| {
            first += 1;
            run_prompt(&p, &input(&format!("scan-{first}"), quiet, Some(&big)))
        })
        .collect();
    report(
        &format!("codex prompt, first event on a {size_mb:.0} MB transcript (full scan)"),
        full,
    );
    let later_input = input("scan-1", quiet, Some(&big));
    let line = format!(
        "{{\"timestamp\":\"t\",\"ordinal\":1,\"type\":\"event_msg\",\"payload\":{{\"text\":\"{}\"}}}}\n",
        "y".repeat(8 * 1024)
    );
    let later: Vec<Run> = (0..RUNS)
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
