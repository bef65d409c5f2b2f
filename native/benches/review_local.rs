//! `rule-fairy review fetch --local` then `review bundle` for a 500-file
//! change in a 20,000-file repository, as the review skill runs them: whole
//! processes, start to exit. Target: the pair within 1 s. Run with
//! `scripts/bench`; prints medians.

use std::fs;
use std::time::{Duration, Instant};

use rule_fairy_test_support::{stderr, stdout, Project};

const FILES: usize = 20_000;
const CHANGED: usize = 500;
const MODULES: usize = 200;

fn source(i: usize, version: &str) -> String {
    format!(
        "// module {m}, file {i} ({version})\nexport function f{i}(x: number): number {{\n  return x * {i} + {m};\n}}\n",
        m = i % MODULES
    )
}

/// 20,000 files in 200 modules, 60 rules (globs per module group, some
/// always-on, some importing a documentation section), instruction files
/// at the root and in some modules; committed, then 500 files changed:
/// edits, staged edits, renames made outside git and new untracked files.
fn repository(p: &Project) {
    for i in 0..FILES {
        p.write(
            &format!("src/mod{:03}/file{i:05}.ts", i % MODULES),
            source(i, "v1"),
        );
    }
    let mut guide = String::from("# Guide\n");
    for section in 0..20 {
        guide.push_str(&format!("\n## Section {section}\n\nWhat section {section} asks of the code, in a few sentences of guidance.\n"));
    }
    p.write("docs/guide.md", &guide);
    for r in 0..60 {
        let (front, import) = match r % 10 {
            0 => ("alwaysApply: true".to_string(), String::new()),
            1 => (
                format!("globs: src/mod{:03}/**", r),
                format!("\n@docs/guide.md#section-{}\n", r % 20),
            ),
            _ => (
                format!("globs: src/mod{:02}*/**/*.ts, **/file{:03}*.ts", r % 20, r),
                String::new(),
            ),
        };
        p.rule(
            &format!("group{}/rule{r:02}.mdc", r % 6),
            format!("---\ndescription: rule {r}\n{front}\n---\n# Rule {r}\n\nWhat rule {r} requires.\n{import}"),
        );
    }
    p.write(
        "AGENTS.md",
        "# Agents\n\nRun the tests before committing.\n",
    );
    p.write("CLAUDE.md", "# Claude\n\n@AGENTS.md\n");
    for m in (0..MODULES).step_by(20) {
        p.write(
            &format!("src/mod{m:03}/AGENTS.md"),
            format!("# Module {m}\n\nKeep module {m} small.\n"),
        );
    }
    p.init_git().commit_all("base");
    let path = |i: usize| format!("src/mod{:03}/file{i:05}.ts", i % MODULES);
    let step = FILES / CHANGED;
    for n in 0..CHANGED {
        let i = n * step;
        match n % 5 {
            0 | 1 => {
                p.write(&path(i), source(i, "v2"));
            }
            2 => {
                p.write(&path(i), source(i, "v2"));
                p.git(&["add", "--", &path(i)]);
            }
            3 => {
                let moved = format!("src/mod{:03}/moved{i:05}.ts", i % MODULES);
                fs::rename(p.path(path(i)), p.path(moved)).unwrap();
            }
            _ => {
                p.write(&format!("src/new/untracked{n:03}.ts"), source(n, "new"));
            }
        }
    }
}

fn run(p: &Project, binary: &str, args: &[&str]) -> Duration {
    let start = Instant::now();
    let out = p
        .command(binary)
        .args(args)
        .env_remove("RULE_FAIRY_PROJECT_DIR")
        .output();
    let elapsed = start.elapsed();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    elapsed
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let p = Project::new();
    repository(&p);
    let binary = env!("CARGO_BIN_EXE_rule-fairy");
    let out = p
        .command(binary)
        .args(["review", "fetch", "--local"])
        .output();
    println!("{}", stdout(&out).trim());
    let (mut fetches, mut bundles, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..13 {
        let fetch = run(&p, binary, &["review", "fetch", "--local"]);
        let bundle = run(&p, binary, &["review", "bundle"]);
        // The first rounds warm the file system cache.
        if round >= 2 {
            fetches.push(fetch);
            bundles.push(bundle);
            pairs.push(fetch + bundle);
        }
    }
    let report = p.read(".rule-fairy/review/diff/rules.md");
    println!("{}", report.lines().take(6).collect::<Vec<_>>().join("\n"));
    println!(
        "review, {FILES} files, {CHANGED}-file change ({} runs): fetch --local median {:.0} ms, bundle median {:.0} ms, both median {:.0} ms (target 1000 ms)",
        pairs.len(),
        ms(median(fetches)),
        ms(median(bundles)),
        ms(median(pairs))
    );
}
