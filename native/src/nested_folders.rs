//! Where the nested rules folders are (behaviour §1.2), found as git sees
//! the tree: one walk of the project with the `ignore` crate, which reads
//! `.gitignore`, `.git/info/exclude` and the global excludes as git does.
//! What counts as a folder, and what is never searched, is the engine's.

use std::io;
use std::path::Path;

use ignore::WalkBuilder;
use rule_fairy_engine::nested::{folder_owner, NESTED_DEPTH, UNSEARCHED};

/// The project-relative paths below `root` that are rules folders named
/// by `folders`, sorted: directories, files and links alike (a link is
/// not followed here; the engine's walk judges where it leads). Another
/// repository inside the project (a directory holding `.git`) is not
/// searched, as git does not list it.
pub(crate) fn find(root: &str, folders: &[String]) -> io::Result<Vec<String>> {
    find_traced(root, folders, &mut |_| {})
}

/// [`find`], telling `trace` every directory the walk entered and every
/// `.gitignore` it met: what a later walk's answer depends on (a directory
/// changes when an entry is added to it or taken from it).
pub(crate) fn find_traced(
    root: &str,
    folders: &[String],
    trace: &mut dyn FnMut(&Path),
) -> io::Result<Vec<String>> {
    let root_path = Path::new(root);
    let mut builder = WalkBuilder::new(root_path);
    builder
        // `.cursor` is hidden; only git's own ignore files count.
        .hidden(false)
        .ignore(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .parents(true)
        .require_git(true)
        .follow_links(false)
        // The owner's depth, and a folder of up to two segments.
        .max_depth(Some(NESTED_DEPTH + 2))
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !is_dir
                || entry.depth() == 0
                || !(UNSEARCHED.iter().any(|name| entry.file_name() == *name)
                    || entry.path().join(".git").exists())
        });
    let mut found = Vec::new();
    for entry in builder.build() {
        // What cannot be read is left out, as git leaves it out.
        let Ok(entry) = entry else { continue };
        if entry.file_type().is_some_and(|t| t.is_dir()) || entry.file_name() == ".gitignore" {
            trace(entry.path());
        }
        let Ok(rel) = entry.path().strip_prefix(root_path) else {
            continue;
        };
        let Some(rel) = rel.to_str() else { continue };
        if folder_owner(rel, folders).is_some() {
            found.push(rel.to_string());
        }
    }
    found.sort();
    Ok(found)
}
