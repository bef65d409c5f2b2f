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
        let tree = WorkTree::new(dir.path());
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
        std::fs::write(dir.path().join("r/bad.yml"), b"ok\n\xff").unwrap();
        assert_eq!(
            tree.read("r/bad.yml").unwrap_err().to_string(),
            "r/bad.yml:2: the file is not UTF-8"
        );
    }
}
