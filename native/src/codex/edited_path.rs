//! An edited path as the project's globs see it (behaviour §5.6, Codex):
//! a relative path is resolved against the session's working directory,
//! then links are followed on both the file and the project root, so a
//! logical working directory and a physical one agree.

use std::path::{Path, PathBuf};

use rule_fairy_engine::paths;
use rule_fairy_engine::project_relative_path;

use crate::stdfs::StdFs;

/// `path` as written by the tool, relative to `project_root`'s checkout
/// position. `session_dir` and `project_root` are absolute.
pub(super) fn project_relative(project_root: &str, session_dir: &str, path: &str) -> String {
    let absolute = paths::normalize_lexically(&paths::join(session_dir, path));
    let file = real_path_of_maybe_missing(Path::new(&absolute));
    let root = std::fs::canonicalize(project_root).map_or_else(
        |_| project_root.to_string(),
        |p| p.to_string_lossy().into_owned(),
    );
    project_relative_path(&StdFs, &root, &file)
}

/// The path with links resolved as far as it exists: a deleted file (a
/// patch's `Delete File`) still resolves through its directory.
fn real_path_of_maybe_missing(path: &Path) -> String {
    let mut existing = path.to_path_buf();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut full: PathBuf = real;
            full.extend(rest.iter().rev());
            return full.to_string_lossy().into_owned();
        }
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                existing = parent.to_path_buf();
            }
            _ => return path.to_string_lossy().into_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn relative_to_the_session_directory_through_links() {
        let base = tempfile::tempdir().unwrap();
        let repo = base.path().join("repo");
        fs::create_dir_all(repo.join(".git")).unwrap();
        fs::create_dir_all(repo.join("backend/src/nested")).unwrap();
        std::os::unix::fs::symlink(&repo, base.path().join("link")).unwrap();
        let root = repo.join("backend").to_string_lossy().into_owned();
        let logical = base.path().join("link/backend/src");
        let session = logical.to_string_lossy();
        assert_eq!(
            project_relative(&root, &session, "nested/a.clj"),
            "src/nested/a.clj"
        );
        // Beside the project in its checkout: outside, so it climbs out.
        assert_eq!(
            project_relative(&root, &session, "../../frontend/x.js"),
            "../frontend/x.js"
        );
        // A file that no longer exists, under a directory that does not either.
        assert_eq!(
            project_relative(&root, &session, "gone/deeper/a.clj"),
            "src/gone/deeper/a.clj"
        );
    }
}
