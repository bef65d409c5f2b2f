//! Where a review's files live: `.rule-fairy/review/<mode>/` in the
//! project, one directory per mode so a diff review and a plan review in
//! the same checkout never overwrite each other. The review root carries a
//! `.gitignore` holding `*`, so the repository needs no ignore rule.
//! Artifacts belong to one run: `fetch` (and a plan `bundle`) start by
//! removing the last run's, and `clean` removes them once the report is
//! out.
//!
//! Nothing is written, read or deleted through a link (behaviour §5.1,
//! "Containment of writes"): every directory on the way from the project
//! root is checked, and a link there refuses the command; only the files a
//! review writes are removed, by their names, and the directory itself
//! only once it is empty. Never recursively.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::owned_dir;

/// Every file a review writes, the only ones `clean` removes.
const ARTIFACTS: [&str; 3] = ["patch.diff", "meta.json", "rules.md"];

/// The largest artifact read back (a patch of a large change).
const READ_CAP: u64 = 256 * 1024 * 1024;

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
    project: PathBuf,
    mode: Mode,
    root: PathBuf,
    dir: PathBuf,
}

impl ReviewDir {
    pub(super) fn new(project: &Path, mode: Mode) -> ReviewDir {
        let root = project.join(".rule-fairy").join("review");
        let dir = root.join(mode.name());
        ReviewDir {
            project: project.to_path_buf(),
            mode,
            root,
            dir,
        }
    }

    fn parts(&self) -> [&'static str; 3] {
        [".rule-fairy", "review", self.mode.name()]
    }

    pub(super) fn path(&self) -> &Path {
        &self.dir
    }

    pub(super) fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The directory when it exists; a link (or a file) on the way to it
    /// is an error naming it.
    fn existing(&self) -> Result<Option<PathBuf>, String> {
        owned_dir::existing(&self.project, &self.parts())
    }

    /// Creates the directory and the review root's `.gitignore`.
    pub(super) fn prepare(&self) -> Result<(), String> {
        owned_dir::prepare(&self.project, &self.parts())?;
        let ignore = self.root.join(".gitignore");
        match fs::symlink_metadata(&ignore) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                owned_dir::write_file(&ignore, b"*\n").map_err(|e| failed("write", &ignore, e))
            }
            _ => Ok(()),
        }
    }

    /// Removes the artifacts, then the directory if that left it empty.
    /// Files a review did not write stay, and so does the directory, with
    /// a note naming them. A link on the way is refused. Nothing there is
    /// fine.
    pub(super) fn clean(&self) -> Result<Option<String>, String> {
        let Some(dir) = self.existing()? else {
            return Ok(None);
        };
        for name in ARTIFACTS {
            let file = dir.join(name);
            owned_dir::remove_file(&file).map_err(|e| failed("remove", &file, e))?;
        }
        match fs::remove_dir(&dir) {
            Ok(()) => Ok(None),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) if e.kind() == io::ErrorKind::DirectoryNotEmpty => {
                let mut others: Vec<String> = fs::read_dir(&dir)
                    .map(|entries| {
                        entries
                            .flatten()
                            .map(|e| e.file_name().to_string_lossy().into_owned())
                            .collect()
                    })
                    .unwrap_or_default();
                others.sort();
                Ok(Some(format!(
                    "Kept {}: it holds files a review did not write ({}), which are left alone",
                    dir.display(),
                    others.join(", ")
                )))
            }
            Err(e) => Err(failed("remove", &dir, e)),
        }
    }

    /// Writes one artifact; a link in its place is refused.
    pub(super) fn write(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
        let file = self.file(name);
        owned_dir::write_file(&file, bytes).map_err(|e| failed("write", &file, e))?;
        Ok(file)
    }

    /// Reads one artifact back: `Ok(None)` when it is not there; a link
    /// (on the way or in its place) or anything but a regular file is an
    /// error naming it.
    pub(super) fn read(&self, name: &str) -> Result<Option<Vec<u8>>, String> {
        if self.existing()?.is_none() {
            return Ok(None);
        }
        let file = self.file(name);
        match owned_dir::read_capped(&file, READ_CAP) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(failed("read", &file, e)),
            Ok(bytes) => Ok(Some(bytes)),
        }
    }

    /// Removes one artifact when it is there.
    pub(super) fn remove(&self, name: &str) -> Result<(), String> {
        if self.existing()?.is_none() {
            return Ok(());
        }
        let file = self.file(name);
        owned_dir::remove_file(&file).map_err(|e| failed("remove", &file, e))
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
    fn clean_removes_only_the_artifacts_never_through_a_link_and_keeps_the_root() {
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("keep.txt"), "keep").unwrap();
        fs::write(outside.path().join("rules.md"), "keep").unwrap();
        let plan = ReviewDir::new(project.path(), Mode::Plan);
        plan.prepare().unwrap();
        plan.write("meta.json", b"{}").unwrap();
        // A link in an artifact's place is removed itself, never followed.
        std::os::unix::fs::symlink(outside.path().join("rules.md"), plan.file("rules.md")).unwrap();
        std::os::unix::fs::symlink(outside.path(), plan.file("link")).unwrap();
        let kept = plan.clean().unwrap().unwrap();
        assert!(
            kept.contains("holds files a review did not write (link)"),
            "{kept}"
        );
        assert!(!plan.file("meta.json").exists());
        assert!(plan.file("link").symlink_metadata().is_ok());
        fs::remove_file(plan.file("link")).unwrap();
        assert_eq!(plan.clean().unwrap(), None);
        assert!(!plan.path().exists());
        assert!(outside.path().join("keep.txt").exists());
        assert!(outside.path().join("rules.md").exists());
        assert!(project
            .path()
            .join(".rule-fairy/review/.gitignore")
            .exists());
        plan.clean().unwrap();
        plan.remove("rules.md").unwrap();
    }
}
