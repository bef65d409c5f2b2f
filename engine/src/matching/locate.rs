//! Where a path lies relative to a project root, both as written and as the
//! file system resolves it. Git reports an edit under a link's target, not
//! under the link, so the review's cleanliness check needs both forms; plan
//! review places an absolute path under the root by the real form.

use crate::base::fs::FileSource;
use crate::base::paths;
use crate::matching::project::checkout_root;

/// A path located against a project root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The path with `.` and `..` collapsed lexically (as git reads a
    /// pathspec), relative to the root when it lies under it, otherwise
    /// absolute. The root itself is `.`.
    pub written: String,
    /// The path with its links followed, relative to the root with its own
    /// links followed, through `..` when it lies elsewhere in the checkout
    /// holding the root; `None` outside that checkout (outside git: outside
    /// the root), where git cannot see it.
    pub real: Option<String>,
}

/// Locates `path` (absolute, or relative to `root`) against the absolute
/// `root`.
///
/// ```
/// use rule_fairy_engine::MemoryFs;
/// use rule_fairy_engine::{locate, Located};
/// let mut fs = MemoryFs::new();
/// fs.add_dir("/w/.git").add_file("/w/shared/rules/r.mdc", "");
/// fs.add_link("/w/app/.cursor/rules", "../../shared/rules");
/// assert_eq!(
///     locate(&fs, "/w/app", ".cursor/rules/r.mdc"),
///     Located { written: ".cursor/rules/r.mdc".into(), real: Some("../shared/rules/r.mdc".into()) }
/// );
/// ```
pub fn locate(fs: &dyn FileSource, root: &str, path: &str) -> Located {
    let absolute = paths::join(root, path);
    let lexical_root = paths::normalize_lexically(root);
    let lexical = paths::normalize_lexically(&absolute);
    let written = match paths::strip_base(&lexical, &lexical_root) {
        Some("") => ".".to_string(),
        Some(rest) => rest.to_string(),
        None => lexical,
    };
    let real_root = real_path(fs, root);
    let bound = checkout_root(fs, &real_root).unwrap_or_else(|| real_root.clone());
    let real = real_path(fs, &absolute);
    let real = paths::strip_base(&real, &bound)
        .is_some()
        .then(|| paths::relative_path(&real_root, &real));
    Located { written, real }
}

/// An absolute path with its links followed the way the file system reads
/// it: a `..` after a link steps out of the link's target. A path that does
/// not exist resolves through its nearest existing ancestor, so a file still
/// to be created under a linked directory, or a tracked file deleted
/// locally, lands where git would report it.
pub fn real_path(fs: &dyn FileSource, path: &str) -> String {
    let mut existing = path.to_string();
    loop {
        if fs.exists(&existing) {
            if let Ok(real) = fs.real_path(&existing) {
                let tail = &path[existing.len()..];
                return paths::normalize_lexically(&format!("{real}/{tail}"));
            }
        }
        match paths::parent(&existing) {
            Some(parent) if parent != existing => existing = parent.to_string(),
            _ => return paths::normalize_lexically(path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    #[test]
    fn written_and_real_forms() {
        let mut fs = MemoryFs::new();
        fs.add_dir("/w/.git")
            .add_file("/w/p/CLAUDE.md", "")
            .add_file("/w/p/docs/guidance.md", "")
            .add_file("/elsewhere/x.md", "");
        fs.add_link("/w/p/AGENTS.md", "docs/guidance.md");
        fs.add_link("/w/p/out.md", "/elsewhere/x.md");
        let at = |path: &str| locate(&fs, "/w/p", path);
        assert_eq!(at("CLAUDE.md").real.as_deref(), Some("CLAUDE.md"));
        assert_eq!(at("AGENTS.md").real.as_deref(), Some("docs/guidance.md"));
        assert_eq!(at("/w/p/./AGENTS.md").written, "AGENTS.md");
        assert_eq!(at("out.md").real, None);
        assert_eq!(at("../q/new.md").written, "/w/q/new.md");
        assert_eq!(at("../q/new.md").real.as_deref(), Some("../q/new.md"));
        assert_eq!(at("/w/p").written, ".");
        // Not yet created, under an existing directory.
        assert_eq!(at("docs/new/x.md").real.as_deref(), Some("docs/new/x.md"));
    }

    #[test]
    fn outside_git_the_root_bounds_the_real_form() {
        let mut fs = MemoryFs::new();
        fs.add_file("/w/p/a.md", "").add_file("/w/q/b.md", "");
        assert_eq!(locate(&fs, "/w/p", "a.md").real.as_deref(), Some("a.md"));
        assert_eq!(locate(&fs, "/w/p", "/w/q/b.md").real, None);
        assert_eq!(real_path(&fs, "/nowhere/at/all"), "/nowhere/at/all");
    }
}
