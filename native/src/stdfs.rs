//! The engine's file trait over the real file system.

use std::io;
use std::time::UNIX_EPOCH;

use rule_fairy_engine::{FileSource, Kind, Metadata};

pub(crate) struct StdFs;

impl FileSource for StdFs {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        std::fs::read(path)
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
