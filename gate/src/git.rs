//! The gate's files as of a git ref (`--rules-from origin/main`): the
//! tree of one commit, listed once, each file read by its blob id. Unlike
//! kairoku's loader, files in subdirectories are read by their full path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::GateError;
use crate::tree::{utf8, RuleTree};

/// One commit's files below the project's place in its repository.
pub(crate) struct GitTree {
    root: PathBuf,
    /// The ref as the person wrote it, for messages.
    name: String,
    /// Project-relative path → blob id, regular files only.
    blobs: BTreeMap<String, String>,
}

fn git(root: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(stderr.trim().to_string());
    }
    Ok(output.stdout)
}

impl GitTree {
    /// Resolves `reference` once, so every file comes from the same commit
    /// even if the ref moves while the gate reads.
    pub(crate) fn open(root: &Path, reference: &str) -> Result<GitTree, GateError> {
        let fail = |why: String| {
            GateError::new(format!(
                "cannot read the gate's rules from git ref `{reference}`: {why}"
            ))
        };
        if reference.starts_with('-') {
            return Err(fail("a ref cannot start with `-`".into()));
        }
        let commit = git(
            root,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{reference}^{{commit}}"),
            ],
        )
        .map_err(|e| {
            fail(if e.is_empty() {
                "no such commit".into()
            } else {
                e
            })
        })?;
        let commit = String::from_utf8_lossy(&commit).trim().to_string();
        let prefix = git(root, &["rev-parse", "--show-prefix"]).map_err(fail)?;
        let prefix = String::from_utf8_lossy(&prefix).trim().to_string();
        let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", &commit];
        if !prefix.is_empty() {
            args.extend(["--", &prefix]);
        }
        let listing = git(root, &args).map_err(fail)?;
        let mut blobs = BTreeMap::new();
        for entry in listing.split(|b| *b == 0).filter(|e| !e.is_empty()) {
            // "<mode> <type> <id>\t<path>"
            let entry = String::from_utf8_lossy(entry);
            let Some((meta, path)) = entry.split_once('\t') else {
                continue;
            };
            let mut fields = meta.split(' ');
            let (Some(mode), Some(kind), Some(id)) = (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            // Links and submodules are not rule files.
            if kind != "blob" || mode == "120000" {
                continue;
            }
            if let Some(relative) = path.strip_prefix(&prefix) {
                blobs.insert(relative.to_string(), id.to_string());
            }
        }
        Ok(GitTree {
            root: root.to_path_buf(),
            name: reference.to_string(),
            blobs,
        })
    }
}

impl RuleTree for GitTree {
    fn read(&self, path: &str) -> Result<Option<String>, GateError> {
        let Some(id) = self.blobs.get(path) else {
            return Ok(None);
        };
        let bytes = git(&self.root, &["cat-file", "blob", id])
            .map_err(|e| GateError::in_file(self.display(path), format!("cannot read: {e}")))?;
        utf8(&self.display(path), bytes).map(Some)
    }

    fn is_dir(&self, path: &str) -> bool {
        let dir = format!("{}/", path.trim_end_matches('/'));
        path.is_empty()
            || self
                .blobs
                .range(dir.clone()..)
                .next()
                .is_some_and(|(p, _)| p.starts_with(&dir))
    }

    fn files_below(&self, dir: &str) -> Result<Vec<String>, GateError> {
        let dir = format!("{}/", dir.trim_end_matches('/'));
        Ok(self
            .blobs
            .range(dir.clone()..)
            .take_while(|(p, _)| p.starts_with(&dir))
            .map(|(p, _)| p.clone())
            .collect())
    }

    fn display(&self, path: &str) -> String {
        format!("{}:{path}", self.name)
    }
}
