//! A whole `rule-fairy explain --json` process, start to exit, as a hook
//! host would run it: on a generated 200-rule project, and on 10,000 rules
//! with the project cache warm and cold (behaviour §5.1, "Rule changes"),
//! each beside a hello-world floor, the large one with its peak memory
//! against the rules' text. Run with `scripts/bench`; prints medians.

use std::fs;
use std::time::{Duration, Instant};

use rule_fairy_test_support::{hello_world, measure, median_time, stderr, Measured, Project};

fn project(rules: usize) -> Project {
    let p = Project::new();
    p.dir(".git");
    p.generated_rules(rules);
    p
}

/// The same project with 50 of its rules requestable (a description and no
/// trigger), for the index and mentions (behaviour §9).
fn requested_project() -> Project {
    let p = project(150);
    for i in 0..50 {
        p.rule(
            &format!("asked/rule{i:04}.mdc"),
            format!("---\ndescription: requestable rule {i}, for the index\n---\n# Asked {i}\n\nBody.\n"),
        );
    }
    p
}

fn main() {
    let dir = project(200);
    let requested = requested_project();
    let binary = env!("CARGO_BIN_EXE_rule-fairy");
    let cases: [(&str, &Project, Vec<&str>); 3] = [
        (
            "prompt",
            &dir,
            vec![
                "explain",
                "--json",
                "--prompt",
                "refactor topic7 and keep feature42x, area 3 too",
            ],
        ),
        (
            "path",
            &dir,
            vec!["explain", "--json", "--path", "src/mod100/deep/file.ts"],
        ),
        (
            "prompt, 50 requestable rules and 3 mentions",
            &requested,
            vec![
                "explain",
                "--json",
                "--prompt",
                "refactor topic7, use @rule0003 and @asked/rule0010 and @nothing-here",
            ],
        ),
    ];
    let hello = hello_world();
    let floor = median_time(5, 51, || {
        let start = Instant::now();
        let status = std::process::Command::new(&hello)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        start.elapsed()
    });
    println!(
        "floor, a hello-world of the same profile: median {:.2} ms wall (51 runs)",
        ms(floor)
    );
    for (label, dir, args) in cases {
        let run = || {
            let start = Instant::now();
            let out = dir.command(binary).args(&args).output();
            assert!(out.status.success(), "{}", stderr(&out));
            start.elapsed()
        };
        let median = median_time(5, 51, run);
        println!(
            "explain --json, 200 rules, {label}: median {:.2} ms wall ({:.2}x the floor, 51 runs)",
            ms(median),
            ratio(median, floor)
        );
    }
    large(binary, floor);
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn ratio(d: Duration, floor: Duration) -> f64 {
    d.as_secs_f64() / floor.as_secs_f64()
}

/// 10,000 rules: a prompt with the cache warm, then with it removed before
/// every run (each run loads every rule and writes the cache again).
fn large(binary: &str, floor: Duration) {
    const RULES: usize = 10_000;
    let dir = project(RULES);
    let text: u64 = fs::read_dir(dir.path(".cursor/rules/gen"))
        .unwrap()
        .map(|entry| entry.unwrap().metadata().unwrap().len())
        .sum();
    let args = [
        "explain",
        "--json",
        "--prompt",
        "refactor topic7 and keep feature42x",
    ];
    let run = || {
        let start = Instant::now();
        let child = dir.command(binary).args(args).discard_output().spawn();
        let run = measure(child, start);
        assert!(run.status.success(), "explain failed: {:?}", run.status);
        run
    };
    let cache = dir.path(".rule-fairy/cache/project.bin");
    let warm: Vec<Measured> = (0..26).map(|_| run()).skip(5).collect();
    assert!(cache.exists(), "the cache was written");
    let cold: Vec<Measured> = (0..11)
        .map(|_| {
            fs::remove_file(&cache).unwrap();
            run()
        })
        .collect();
    for (label, runs) in [("warm cache", warm), ("cold cache", cold)] {
        let n = runs.len();
        let mut walls: Vec<Duration> = runs.iter().map(|r| r.wall).collect();
        walls.sort();
        let mut peaks: Vec<i64> = runs.iter().map(|r| r.max_rss_kib).collect();
        peaks.sort();
        let (wall, peak) = (walls[n / 2], peaks[n / 2]);
        println!(
            "explain --json, {RULES} rules, prompt, {label}: median {:.2} ms wall ({:.2}x the floor), peak memory {:.1} MB ({:.1}x the rules' {:.1} MB of text), {n} runs",
            ms(wall),
            ratio(wall, floor),
            peak as f64 / 1024.0,
            (peak as f64 * 1024.0) / text as f64,
            text as f64 / (1024.0 * 1024.0),
        );
    }
}
