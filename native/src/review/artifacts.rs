//! Where a review's files live: `.rule-fairy/review/<mode>/` in the
//! project, one directory per mode so a diff review and a plan review in
//! the same checkout never overwrite each other. The review root carries a
//! `.gitignore` holding `*`, so the repository needs no ignore rule.
//! Artifacts belong to one run: `fetch` (and a plan `bundle`) start from an
//! empty directory, and `clean` removes it once the report is out.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Diff,
    Plan,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Diff => "diff",
            Mode::Plan => "plan",
        }
    }
}

pub(super) struct ReviewDir {
    root: PathBuf,
    dir: PathBuf,
}

impl ReviewDir {
    pub(super) fn new(project: &Path, mode: Mode) -> ReviewDir {
        let root = project.join(".rule-fairy").join("review");
        let dir = root.join(mode.name());
        ReviewDir { root, dir }
    }

    pub(super) fn path(&self) -> &Path {
        &self.dir
    }

    pub(super) fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Creates the directory and the review root's `.gitignore`.
    pub(super) fn prepare(&self) -> Result<(), String> {
        fs::create_dir_all(&self.dir).map_err(|e| failed("create", &self.dir, e))?;
        let ignore = self.root.join(".gitignore");
        if !ignore.exists() {
            fs::write(&ignore, "*\n").map_err(|e| failed("write", &ignore, e))?;
        }
        Ok(())
    }

    /// Deletes the directory. A link inside is removed, never followed; so
    /// is the directory itself when it is a link. Nothing there is fine.
    pub(super) fn clean(&self) -> Result<(), String> {
        let result = match fs::symlink_metadata(&self.dir) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Ok(meta) if meta.is_dir() => fs::remove_dir_all(&self.dir),
            _ => fs::remove_file(&self.dir),
        };
        result.map_err(|e| failed("remove", &self.dir, e))
    }

    /// Writes one artifact.
    pub(super) fn write(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
        let file = self.file(name);
        fs::write(&file, bytes).map_err(|e| failed("write", &file, e))?;
        Ok(file)
    }

    /// Removes one artifact when it is there.
    pub(super) fn remove(&self, name: &str) -> Result<(), String> {
        let file = self.file(name);
        match fs::remove_file(&file) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(failed("remove", &file, e)),
            _ => Ok(()),
        }
    }
}

fn failed(action: &str, path: &Path, error: io::Error) -> String {
    format!("Cannot {action} {}: {error}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_have_separate_directories_under_a_self_ignored_root() {
        let project = tempfile::tempdir().unwrap();
        let diff = ReviewDir::new(project.path(), Mode::Diff);
        let plan = ReviewDir::new(project.path(), Mode::Plan);
        assert!(diff.path().ends_with(".rule-fairy/review/diff"));
        assert!(plan.path().ends_with(".rule-fairy/review/plan"));
        plan.prepare().unwrap();
        plan.write("rules.md", b"# Review bundle\n").unwrap();
        assert_eq!(
            fs::read_to_string(project.path().join(".rule-fairy/review/.gitignore")).unwrap(),
            "*\n"
        );
        assert!(!diff.path().exists());
        assert!(!project.path().join(".rule-fairy/.gitignore").exists());
    }

    #[test]
    fn clean_removes_links_without_following_them_and_keeps_the_root() {
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("keep.txt"), "keep").unwrap();
        let plan = ReviewDir::new(project.path(), Mode::Plan);
        plan.prepare().unwrap();
        std::os::unix::fs::symlink(outside.path(), plan.file("link")).unwrap();
        plan.clean().unwrap();
        assert!(!plan.path().exists());
        assert!(outside.path().join("keep.txt").exists());
        assert!(project
            .path()
            .join(".rule-fairy/review/.gitignore")
            .exists());
        plan.clean().unwrap();
        plan.remove("rules.md").unwrap();
    }
}
