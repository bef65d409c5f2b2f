//! Temporary projects for the gate's tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Project {
        Project {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, path: &str, text: &str) -> &Self {
        let full = self.dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
        self
    }

    pub fn remove(&self, path: &str) {
        std::fs::remove_file(self.dir.path().join(path)).unwrap();
    }

    pub fn git(&self, args: &[&str]) -> String {
        let output = Command::new("git")
            .arg("-C")
            .arg(self.root())
            .args(args)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.root())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    pub fn commit_all(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    pub fn init_git(&self) {
        self.git(&["init", "-q", "-b", "main"]);
    }
}

pub fn paths(list: &[&str]) -> Vec<PathBuf> {
    list.iter().map(PathBuf::from).collect()
}

/// A TypeScript rule against `eval(...)`, with a note citing its defect.
pub const NO_EVAL: &str = "id: no-eval
language: TypeScript
severity: error
message: Do not call eval on $ARG.
note: |-
  PR #12 defect 1: eval ran a string from the request body.
  Parse it instead.
rule:
  pattern: eval($ARG)
";

pub const NO_CONSOLE_WARNING: &str = "id: no-console
language: TypeScript
severity: warning
message: Use the logger.
rule:
  pattern: console.log($$$)
";
