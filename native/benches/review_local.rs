//! `rule-fairy review fetch --local` then `review bundle` for a 500-file
//! change in a 20,000-file repository, as the review skill runs them: whole
//! processes, start to exit. Target: the pair within 1 s. Run with
//! `scripts/bench`; prints medians.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const FILES: usize = 20_000;
const CHANGED: usize = 500;
const MODULES: usize = 200;

fn git(root: &Path, home: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .env("HOME", home)
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write(path: &Path, content: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

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
fn repository(root: &Path, home: &Path) {
    write(&home.join(".gitconfig"), "");
    for i in 0..FILES {
        write(
            &root.join(format!("src/mod{:03}/file{i:05}.ts", i % MODULES)),
            &source(i, "v1"),
        );
    }
    let mut guide = String::from("# Guide\n");
    for section in 0..20 {
        guide.push_str(&format!("\n## Section {section}\n\nWhat section {section} asks of the code, in a few sentences of guidance.\n"));
    }
    write(&root.join("docs/guide.md"), &guide);
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
        write(
            &root.join(format!(".cursor/rules/group{}/rule{r:02}.mdc", r % 6)),
            &format!("---\ndescription: rule {r}\n{front}\n---\n# Rule {r}\n\nWhat rule {r} requires.\n{import}"),
        );
    }
    write(
        &root.join("AGENTS.md"),
        "# Agents\n\nRun the tests before committing.\n",
    );
    write(&root.join("CLAUDE.md"), "# Claude\n\n@AGENTS.md\n");
    for m in (0..MODULES).step_by(20) {
        write(
            &root.join(format!("src/mod{m:03}/AGENTS.md")),
            &format!("# Module {m}\n\nKeep module {m} small.\n"),
        );
    }
    git(root, home, &["init", "-q", "--initial-branch=main"]);
    git(root, home, &["add", "-A"]);
    git(root, home, &["commit", "-q", "-m", "base"]);
    let path = |i: usize| root.join(format!("src/mod{:03}/file{i:05}.ts", i % MODULES));
    let step = FILES / CHANGED;
    for n in 0..CHANGED {
        let i = n * step;
        match n % 5 {
            0 | 1 => write(&path(i), &source(i, "v2")),
            2 => {
                write(&path(i), &source(i, "v2"));
                git(root, home, &["add", "--", path(i).to_str().unwrap()]);
            }
            3 => {
                let moved = root.join(format!("src/mod{:03}/moved{i:05}.ts", i % MODULES));
                fs::rename(path(i), moved).unwrap();
            }
            _ => write(
                &root.join(format!("src/new/untracked{n:03}.ts")),
                &source(n, "new"),
            ),
        }
    }
}

fn run(binary: &str, root: &Path, home: &Path, args: &[&str]) -> Duration {
    let start = Instant::now();
    let out = Command::new(binary)
        .args(args)
        .current_dir(root)
        .env("HOME", home)
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("RULE_FAIRY_PROJECT_DIR")
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    let dir = tempfile::tempdir().unwrap();
    let (root, home) = (dir.path().join("repo"), dir.path().join("home"));
    repository(&root, &home);
    let binary = env!("CARGO_BIN_EXE_rule-fairy");
    let out = Command::new(binary)
        .args(["review", "fetch", "--local"])
        .current_dir(&root)
        .env("HOME", &home)
        .output()
        .unwrap();
    println!("{}", String::from_utf8_lossy(&out.stdout).trim());
    let (mut fetches, mut bundles, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..13 {
        let fetch = run(binary, &root, &home, &["review", "fetch", "--local"]);
        let bundle = run(binary, &root, &home, &["review", "bundle"]);
        // The first rounds warm the file system cache.
        if round >= 2 {
            fetches.push(fetch);
            bundles.push(bundle);
            pairs.push(fetch + bundle);
        }
    }
    let report = fs::read_to_string(root.join(".rule-fairy/review/diff/rules.md")).unwrap();
    println!("{}", report.lines().take(6).collect::<Vec<_>>().join("\n"));
    println!(
        "review, {FILES} files, {CHANGED}-file change ({} runs): fetch --local median {:.0} ms, bundle median {:.0} ms, both median {:.0} ms (target 1000 ms)",
        pairs.len(),
        ms(median(fetches)),
        ms(median(bundles)),
        ms(median(pairs))
    );
}
