//! Nested rule folders (behaviour §1.2): the folder a format keeps its
//! rules in (`.cursor/rules`, `.claude/rules`, ...) at any depth below the
//! project, not only at its root. Which paths are such folders and whose
//! they are, and how a listing of the project names them: git's (the
//! Claude Code mod asks git once per session), the native binary's walk
//! with the `ignore` crate, or every path an in-memory tree holds (tests,
//! the playground). The walk inside each folder is discovery's.

use crate::base::paths;
use crate::config::formats::LAYOUTS;
use crate::config::DEFAULT_RULE_DIRS;
use crate::rules::discovery::MAX_DEPTH;

/// How many directories deep below the project a nested folder's owner
/// may be: the depth policy of the walk inside a folder, for the search.
pub const NESTED_DEPTH: usize = MAX_DEPTH;

/// Directories never searched for nested folders: git's own, and
/// installed packages (which git usually ignores too).
pub const UNSEARCHED: &[&str] = &[".git", "node_modules"];

/// Whether a rules directory at project-relative `dir` is one a format
/// keeps at any depth: Cursor's `.cursor/rules` and each format's folder.
/// Another directory configured in `:rules :dirs` is read at its place
/// only.
pub(crate) fn nestable(dir: &str) -> bool {
    DEFAULT_RULE_DIRS.contains(&dir) || LAYOUTS.iter().any(|layout| layout.dir == dir)
}

/// The directory holding the rules folder at project-relative `path`
/// (`""` for the project root), when `path` ends with one of `folders`
/// segment by segment.
///
/// ```
/// use rule_fairy_engine::nested::folder_owner;
/// let folders = [".cursor/rules".to_string()];
/// assert_eq!(folder_owner("packages/web/.cursor/rules", &folders), Some("packages/web"));
/// assert_eq!(folder_owner(".cursor/rules", &folders), Some(""));
/// assert_eq!(folder_owner("x.cursor/rules", &folders), None);
/// ```
pub fn folder_owner<'a>(path: &'a str, folders: &[String]) -> Option<&'a str> {
    folders.iter().find_map(|folder| {
        if path == folder {
            return Some("");
        }
        let owner = path.strip_suffix(folder.as_str())?.strip_suffix('/')?;
        (!owner.is_empty()).then_some(owner)
    })
}

/// Each rules folder `path` lies in or is, outermost first.
fn folders_along<'a>(path: &'a str, folders: &[String]) -> Vec<&'a str> {
    let bytes = path.as_bytes();
    let mut found = Vec::new();
    for at in 1..=bytes.len() {
        if at == bytes.len() || bytes[at] == b'/' {
            let prefix = &path[..at];
            if folder_owner(prefix, folders).is_some() {
                found.push(prefix);
            }
        }
    }
    found
}

/// Whether an event's project-relative `path` may add or remove a nested
/// folder or change what git ignores: then the host looks for the folders
/// again (behaviour §1.2).
pub(crate) fn may_move_folders(path: &str, folders: &[String]) -> bool {
    paths::file_name(path) == ".gitignore" || !folders_along(path, folders).is_empty()
}

/// The command that lists, in the project, every file git tracks or does
/// not ignore inside a rules folder, and every such folder that is a link:
/// run at the project root, its output read by [`folders_in_listing`].
pub fn git_arguments(folders: &[String]) -> Vec<String> {
    let mut argv = Vec::new();
    for word in "git ls-files --cached --others --exclude-standard -z --".split(' ') {
        argv.push(word.to_string());
    }
    for folder in folders {
        let pathspec = format!(":(glob)**/{folder}");
        argv.push(format!("{pathspec}/**"));
        argv.push(pathspec);
    }
    // git never lists its own directory; installed packages it may.
    argv.push(":(glob,exclude)**/node_modules/**".to_string());
    argv
}

/// The rules folders a listing of project-relative paths names, in the
/// listing's order: each folder a path is or lies in, as git lists them
/// (`git ls-files`, NUL-separated) or a file source's finder does. Paths
/// below [`UNSEARCHED`] directories and inside another repository (a
/// directory the listing shows holding `.git`) are left out, as git
/// leaves them out.
///
/// ```
/// use rule_fairy_engine::nested::folders_in_listing;
/// let folders = [".cursor/rules".to_string()];
/// let listing = ["a/.cursor/rules/x.mdc", "a/.cursor/rules/y.mdc", "b/.cursor/rules", "src/z.ts"];
/// let listing: Vec<String> = listing.map(String::from).to_vec();
/// assert_eq!(folders_in_listing(&listing, &folders), vec!["a/.cursor/rules", "b/.cursor/rules"]);
/// ```
pub fn folders_in_listing(listing: &[String], folders: &[String]) -> Vec<String> {
    let mut repositories: Vec<&str> = Vec::new();
    for path in listing {
        if let Some((repository, _)) = path.split_once("/.git/") {
            repositories.push(repository);
        }
    }
    let mut found: Vec<String> = Vec::new();
    'paths: for path in listing {
        for segment in path.split('/') {
            if UNSEARCHED.contains(&segment) {
                continue 'paths;
            }
        }
        for repository in &repositories {
            if paths::strip_base(path, repository).is_some() {
                continue 'paths;
            }
        }
        for folder in folders_along(path, folders) {
            if !found.iter().any(|known| known == folder) {
                found.push(folder.to_string());
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::{FileSource, MemoryFs};

    fn folders() -> Vec<String> {
        vec![".cursor/rules".to_string(), ".claude/rules".to_string()]
    }

    /// The folders an in-memory tree's listing names, sorted.
    fn found(fs: &MemoryFs) -> Vec<String> {
        let listing = fs.find_folders("/p", &folders()).unwrap().unwrap();
        let mut found = folders_in_listing(&listing, &folders());
        found.sort();
        found
    }

    #[test]
    fn packages_repositories_and_paths_through_links_are_left_out() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "")
            .add_file("/p/packages/web/.cursor/rules/ui.mdc", "")
            .add_file("/p/packages/api/.claude/rules/db.md", "")
            .add_file("/p/node_modules/x/.cursor/rules/n.mdc", "")
            .add_file("/p/vendor/lib/.git/HEAD", "")
            .add_file("/p/vendor/lib/.cursor/rules/v.mdc", "")
            .add_file("/p/shared/.cursor/rules/s.mdc", "")
            .add_link("/p/linked", "/p/shared")
            .add_link("/p/apps/one/.cursor/rules", "/p/shared/.cursor/rules");
        assert_eq!(
            found(&fs),
            vec![
                ".cursor/rules",
                "apps/one/.cursor/rules",
                "packages/api/.claude/rules",
                "packages/web/.cursor/rules",
                "shared/.cursor/rules",
            ]
        );
    }

    #[test]
    fn events_that_may_move_folders() {
        let folders = folders();
        assert!(may_move_folders("pkg/.cursor/rules/new.mdc", &folders));
        assert!(may_move_folders("pkg/.claude/rules", &folders));
        assert!(may_move_folders("pkg/.gitignore", &folders));
        assert!(!may_move_folders("pkg/src/rules/x.ts", &folders));
        assert!(!may_move_folders("pkg/.cursor/rulesets/x", &folders));
    }

    #[test]
    fn git_is_asked_for_the_folders_only() {
        let argv = git_arguments(&[".cursor/rules".to_string()]);
        assert_eq!(
            argv[1..].join(" "),
            "ls-files --cached --others --exclude-standard -z -- :(glob)**/.cursor/rules/** :(glob)**/.cursor/rules :(glob,exclude)**/node_modules/**"
        );
        let listing = ["p/.cursor/rules/q/.cursor/rules/x.mdc".to_string()];
        assert_eq!(
            folders_in_listing(&listing, &folders()),
            vec!["p/.cursor/rules", "p/.cursor/rules/q/.cursor/rules"]
        );
    }
}
