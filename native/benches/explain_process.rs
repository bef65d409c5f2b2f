//! A whole `rule-fairy explain --json` process on a generated 200-rule
//! project, start to exit, as a hook host would run it. Run with
//! `scripts/bench`; prints medians.

use std::fs;
use std::process::Command;
use std::time::{Duration, Instant};

fn project(rules: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(".cursor/rules/gen");
    fs::create_dir_all(&root).unwrap();
    fs::create_dir(dir.path().join(".git")).unwrap();
    for i in 0..rules {
        let text = format!(
            "---\ndescription: generated rule {i}\nglobs: src/mod{i}/**/*.ts, **/*_{i}.test.ts\npromptAnyOf: topic{i}, feature{i}x, area {i}\n---\n# Rule {i}\n\nBody of rule {i}, a few lines long.\n\n- one\n- two\n"
        );
        fs::write(root.join(format!("rule{i:04}.mdc")), text).unwrap();
    }
    dir
}

fn median_of(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..runs).map(|_| f()).collect();
    times.sort();
    times[runs / 2]
}

fn main() {
    let dir = project(200);
    let binary = env!("CARGO_BIN_EXE_rule-fairy");
    let cases: [(&str, Vec<&str>); 2] = [
        (
            "prompt",
            vec![
                "explain",
                "--json",
                "--prompt",
                "refactor topic7 and keep feature42x, area 3 too",
            ],
        ),
        (
            "path",
            vec!["explain", "--json", "--path", "src/mod100/deep/file.ts"],
        ),
    ];
    for (label, args) in cases {
        let run = || {
            let start = Instant::now();
            let out = Command::new(binary)
                .args(&args)
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            start.elapsed()
        };
        for _ in 0..5 {
            run();
        }
        let median = median_of(51, run);
        println!(
            "explain --json, 200 rules, {label}: median {:.2} ms wall (51 runs)",
            median.as_secs_f64() * 1e3
        );
    }
}
