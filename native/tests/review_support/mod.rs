//! Shared by the review tests: real git repositories in temporary
//! directories, isolated from the machine's git configuration, and the
//! built `rule-fairy` run in them the way the skills' launchers run it.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

pub const DIFF_DIR: &str = ".rule-fairy/review/diff";
pub const PLAN_DIR: &str = ".rule-fairy/review/plan";

/// A temporary directory with its own home and git configuration, so no
/// setting of the machine's (a global ignore file, `diff.noprefix`, a
/// signing key) reaches the test.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let sandbox = Sandbox {
            dir: tempfile::tempdir().unwrap(),
        };
        fs::create_dir_all(sandbox.home()).unwrap();
        fs::write(sandbox.home().join(".gitconfig"), "").unwrap();
        sandbox
    }

    pub fn path(&self) -> PathBuf {
        fs::canonicalize(self.dir.path()).unwrap()
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// A directory below the sandbox, created.
    pub fn dir(&self, rel: &str) -> PathBuf {
        let path = self.path().join(rel);
        fs::create_dir_all(&path).unwrap();
        path
    }

    fn env(&self, command: &mut Command) {
        command
            .env("HOME", self.home())
            .env("GIT_CONFIG_GLOBAL", self.home().join(".gitconfig"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .env_remove("RULE_FAIRY_PROJECT_DIR")
            .env_remove("GIT_DIR")
            .env_remove("GIT_INDEX_FILE")
            .env_remove("GIT_WORK_TREE");
    }

    /// Runs git in `dir`; panics when it fails.
    pub fn git(&self, dir: &Path, args: &[&str]) -> String {
        let mut command = Command::new("git");
        command.args(args).current_dir(dir);
        self.env(&mut command);
        let out = command.output().unwrap();
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// Runs a program with the sandbox's environment plus `env`.
    pub fn run_program(
        &self,
        program: &Path,
        dir: &Path,
        args: &[&str],
        env: &[(&str, String)],
    ) -> Output {
        let mut command = Command::new(program);
        command.args(args).current_dir(dir);
        self.env(&mut command);
        for (key, value) in env {
            command.env(key, value);
        }
        command.output().unwrap()
    }

    /// Runs the built `rule-fairy` in `dir`.
    pub fn rule_fairy(&self, dir: &Path, args: &[&str], env: &[(&str, String)]) -> Output {
        self.run_program(Path::new(env!("CARGO_BIN_EXE_rule-fairy")), dir, args, env)
    }
}

/// A project in a directory of a sandbox, with or without git.
pub struct Repo {
    pub sandbox: Sandbox,
    root: PathBuf,
}

impl Repo {
    /// A git repository on `main` with no commit.
    pub fn new() -> Repo {
        let repo = Repo::plain();
        repo.git(&["init", "-q", "--initial-branch=main"]);
        repo
    }

    /// A project directory outside any repository.
    pub fn plain() -> Repo {
        let sandbox = Sandbox::new();
        let root = sandbox.dir("project");
        Repo { sandbox, root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
        self
    }

    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn exists(&self, rel: &str) -> bool {
        fs::symlink_metadata(self.path(rel)).is_ok()
    }

    /// A symbolic link at `rel` pointing at `target` as written.
    pub fn link(&self, rel: &str, target: impl AsRef<Path>) -> &Self {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = fs::remove_file(&path);
        std::os::unix::fs::symlink(target, path).unwrap();
        self
    }

    pub fn git(&self, args: &[&str]) -> String {
        self.sandbox.git(&self.root, args)
    }

    pub fn commit_all(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    /// `rule-fairy <args>` run from the project root.
    pub fn run(&self, args: &[&str]) -> Output {
        self.sandbox.rule_fairy(&self.root, args, &[])
    }

    pub fn run_with(&self, args: &[&str], env: &[(&str, String)]) -> Output {
        self.sandbox.rule_fairy(&self.root, args, env)
    }

    /// Runs and expects success; returns standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    }

    pub fn meta(&self, dir: &str) -> Value {
        serde_json::from_str(&self.read(&format!("{dir}/meta.json"))).unwrap()
    }

    pub fn patch(&self) -> String {
        self.read(&format!("{DIFF_DIR}/patch.diff"))
    }
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts a failure: exit 1 and `Error: ` followed by text holding `message`.
pub fn assert_fails(out: &Output, message: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("Error: "), "{err}");
    assert!(err.contains(message), "expected {message:?} in {err}");
    assert!(out.stdout.is_empty(), "{}", stdout(out));
}

/// How many `diff --git` headers of a patch name `path` on their first side.
pub fn header_count(patch: &str, path: &str) -> usize {
    patch
        .lines()
        .filter(|line| line.starts_with(&format!("diff --git a/{path} ")))
        .count()
}

pub fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// The repository most diff tests start from (behaviour §7.14, case 170):
/// `main` with a source file, a document, a rule and `CLAUDE.md`, a GitHub
/// origin; a `feature` branch with one more commit; then `src/a.clj`
/// modified and `src/new file.clj` untracked.
pub fn feature_repo() -> Repo {
    let repo = Repo::new();
    repo.git(&["remote", "add", "origin", "git@github.com:owner/repo.git"]);
    repo.write("src/a.clj", "old\n")
        .write(
            "docs/base.md",
            "a document committed on main, long enough for rename detection\n",
        )
        .write(
            ".cursor/rules/r.mdc",
            "---\nglobs: src/**\n---\n# R\n\nRule body.\n",
        )
        .write("CLAUDE.md", "Repository instructions.");
    repo.commit_all("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("docs/x.md", "docs\n");
    repo.commit_all("docs");
    repo.write("src/a.clj", "new\n")
        .write("src/new file.clj", "untracked\n");
    repo
}
