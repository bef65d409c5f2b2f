//! Where the project is, from the command line, the environment or the
//! working directory, and how paths are shown relative to it.

use std::path::Path;

use rule_fairy_engine::paths;
use rule_fairy_engine::FileSource;
use rule_fairy_engine::{discover_root, project_relative_path};

use crate::stdfs::StdFs;

/// An absolute, normalised path string for `path`, resolving links when it exists.
pub(crate) fn absolute(path: &Path) -> Result<String, String> {
    let joined = std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = joined
        .to_str()
        .ok_or_else(|| format!("{}: the path is not valid UTF-8", path.display()))?;
    let text = paths::normalize_lexically(text);
    Ok(StdFs.real_path(&text).unwrap_or(text))
}

/// The project root: `--project`, else `RULE_FAIRY_PROJECT_DIR`, else found
/// from the working directory as the Codex hooks find it.
pub(crate) fn project_root(flag: Option<&Path>) -> Result<String, String> {
    if let Some(dir) = flag {
        let root = absolute(dir)?;
        if !StdFs.is_dir(&root) {
            return Err(format!(
                "The project directory does not exist: {}",
                dir.display()
            ));
        }
        return Ok(root);
    }
    if let Some(dir) = std::env::var_os("RULE_FAIRY_PROJECT_DIR").filter(|d| !d.is_empty()) {
        return project_root(Some(Path::new(&dir)));
    }
    let cwd =
        std::env::current_dir().map_err(|e| format!("Cannot read the working directory: {e}"))?;
    Ok(discover_root(&StdFs, &absolute(&cwd)?))
}

/// Paths given on the command line as the project's globs see them. A
/// relative path is relative to the working directory when that is in the
/// project (`explain --path Button.tsx` from `src/ui`), as every command
/// reads its paths; from outside the project (`--project examples/webshop`
/// at the checkout's root) it can only be the project's own. An absolute
/// one is made project-relative as the hooks do.
pub(crate) fn event_paths(root: &str, given: &[String]) -> Vec<String> {
    let cwd = working_dir_in(root);
    given
        .iter()
        .map(|path| match (&cwd, paths::is_absolute(path)) {
            (_, true) => project_path(root, path),
            (Some(cwd), false) => project_path(root, &format!("{cwd}/{path}")),
            (None, false) => paths::normalize_for_match(path),
        })
        .collect()
}

/// An absolute path made project-relative, links resolved.
fn project_path(root: &str, path: &str) -> String {
    let normalised = paths::normalize_lexically(path);
    let resolved = StdFs.real_path(&normalised).unwrap_or(normalised);
    project_relative_path(&StdFs, root, &resolved)
}

/// The working directory, absolute, when it is the project's root or a
/// folder in it.
fn working_dir_in(root: &str) -> Option<String> {
    let cwd = absolute(&std::env::current_dir().ok()?).ok()?;
    paths::strip_base(&cwd, root).is_some().then_some(cwd)
}

/// A file path for people to read: relative to the project root when it is
/// inside it.
pub(crate) fn display_path(root: &str, path: &str) -> String {
    match paths::strip_base(path, root) {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => path.to_string(),
    }
}
