//! Which files a scan reads: the whole project (honouring `.gitignore`,
//! `.ignore` and hidden files as ast-grep's walk does) or the paths given.
//! A given path that does not exist is an error: `ast-grep scan` prints
//! `[]` for it, which looks like a clean scan of a file nobody read.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

use crate::error::GateError;

/// A file to scan: where it is, and its project-relative name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    /// Where the file is on disk.
    pub path: PathBuf,
    /// Project-relative with `/` when inside the project; otherwise the
    /// path as found.
    pub name: String,
}

/// The name of `path` relative to `root` (both canonical), with `/`.
pub(crate) fn relative_name(root: &Path, path: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(rest) => rest
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => path.to_string_lossy().into_owned(),
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<Target>) -> Result<(), GateError> {
    let mut builder = WalkBuilder::new(dir);
    // A project that is not (yet) a git checkout still means its .gitignore.
    builder.require_git(false);
    for entry in builder.build() {
        let entry =
            entry.map_err(|e| GateError::new(format!("cannot walk {}: {e}", dir.display())))?;
        if entry.file_type().is_some_and(|t| t.is_file()) {
            let path = entry.into_path();
            out.push(Target {
                name: relative_name(root, &path),
                path,
            });
        }
    }
    Ok(())
}

/// The files to scan below canonical `root`: all of them, or those under
/// `paths` (relative paths are relative to `root`). Explicit files are
/// scanned even when ignored, as ast-grep does; directories are walked.
pub(crate) fn targets(root: &Path, paths: &[PathBuf]) -> Result<Vec<Target>, GateError> {
    let mut out = Vec::new();
    if paths.is_empty() {
        walk(root, root, &mut out)?;
    }
    for given in paths {
        let full = root.join(given);
        let path = full.canonicalize().map_err(|_| {
            GateError::new(format!(
                "path does not exist: {} (nothing was scanned)",
                given.display()
            ))
        })?;
        if path.is_dir() {
            walk(root, &path, &mut out)?;
        } else {
            out.push(Target {
                name: relative_name(root, &path),
                path,
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}
