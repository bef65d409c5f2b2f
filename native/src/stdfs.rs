//! The engine's file trait over the real file system. Reads take regular
//! files only and at most [`MAX_READ_BYTES`] (behaviour §0.1): a path a hook
//! input names may be a FIFO, a device or a huge file, and reading it must
//! neither hang nor fill the memory.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::time::UNIX_EPOCH;

use rule_fairy_engine::{FileSource, Kind, Metadata, MAX_READ_BYTES};

pub(crate) struct StdFs;

/// Opens a regular file for reading without blocking on it: the kind is
/// checked before the open (so a FIFO is never opened) and again on the
/// open file (so one swapped in between is refused too).
pub(crate) fn open_regular(path: &str) -> io::Result<File> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

fn not_regular() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")
}

/// At most `limit` bytes of an open file; more is an error saying so.
pub(crate) fn read_bounded(file: File, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {limit} bytes"),
        ));
    }
    Ok(bytes)
}

impl FileSource for StdFs {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        read_bounded(open_regular(path)?, MAX_READ_BYTES)
    }
    fn list(&self, dir: &str) -> io::Result<Vec<String>> {
        std::fs::read_dir(dir)?
            .map(|entry| entry.map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect()
    }

    fn list_kinds(&self, dir: &str) -> io::Result<Vec<(String, Option<Kind>)>> {
        std::fs::read_dir(dir)?
            .map(|entry| {
                let entry = entry?;
                // The directory listing knows regular files and folders;
                // only links need a stat.
                let kind = entry
                    .file_type()
                    .ok()
                    .and_then(|t| match (t.is_file(), t.is_dir()) {
                        (true, _) => Some(Kind::File),
                        (_, true) => Some(Kind::Dir),
                        _ => None,
                    });
                Ok((entry.file_name().to_string_lossy().into_owned(), kind))
            })
            .collect()
    }

    fn find_folders(&self, root: &str, folders: &[String]) -> Option<io::Result<Vec<String>>> {
        Some(crate::nested_folders::find(root, folders))
    }

    fn stat(&self, path: &str) -> io::Result<Metadata> {
        let meta = std::fs::metadata(path)?;
        let kind = if meta.is_file() {
            Kind::File
        } else if meta.is_dir() {
            Kind::Dir
        } else {
            Kind::Other
        };
        let modified_ms = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map(|d| d.as_millis() as i64);
        Ok(Metadata {
            kind,
            len: meta.len(),
            modified_ms,
        })
    }

    fn real_path(&self, path: &str) -> io::Result<String> {
        Ok(std::fs::canonicalize(path)?.to_string_lossy().into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn refuses_a_fifo_without_opening_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let error = StdFs.read(&fifo.to_string_lossy()).unwrap_err();
        assert_eq!(error.to_string(), "not a regular file");
    }

    #[test]
    fn refuses_a_device_and_a_directory() {
        assert!(StdFs.read("/dev/zero").is_err());
        let dir = tempfile::tempdir().unwrap();
        assert!(StdFs.read(&dir.path().to_string_lossy()).is_err());
    }

    #[test]
    fn reads_at_most_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        std::fs::write(&path, vec![b'x'; 11]).unwrap();
        let open = || open_regular(&path.to_string_lossy()).unwrap();
        assert_eq!(read_bounded(open(), 11).unwrap().len(), 11);
        let error = read_bounded(open(), 10).unwrap_err();
        assert_eq!(error.to_string(), "larger than 10 bytes");
    }
}
