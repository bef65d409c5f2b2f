//! Reading one file to scan, within the gate's bounds (behaviour §8.2):
//! only a regular file is opened, never more than [`MAX_SOURCE_BYTES`] of
//! it is read, and its text must be UTF-8. Anything else is a reason the
//! file could not be checked, never an error that stops the other files.

use std::io::Read;
use std::path::Path;

use crate::finding::UncheckedReason;

/// The largest file the gate parses, in bytes: 4 MiB, the bound the Claude
/// Code mod's host puts on a read. Parsing costs time and memory in
/// proportion to the file (measured on TypeScript: about 50 MB of syntax
/// tree per MB, and a few seconds for a file at the bound on a busy
/// 2-core machine), so the bound is what keeps a check at the write
/// within its budget; a larger file is reported as not checked, and not
/// read.
pub const MAX_SOURCE_BYTES: u64 = 4 * 1024 * 1024;

/// The text of the file at `path`, or why it cannot be scanned.
pub(crate) fn read_source(path: &Path) -> Result<String, UncheckedReason> {
    let unreadable = |e: std::io::Error| UncheckedReason::Unreadable(e.to_string());
    // Links are followed: the path was resolved inside the project.
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(UncheckedReason::NotRegularFile);
    }
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(UncheckedReason::TooLarge(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grew since its size was read is still read only so far.
    file.take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        let now = std::fs::metadata(path).map_or(bytes.len() as u64, |m| m.len());
        return Err(UncheckedReason::TooLarge(now.max(bytes.len() as u64)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        UncheckedReason::NotUtf8(good.iter().filter(|b| **b == b'\n').count() + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_bound_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let ok = dir.path().join("a.ts");
        std::fs::write(&ok, "eval(1)\n").unwrap();
        assert_eq!(read_source(&ok).unwrap(), "eval(1)\n");
        let big = dir.path().join("big.ts");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(MAX_SOURCE_BYTES + 1).unwrap();
        assert_eq!(
            read_source(&big),
            Err(UncheckedReason::TooLarge(MAX_SOURCE_BYTES + 1))
        );
        let edge = dir.path().join("edge.ts");
        std::fs::write(&edge, vec![b' '; MAX_SOURCE_BYTES as usize]).unwrap();
        assert_eq!(read_source(&edge).unwrap().len() as u64, MAX_SOURCE_BYTES);
        let bad = dir.path().join("bad.ts");
        std::fs::write(&bad, b"ok\nok\n\xff").unwrap();
        assert_eq!(read_source(&bad), Err(UncheckedReason::NotUtf8(3)));
        assert_eq!(
            read_source(dir.path()),
            Err(UncheckedReason::NotRegularFile)
        );
        assert!(matches!(
            read_source(&dir.path().join("none.ts")),
            Err(UncheckedReason::Unreadable(_))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_being_opened() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.ts");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Opening a FIFO for reading would wait for a writer forever.
        assert_eq!(read_source(&fifo), Err(UncheckedReason::NotRegularFile));
    }
}
