//! Reading a transcript for its metrics: only the bytes appended since the
//! last event are read, in chunks, so a 100 MB transcript costs one pass
//! and each later event only its growth.
//!
//! The path comes from the hook's input, so it is looked at before it is
//! opened: only a regular file is read (a FIFO, a device, a socket or a
//! directory is refused without opening it, and the open itself neither
//! follows a link nor waits on a FIFO swapped in meanwhile); at most
//! [`READ_CAP`] bytes are read per event, and reading stops at the hook's
//! deadline (behaviour §5.3, "Transcript metrics").

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::Instant;

use rule_fairy_engine::codex::{advance, resume, ScanCursor};

/// Bytes read per call. A line longer than this simply spans chunks.
const CHUNK: usize = 1 << 20;

/// The most read in one event: more appended since the last read, and only
/// the last this many bytes are read.
pub(super) const READ_CAP: u64 = 64 * 1024 * 1024;

/// The transcript's size and the cursor after reading what was appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Scanned {
    pub size: u64,
    pub cursor: ScanCursor,
    /// The file was shorter than what was read before, and was read again
    /// from the start.
    pub restarted: bool,
    /// More than [`READ_CAP`] bytes were appended: this many were skipped,
    /// and counted as one compaction (what they held is unknown, so every
    /// delivered rule is due again rather than trusted to be in context).
    pub skipped: Option<u64>,
    /// The deadline came first: this many bytes are left for the next
    /// event.
    pub unread: Option<u64>,
}

/// Opens `path` for reading only when it is a regular file, without
/// following a link or blocking.
fn open_regular(path: &Path) -> io::Result<File> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Err(io::Error::other("a symbolic link, which is not followed"));
    }
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)?;
    // Checked again on what was opened: the path may have changed.
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(file)
}

/// Scans `path` from `cursor` to the size it had when opened (what Codex
/// appends meanwhile is for the next event), at most [`READ_CAP`] bytes,
/// stopping at `deadline`.
pub(super) fn scan(path: &Path, cursor: ScanCursor, deadline: Instant) -> io::Result<Scanned> {
    scan_at_most(path, cursor, deadline, READ_CAP)
}

/// [`scan`], reading at most `cap` bytes.
fn scan_at_most(
    path: &Path,
    cursor: ScanCursor,
    deadline: Instant,
    cap: u64,
) -> io::Result<Scanned> {
    let mut file = open_regular(path)?;
    let size = file.metadata()?.len();
    let restarted = cursor.scanned_bytes > size;
    let mut cursor = resume(cursor, size);
    let mut skipped = None;
    // After a skip, reading starts mid-line: bytes up to the first LF are
    // passed over.
    let mut to_line_start = false;
    if size - cursor.scanned_bytes > cap {
        let start = size - cap;
        skipped = Some(start - cursor.scanned_bytes);
        cursor = ScanCursor {
            scanned_bytes: start,
            compaction_count: cursor.compaction_count.saturating_add(1),
        };
        to_line_start = true;
    }
    file.seek(SeekFrom::Start(cursor.scanned_bytes))?;
    let mut remaining = size - cursor.scanned_bytes;
    // Bytes after the last complete line, carried into the next chunk.
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; CHUNK.min(remaining as usize)];
    let mut unread = None;
    while remaining > 0 {
        if Instant::now() >= deadline {
            unread = Some(remaining + pending.len() as u64);
            break;
        }
        let want = chunk.len().min(remaining as usize);
        let read = file.read(&mut chunk[..want])?;
        if read == 0 {
            break; // truncated while reading: the next event starts over
        }
        remaining -= read as u64;
        pending.extend_from_slice(&chunk[..read]);
        if to_line_start {
            match memchr_lf(&pending) {
                Some(lf) => {
                    cursor.scanned_bytes += lf as u64 + 1;
                    pending.drain(..=lf);
                    to_line_start = false;
                }
                None => {
                    cursor.scanned_bytes += pending.len() as u64;
                    pending.clear();
                    continue;
                }
            }
        }
        let next = advance(cursor, &pending);
        pending.drain(..(next.scanned_bytes - cursor.scanned_bytes) as usize);
        cursor = next;
    }
    Ok(Scanned {
        size,
        cursor,
        restarted,
        skipped,
        unread,
    })
}

fn memchr_lf(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn later() -> Instant {
        Instant::now() + std::time::Duration::from_secs(60)
    }

    const RECORD: &str =
        "{\"timestamp\":\"t\",\"ordinal\":9,\"type\":\"compacted\",\"payload\":{}}\n";

    #[test]
    fn reads_across_chunks_and_only_appended_bytes_later() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        // A record straddling the first chunk boundary, and a long line.
        let filler = format!("{{\"type\":\"x\",\"t\":\"{}\"}}\n", "a".repeat(CHUNK - 40));
        let long = format!("{{\"type\":\"y\",\"t\":\"{}\"}}\n", "b".repeat(3 * CHUNK));
        let text = format!("{filler}{RECORD}{long}{RECORD}");
        std::fs::write(&path, &text).unwrap();
        let first = scan(&path, ScanCursor::default(), later()).unwrap();
        assert_eq!(first.size, text.len() as u64);
        assert_eq!(
            first.cursor,
            ScanCursor {
                scanned_bytes: text.len() as u64,
                compaction_count: 2
            }
        );
        let mut file = File::options().append(true).open(&path).unwrap();
        file.write_all(RECORD.as_bytes()).unwrap();
        file.write_all(b"{\"partial\":").unwrap();
        let second = scan(&path, first.cursor, later()).unwrap();
        assert_eq!(second.cursor.compaction_count, 3);
        assert_eq!(
            second.cursor.scanned_bytes,
            (text.len() + RECORD.len()) as u64
        );
        assert_eq!(second.size, second.cursor.scanned_bytes + 11);
    }

    #[test]
    fn a_replaced_shorter_file_is_read_from_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        std::fs::write(&path, RECORD.repeat(3)).unwrap();
        let first = scan(&path, ScanCursor::default(), later()).unwrap();
        std::fs::write(&path, RECORD).unwrap();
        let second = scan(&path, first.cursor, later()).unwrap();
        assert_eq!(second.cursor.compaction_count, 1);
        assert!(second.restarted);
        assert!(!first.restarted);
    }

    #[test]
    fn more_than_the_cap_reads_only_the_tail_and_counts_a_compaction() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        let filler = "{\"type\":\"x\"}\n".repeat(20);
        std::fs::write(&path, format!("{RECORD}{filler}{RECORD}")).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        // The tail starts mid-line: that line is passed over.
        let cap = RECORD.len() as u64 + 5;
        let scanned = scan_at_most(&path, ScanCursor::default(), later(), cap).unwrap();
        assert_eq!(scanned.skipped, Some(size - cap));
        // The first record is skipped (counted as one), the last is read.
        assert_eq!(
            scanned.cursor,
            ScanCursor {
                scanned_bytes: size,
                compaction_count: 2
            }
        );
        let again = scan_at_most(&path, scanned.cursor, later(), cap).unwrap();
        assert_eq!(again.cursor, scanned.cursor);
        assert_eq!(again.skipped, None);
    }

    #[test]
    fn the_deadline_leaves_the_rest_for_the_next_event() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        std::fs::write(&path, RECORD.repeat(3)).unwrap();
        let past = Instant::now();
        let scanned = scan(&path, ScanCursor::default(), past).unwrap();
        assert_eq!(scanned.unread, Some(3 * RECORD.len() as u64));
        assert_eq!(scanned.cursor, ScanCursor::default());
        let next = scan(&path, scanned.cursor, later()).unwrap();
        assert_eq!(next.cursor.compaction_count, 3);
        assert_eq!(next.unread, None);
    }

    #[test]
    fn a_missing_file_or_a_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(scan(&dir.path().join("gone"), ScanCursor::default(), later()).is_err());
        assert!(scan(dir.path(), ScanCursor::default(), later()).is_err());
        let link = dir.path().join("link.jsonl");
        std::fs::write(dir.path().join("real.jsonl"), RECORD).unwrap();
        std::os::unix::fs::symlink(dir.path().join("real.jsonl"), &link).unwrap();
        let err = scan(&link, ScanCursor::default(), later()).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
    }
}
