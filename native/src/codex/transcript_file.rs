//! Reading a transcript for its metrics: only the bytes appended since the
//! last event are read, in chunks, so a 100 MB transcript costs one pass
//! and each later event only its growth.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use rule_fairy_engine::codex::{advance, resume, ScanCursor};

/// Bytes read per call. A line longer than this simply spans chunks.
const CHUNK: usize = 1 << 20;

/// The transcript's size and the cursor after reading what was appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Scanned {
    pub size: u64,
    pub cursor: ScanCursor,
    /// The file was shorter than what was read before, and was read again
    /// from the start.
    pub restarted: bool,
}

/// Scans `path` from `cursor` to the size it had when opened (what Codex
/// appends meanwhile is for the next event).
pub(super) fn scan(path: &Path, cursor: ScanCursor) -> io::Result<Scanned> {
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let size = meta.len();
    let restarted = cursor.scanned_bytes > size;
    let mut cursor = resume(cursor, size);
    file.seek(SeekFrom::Start(cursor.scanned_bytes))?;
    let mut remaining = size - cursor.scanned_bytes;
    // Bytes after the last complete line, carried into the next chunk.
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; CHUNK.min(remaining as usize)];
    while remaining > 0 {
        let want = chunk.len().min(remaining as usize);
        let read = file.read(&mut chunk[..want])?;
        if read == 0 {
            break; // truncated while reading: the next event starts over
        }
        remaining -= read as u64;
        pending.extend_from_slice(&chunk[..read]);
        let next = advance(cursor, &pending);
        pending.drain(..(next.scanned_bytes - cursor.scanned_bytes) as usize);
        cursor = next;
    }
    Ok(Scanned {
        size,
        cursor,
        restarted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

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
        let first = scan(&path, ScanCursor::default()).unwrap();
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
        let second = scan(&path, first.cursor).unwrap();
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
        let first = scan(&path, ScanCursor::default()).unwrap();
        std::fs::write(&path, RECORD).unwrap();
        let second = scan(&path, first.cursor).unwrap();
        assert_eq!(second.cursor.compaction_count, 1);
        assert!(second.restarted);
        assert!(!first.restarted);
    }

    #[test]
    fn a_missing_file_or_a_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(scan(&dir.path().join("gone"), ScanCursor::default()).is_err());
        assert!(scan(dir.path(), ScanCursor::default()).is_err());
    }
}
