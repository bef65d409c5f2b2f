//! Shared by the review tests: real git repositories, the bundles the
//! review commands write, and the repository most diff tests start from.

use std::process::Output;

use serde_json::Value;

use super::{stderr, stdout, Project};

pub(crate) const DIFF_DIR: &str = ".rule-fairy/review/diff";
pub(crate) const PLAN_DIR: &str = ".rule-fairy/review/plan";

/// A git repository on `main` with no commit.
pub(crate) fn repo() -> Project {
    let repo = Project::new();
    repo.init_git();
    repo
}

/// What the review commands leave in a project.
pub(crate) trait Review {
    /// The `meta.json` of the bundle directory `dir`.
    fn meta(&self, dir: &str) -> Value;

    /// The patch `review fetch` wrote.
    fn patch(&self) -> String;
}

impl Review for Project {
    fn meta(&self, dir: &str) -> Value {
        serde_json::from_str(&self.read(&format!("{dir}/meta.json"))).unwrap()
    }

    fn patch(&self) -> String {
        self.read(&format!("{DIFF_DIR}/patch.diff"))
    }
}

/// Asserts a failure: exit 2 and `Error: ` followed by text holding `message`.
pub(crate) fn assert_fails(out: &Output, message: &str) {
    let err = stderr(out);
    // A review that cannot be made could not run: exit 2 (the policy).
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("Error: "), "{err}");
    assert!(err.contains(message), "expected {message:?} in {err}");
    assert!(out.stdout.is_empty(), "{}", stdout(out));
}

/// How many `diff --git` headers of a patch name `path` on their first side.
pub(crate) fn header_count(patch: &str, path: &str) -> usize {
    patch
        .lines()
        .filter(|line| line.starts_with(&format!("diff --git a/{path} ")))
        .count()
}

pub(crate) fn strings(value: &Value) -> Vec<String> {
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
pub(crate) fn feature_repo() -> Project {
    let repo = repo();
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
