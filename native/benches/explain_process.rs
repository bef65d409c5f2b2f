//! A whole `rule-fairy explain --json` process on a generated 200-rule
//! project, start to exit, as a hook host would run it. Run with
//! `scripts/bench`; prints medians.

use std::time::Instant;

use rule_fairy_test_support::{median_time, stderr, Project};

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
    for (label, dir, args) in cases {
        let run = || {
            let start = Instant::now();
            let out = dir.command(binary).args(&args).output();
            assert!(out.status.success(), "{}", stderr(&out));
            start.elapsed()
        };
        let median = median_time(5, 51, run);
        println!(
            "explain --json, 200 rules, {label}: median {:.2} ms wall (51 runs)",
            median.as_secs_f64() * 1e3
        );
    }
}
