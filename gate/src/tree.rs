//! Where the gate's own files (its configuration, rules and rule tests) are
//! read from: the working tree, or one commit of git (`--rules-from`), so a
//! change cannot weaken the gate that judges it. Paths are relative to the
//! project root and use `/`.

use std::path::{Path, PathBuf};

use crate::error::GateError;

/// Read access to the project's files as of one version of it.
pub(crate) trait RuleTree {
    /// The text of a file, or `None` when there is no such file.
    fn read(&self, path: &str) -> Result<Option<String>, GateError>;
    /// True when `path` is a directory.
    fn is_dir(&self, path: &str) -> bool;
    /// Every regular file below directory `dir`, at any depth, sorted.
    fn files_below(&self, dir: &str) -> Result<Vec<String>, GateError>;
    /// How messages name `path`: itself, or `REF:path` for a git tree.
    fn display(&self, path: &str) -> String;
}

/// The files on disk below the project root.
pub(crate) struct WorkTree {
    root: PathBuf,
}

impl WorkTree {
    /// The files below `root`, the canonical project root.
    pub(crate) fn new(root: &Path) -> Self {
        WorkTree {
            root: root.to_path_buf(),
        }
    }

    fn full(&self, path: &str) -> PathBuf {
        self.root.join(path)
    }

    /// Refuses a path that, links followed, leads outside the project
    /// (behaviour §0.1): a rule file or folder linked to elsewhere is an
    /// error naming it, never read. A path that does not resolve is left
    /// to the caller's own check.
    fn contained(&self, path: &str) -> Result<(), GateError> {
        let Ok(real) = self.full(path).canonicalize() else {
            return Ok(());
        };
        if real.starts_with(&self.root) {
            return Ok(());
        }
        Err(GateError::in_file(
            self.display(path),
            format!("it leads outside the project (to {})", real.display()),
        ))
    }
}

/// Decodes a rule or config file, naming the line of the first bad byte.
pub(crate) fn utf8(name: &str, bytes: Vec<u8>) -> Result<String, GateError> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        GateError::at(name, line, "the file is not UTF-8")
    })
}

impl RuleTree for WorkTree {
    fn read(&self, path: &str) -> Result<Option<String>, GateError> {
        let full = self.full(path);
        if !full.is_file() {
            return Ok(None);
        }
        self.contained(path)?;
        let bytes = std::fs::read(&full)
            .map_err(|e| GateError::in_file(self.display(path), format!("cannot read: {e}")))?;
        utf8(&self.display(path), bytes).map(Some)
    }

    fn is_dir(&self, path: &str) -> bool {
        self.full(path).is_dir()
    }

    fn files_below(&self, dir: &str) -> Result<Vec<String>, GateError> {
        let mut files = Vec::new();
        let mut pending = vec![dir.trim_end_matches('/').to_string()];
        // Links are followed as ast-grep's rule walk does; each real
        // directory is listed once, so a link loop ends.
        let mut seen = std::collections::HashSet::new();
        while let Some(current) = pending.pop() {
            self.contained(&current)?;
            if let Ok(real) = self.full(&current).canonicalize() {
                if !seen.insert(real) {
                    continue;
                }
            }
            let entries = std::fs::read_dir(self.full(&current)).map_err(|e| {
                GateError::in_file(self.display(&current), format!("cannot list: {e}"))
            })?;
            for entry in entries {
                let entry = entry.map_err(|e| {
                    GateError::in_file(self.display(&current), format!("cannot list: {e}"))
                })?;
                let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                    continue;
                };
                let child = format!("{current}/{name}");
                let full = self.full(&child);
                if full.is_dir() {
                    pending.push(child);
                } else if full.is_file() {
                    self.contained(&child)?;
                    files.push(child);
                }
            }
        }
        files.sort();
        Ok(files)
    }

    fn display(&self, path: &str) -> String {
        path.to_string()
    }
}

/// Joins a project-relative directory and a name, dropping `./` and
/// resolving `..` lexically, so the same directory named two ways is one.
pub(crate) fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_merges_spellings() {
        assert_eq!(normalize("./rules/"), "rules");
        assert_eq!(normalize("a/../b/./c"), "b/c");
        assert_eq!(normalize("../x"), "../x");
    }

    #[test]
    fn work_tree_lists_subdirectories_and_reads() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("r/sub")).unwrap();
        std::fs::write(dir.path().join("r/a.yml"), "a").unwrap();
        std::fs::write(dir.path().join("r/sub/b.yml"), "b").unwrap();
        let tree = WorkTree::new(&dir.path().canonicalize().unwrap());
        assert_eq!(
            tree.files_below("r").unwrap(),
            vec!["r/a.yml", "r/sub/b.yml"]
        );
        assert_eq!(tree.read("r/sub/b.yml").unwrap().as_deref(), Some("b"));
        assert_eq!(tree.read("r/none.yml").unwrap(), None);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("..", dir.path().join("r/sub/loop")).unwrap();
            assert_eq!(
                tree.files_below("r").unwrap(),
                vec!["r/a.yml", "r/sub/b.yml"]
            );
        }
        #[cfg(unix)]
        {
            // A rule file or folder linked out of the project is named, unread.
            let outside = tempfile::tempdir().unwrap();
            std::fs::write(outside.path().join("secret.yml"), "key").unwrap();
            let tree = WorkTree::new(&dir.path().canonicalize().unwrap());
            std::os::unix::fs::symlink(
                outside.path().join("secret.yml"),
                dir.path().join("r/s.yml"),
            )
            .unwrap();
            let refused = tree.read("r/s.yml").unwrap_err().to_string();
            assert!(
                refused.starts_with("r/s.yml: it leads outside the project"),
                "{refused}"
            );
            let listed = tree.files_below("r").unwrap_err().to_string();
            assert!(listed.starts_with("r/s.yml: it leads outside"), "{listed}");
            std::fs::remove_file(dir.path().join("r/s.yml")).unwrap();
            std::os::unix::fs::symlink(outside.path(), dir.path().join("r/out")).unwrap();
            let listed = tree.files_below("r").unwrap_err().to_string();
            assert!(listed.starts_with("r/out: it leads outside"), "{listed}");
            std::fs::remove_file(dir.path().join("r/out")).unwrap();
        }
        std::fs::write(dir.path().join("r/bad.yml"), b"ok\n\xff").unwrap();
        assert_eq!(
            tree.read("r/bad.yml").unwrap_err().to_string(),
            "r/bad.yml:2: the file is not UTF-8"
        );
    }
}
