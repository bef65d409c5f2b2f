//! Replacing a file atomically: readers see the old content or the new,
//! never a half-written file, and a writer killed midway leaves the old one.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to a temporary file beside `path` (`<name>.<unique>.tmp`,
/// which the state cleanup removes if a writer dies before the rename) and
/// renames it over `path`. No fsync: the state is a cache of what was
/// delivered, and a crash that loses it only means a rule is sent again.
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let unique = format!(
        "{}-{nanos}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let temporary = dir.join(format!("{name}.{unique}.tmp"));
    let written = File::create_new(&temporary)
        .and_then(|mut file| file.write_all(bytes))
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// What a file's spare is named after it: `<name>.spare`.
pub(super) const SPARE: &str = ".spare";

/// Replaces `path` whole as [`write_atomic`] does, without freeing the
/// old content's file: the new content is written over the file's spare
/// (`<name>.spare`, the content before last) and the two names are
/// exchanged in one step, so the old content becomes the spare. Freeing a
/// file's blocks at every save cost a hook up to a millisecond and a half
/// of waiting on ext4 mounted with `discard` (behaviour §5.1). Where the
/// names cannot be exchanged (no spare yet fits, the first save, a file
/// system without the exchange), it falls back to a plain replace.
///
/// For one writer at a time (a session's, under its lock): two writers
/// would overwrite the same spare. A reader sees the old content or the
/// new as with [`write_atomic`], unless it holds the file open across two
/// saves (its file is then the spare written over): a reader reads a
/// state at once, and a save takes a whole hook.
pub(super) fn write_swapping(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let spare = spare_of(path);
    if swap_in(path, &spare, bytes).is_ok() {
        return Ok(());
    }
    let _ = crate::owned_dir::remove_file(&spare);
    write_atomic(path, bytes)
}

fn spare_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(SPARE);
    PathBuf::from(name)
}

fn swap_in(path: &Path, spare: &Path, bytes: &[u8]) -> io::Result<()> {
    let file = open_spare(spare)?;
    file.write_all_at(bytes, 0)?;
    file.set_len(bytes.len() as u64)?;
    drop(file);
    match std::fs::symlink_metadata(path) {
        // Only a file is exchanged: a link or a directory in its place
        // stays where it is, for the plain replace to meet as before.
        Ok(meta) if meta.is_file() => {
            let cwd = rustix::fs::CWD;
            let exchange = rustix::fs::RenameFlags::EXCHANGE;
            Ok(rustix::fs::renameat_with(cwd, spare, cwd, path, exchange)?)
        }
        Ok(_) => Err(io::Error::other("not a file to exchange with")),
        // Nothing to exchange with: the first save.
        Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::rename(spare, path),
        Err(e) => Err(e),
    }
}

/// The spare, opened to be written over, or made when there is none. Only
/// a regular file with no other name is written over, so the write lands
/// in no other file (a link in its place is refused, a FIFO never blocks);
/// anything else there is an error, and the plain replace runs instead.
fn open_spare(spare: &Path) -> io::Result<File> {
    let flags = libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
    match File::options().write(true).custom_flags(flags).open(spare) {
        Ok(file) => {
            let meta = file.metadata()?;
            if meta.is_file() && meta.nlink() == 1 {
                return Ok(file);
            }
            Err(io::Error::other("not a spare this save may write over"))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => File::options()
            .write(true)
            .create_new(true)
            .custom_flags(flags)
            .open(spare),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replacing_twice_keeps_the_last_content_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(names(dir.path()), ["s.json"]);
    }

    /// A directory in the file's place fails either write, stays where it
    /// is, and leaves no temporary file or spare beside it.
    #[test]
    fn a_failed_write_leaves_no_temporary_file() {
        type Write = fn(&Path, &[u8]) -> io::Result<()>;
        for write in [write_atomic as Write, write_swapping] {
            let dir = tempfile::tempdir().unwrap();
            // Renaming a file over a non-empty directory fails.
            let target = dir.path().join("taken");
            std::fs::create_dir_all(target.join("inside")).unwrap();
            assert!(write(&target, b"x").is_err());
            assert!(target.join("inside").is_dir());
            assert_eq!(names(dir.path()), ["taken"]);
        }
    }

    #[test]
    fn swapping_keeps_the_last_content_and_the_one_before_as_the_spare() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        write_swapping(&path, b"first, the longest").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first, the longest");
        write_swapping(&path, b"second").unwrap();
        write_swapping(&path, b"third").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
        assert_eq!(
            std::fs::read(dir.path().join("s.json.spare")).unwrap(),
            b"second"
        );
        assert_eq!(names(dir.path()), ["s.json", "s.json.spare"]);
        // A reader holding the file before a save still reads it whole.
        let held = File::open(&path).unwrap();
        write_swapping(&path, b"fourth").unwrap();
        let mut before = String::new();
        io::Read::read_to_string(&mut &held, &mut before).unwrap();
        assert_eq!(
            (before.as_str(), std::fs::read(&path).unwrap()),
            ("third", b"fourth".to_vec())
        );
    }

    #[test]
    fn a_spare_that_is_a_link_or_has_another_name_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let spare = dir.path().join("s.json.spare");
        let elsewhere = dir.path().join("elsewhere");
        for plant in [
            |elsewhere: &Path, spare: &Path| std::os::unix::fs::symlink(elsewhere, spare),
            |elsewhere: &Path, spare: &Path| std::fs::hard_link(elsewhere, spare),
        ] {
            std::fs::write(&elsewhere, "keep").unwrap();
            write_swapping(&path, b"one").unwrap();
            let _ = std::fs::remove_file(&spare);
            plant(&elsewhere, &spare).unwrap();
            write_swapping(&path, b"two").unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), b"two");
            assert_eq!(std::fs::read(&elsewhere).unwrap(), b"keep");
            assert_eq!(names(dir.path()), ["elsewhere", "s.json"]);
            write_swapping(&path, b"three").unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), b"three");
            assert_eq!(std::fs::read(&elsewhere).unwrap(), b"keep");
        }
    }

    #[test]
    fn a_spare_that_is_a_directory_or_fifo_falls_back_to_a_plain_replace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let spare = dir.path().join("s.json.spare");
        write_swapping(&path, b"one").unwrap();
        std::fs::remove_file(&spare).ok();
        std::fs::create_dir(&spare).unwrap();
        write_swapping(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        std::fs::remove_dir(&spare).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &spare,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        write_swapping(&path, b"three").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"three");
        assert_eq!(names(dir.path()), ["s.json"]);
    }
}
