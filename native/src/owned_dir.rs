//! The directories Rule Fairy writes in a project: `.rule-fairy/codex/`
//! and `.rule-fairy/review/` (behaviour §5.1, "Containment of writes").
//! A repository is someone else's text: any part of such a path can be a
//! symbolic link to a directory outside the project, planted to make a
//! hook write, or delete, there. So every directory on the way from the
//! project root is checked with `symlink_metadata` (never followed) and
//! made one level at a time; a link, or anything but a directory, is
//! refused with its path named. Files in them are opened with
//! `O_NOFOLLOW`, so a link in place of a file is refused too, and read with
//! `O_NONBLOCK` and a size cap, so a FIFO or a device in its place cannot
//! hang the reader.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Why a directory of Rule Fairy's cannot be used.
fn refused(path: &Path, what: &str) -> String {
    format!(
        "{} is {what}; Rule Fairy writes and deletes nothing through it",
        path.display()
    )
}

/// Checks one directory on the way: `Ok(false)` when it does not exist.
fn checked(path: &Path) -> Result<bool, String> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(format!("{}: cannot read it: {e}", path.display())),
        Ok(meta) if meta.file_type().is_symlink() => Err(refused(path, "a symbolic link")),
        Ok(meta) if !meta.is_dir() => Err(refused(path, "not a directory")),
        Ok(_) => Ok(true),
    }
}

/// `root` joined with `parts`, each part checked (and, with `create`,
/// made when missing). `Ok(None)` without `create` when a part is missing.
fn walk(root: &Path, parts: &[&str], create: bool) -> Result<Option<PathBuf>, String> {
    let mut path = root.to_path_buf();
    for part in parts {
        path.push(part);
        if checked(&path)? {
            continue;
        }
        if !create {
            return Ok(None);
        }
        match fs::create_dir(&path) {
            Ok(()) => {}
            // Another hook made it meanwhile: check what is there now.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                checked(&path)?;
            }
            Err(e) => return Err(format!("{}: cannot create it: {e}", path.display())),
        }
    }
    Ok(Some(path))
}

/// Makes `root/parts...` (each part a directory, never a link) and returns
/// its path.
pub(crate) fn prepare(root: &Path, parts: &[&str]) -> Result<PathBuf, String> {
    walk(root, parts, true).map(|path| path.expect("made"))
}

/// `root/parts...` when it exists and no part of it is a link or not a
/// directory; `Ok(None)` when a part is missing.
pub(crate) fn existing(root: &Path, parts: &[&str]) -> Result<Option<PathBuf>, String> {
    walk(root, parts, false)
}

/// Opens a file Rule Fairy keeps for reading: never through a link, never
/// blocking on a FIFO, and only a regular file.
fn open_for_reading(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => io::Error::other("it is a symbolic link, which is not followed"),
            _ => e,
        })?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("it is not a regular file"));
    }
    Ok(file)
}

/// Opens a file Rule Fairy keeps for reading, with its size: a file over
/// `cap` bytes is an error saying so.
pub(crate) fn open_capped(path: &Path, cap: u64) -> io::Result<(File, u64)> {
    let file = open_for_reading(path)?;
    let size = file.metadata()?.len();
    if size > cap {
        return Err(io::Error::other(format!(
            "it is too large ({size} bytes; at most {cap} are read)"
        )));
    }
    Ok((file, size))
}

/// Reads a file Rule Fairy keeps, at most `cap` bytes: a larger file is an
/// error saying so, without reading it.
pub(crate) fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    let (file, _) = open_capped(path, cap)?;
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::other(format!(
            "it grew too large while read (at most {cap} bytes are read)"
        )));
    }
    Ok(bytes)
}

/// Writes a file in one of Rule Fairy's directories, replacing its
/// content: a link in its place is refused (`O_NOFOLLOW`), never written
/// through.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => {
                io::Error::other("it is a symbolic link, which is never written through")
            }
            _ => e,
        })?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("it is not a regular file"));
    }
    file.set_len(0)?;
    file.write_all(bytes)
}

/// Removes one file Rule Fairy made, by its exact name: a link there is
/// removed itself (never followed), a directory is left alone. A missing
/// file is fine.
pub(crate) fn remove_file(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
        Ok(meta) if meta.is_dir() => Err(io::Error::other(
            "it is a directory, which Rule Fairy never made there",
        )),
        Ok(_) => match fs::remove_file(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            other => other,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_link_anywhere_on_the_way_is_refused_and_nothing_is_made_through_it() {
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        symlink(outside.path(), project.path().join(".rule-fairy")).unwrap();
        let err = prepare(project.path(), &[".rule-fairy", "codex"]).unwrap_err();
        assert!(err.contains(".rule-fairy is a symbolic link"), "{err}");
        assert!(existing(project.path(), &[".rule-fairy", "codex"]).is_err());
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
        fs::remove_file(project.path().join(".rule-fairy")).unwrap();
        fs::create_dir(project.path().join(".rule-fairy")).unwrap();
        symlink(outside.path(), project.path().join(".rule-fairy/codex")).unwrap();
        let err = prepare(project.path(), &[".rule-fairy", "codex", "locks"]).unwrap_err();
        assert!(err.contains("codex is a symbolic link"), "{err}");
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
        let made = prepare(project.path(), &[".rule-fairy", "review", "diff"]).unwrap();
        assert!(made.is_dir());
        assert_eq!(
            existing(project.path(), &[".rule-fairy", "review", "plan"]).unwrap(),
            None
        );
    }

    #[test]
    fn files_are_never_read_or_written_through_links_and_reads_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, "keep").unwrap();
        let link = dir.path().join("link");
        symlink(&target, &link).unwrap();
        assert!(write_file(&link, b"x").is_err());
        let err = read_capped(&link, 100).unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{err}");
        remove_file(&link).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let err = read_capped(&fifo, 100).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
        let err = read_capped(&target, 2).unwrap_err().to_string();
        assert!(err.contains("too large"), "{err}");
        write_file(&target, b"new").unwrap();
        assert_eq!(read_capped(&target, 3).unwrap(), b"new");
        assert!(remove_file(dir.path()).is_err());
    }
}
