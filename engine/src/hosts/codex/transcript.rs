//! Counting compactions in a Codex session's transcript (its rollout file),
//! incrementally. Codex removes every earlier hook context from the
//! conversation when it compacts, so a delivered rule is due again after a
//! compaction; the transcript is where a compaction shows (behaviour §5.3,
//! "Transcript metrics").
//!
//! The file only grows during a session, so a byte cursor remembers how far
//! it was read and each event reads only what was appended. The caller reads
//! the bytes; this module decides where to start and what they count.
//!
//! ```
//! use rule_fairy_engine::codex::{advance, resume, ScanCursor};
//! let file = b"{\"type\":\"event_msg\"}\n{\"timestamp\":\"t\",\"ordinal\":2,\"type\":\"compacted\",\"payload\":{}}\n{\"type\":";
//! let start = resume(ScanCursor::default(), file.len() as u64);
//! let cursor = advance(start, &file[start.scanned_bytes as usize..]);
//! assert_eq!(cursor.compaction_count, 1);
//! // The partial last line waits for the next event.
//! assert_eq!(cursor.scanned_bytes as usize, file.len() - "{\"type\":".len());
//! ```

use memchr::memmem;
use serde::{Deserialize, Serialize};

/// How far a transcript has been read, and the compactions found so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanCursor {
    /// Bytes read so far; always the end of a complete line.
    pub scanned_bytes: u64,
    /// Compaction records in those bytes.
    pub compaction_count: u64,
}

/// Where the next scan of a file of `file_len` bytes starts: at the cursor,
/// or from the beginning when the file is shorter than what was already
/// read, because it was truncated or replaced.
pub fn resume(cursor: ScanCursor, file_len: u64) -> ScanCursor {
    if file_len < cursor.scanned_bytes {
        ScanCursor::default()
    } else {
        cursor
    }
}

/// Moves the cursor over `appended`, the file's bytes from
/// `cursor.scanned_bytes` on: counts the compaction records among the
/// complete lines and stops after the last LF. A partial last line is left
/// for the next call, so a record Codex is still writing is neither missed
/// nor counted twice.
pub fn advance(cursor: ScanCursor, appended: &[u8]) -> ScanCursor {
    let Some(last_lf) = memchr::memrchr(b'\n', appended) else {
        return cursor;
    };
    let complete = &appended[..=last_lf];
    // Saturating: a cursor read from a state file is not trusted.
    ScanCursor {
        scanned_bytes: cursor.scanned_bytes.saturating_add(complete.len() as u64),
        compaction_count: cursor
            .compaction_count
            .saturating_add(count_compactions(complete)),
    }
}

/// The value every compaction record's top-level `type` has. Inside string
/// values the quotes are escaped, so this exact text only occurs where
/// Codex wrote a `type` (or another field) with that value.
const COMPACTED: &[u8] = b"\"compacted\"";

/// The compaction records among complete lines: lines whose top-level
/// `type` is `compacted` (one line per compaction). Only lines containing
/// the value at all are looked at closely, so a 100 MB transcript costs one
/// substring search.
pub(crate) fn count_compactions(lines: &[u8]) -> u64 {
    let mut count = 0;
    // End of the last line looked at, so a line with two hits counts once.
    let mut checked_until = 0;
    for hit in memmem::find_iter(lines, COMPACTED) {
        if hit < checked_until {
            continue;
        }
        let start = memchr::memrchr(b'\n', &lines[..hit]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &lines[hit..]).map_or(lines.len(), |i| hit + i);
        if top_level_type(&lines[start..end]) == Some(&b"compacted"[..]) {
            count += 1;
        }
        checked_until = end;
    }
    count
}

/// The raw text of a JSON object's top-level `"type"` string value, found
/// without parsing the rest of the line (a compaction record carries the
/// whole replacement history, which can be megabytes).
fn top_level_type(line: &[u8]) -> Option<&[u8]> {
    let mut i = skip_whitespace(line, 0);
    if line.get(i) != Some(&b'{') {
        return None;
    }
    let mut depth = 0usize;
    let mut expecting_key = false;
    while i < line.len() {
        match line[i] {
            b'"' => {
                let end = string_end(line, i)?;
                let text = &line[i + 1..end];
                i = end + 1;
                if depth == 1 && expecting_key {
                    expecting_key = false;
                    let colon = skip_whitespace(line, i);
                    if text == b"type" && line.get(colon) == Some(&b':') {
                        let value = skip_whitespace(line, colon + 1);
                        if line.get(value) == Some(&b'"') {
                            let value_end = string_end(line, value)?;
                            return Some(&line[value + 1..value_end]);
                        }
                    }
                }
                continue;
            }
            b'{' => {
                depth += 1;
                expecting_key = depth == 1;
            }
            b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expecting_key = true,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote closing the string that opens at `open`.
fn string_end(line: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn skip_whitespace(line: &[u8], mut i: usize) -> usize {
    while matches!(line.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMPACTION: &str = "{\"timestamp\":\"2026-11-30T02:00:47.000Z\",\"ordinal\":22,\"type\":\"compacted\",\"payload\":{\"message\":\"summary\",\"replacement_history\":[{\"type\":\"message\"}]}}\n";
    const EVENT: &str =
        "{\"timestamp\":\"t\",\"ordinal\":23,\"type\":\"event_msg\",\"payload\":{\"type\":\"item_completed\",\"item\":{\"type\":\"ContextCompaction\"}}}\n";

    fn scan(cursor: ScanCursor, file: &[u8]) -> ScanCursor {
        let start = resume(cursor, file.len() as u64);
        advance(start, &file[start.scanned_bytes as usize..])
    }

    #[test]
    fn an_empty_file_scans_to_nothing() {
        assert_eq!(scan(ScanCursor::default(), b""), ScanCursor::default());
    }

    #[test]
    fn counts_compaction_records_and_rescanning_changes_nothing() {
        let file = format!("{EVENT}{COMPACTION}{EVENT}");
        let cursor = scan(ScanCursor::default(), file.as_bytes());
        assert_eq!(
            cursor,
            ScanCursor {
                scanned_bytes: file.len() as u64,
                compaction_count: 1
            }
        );
        assert_eq!(scan(cursor, file.as_bytes()), cursor);
    }

    #[test]
    fn a_partial_line_waits_until_it_is_complete() {
        let mut file = COMPACTION.to_string();
        let first = scan(ScanCursor::default(), file.as_bytes());
        let record = COMPACTION.trim_end();
        file.push_str(&record[..30]);
        let partial = scan(first, file.as_bytes());
        assert_eq!(partial, first);
        file.push_str(&record[30..]);
        file.push('\n');
        let complete = scan(partial, file.as_bytes());
        assert_eq!(
            complete,
            ScanCursor {
                scanned_bytes: file.len() as u64,
                compaction_count: 2
            }
        );
    }

    #[test]
    fn a_shorter_file_is_scanned_from_the_start() {
        let stale = ScanCursor {
            scanned_bytes: 10_000,
            compaction_count: 7,
        };
        let cursor = scan(stale, COMPACTION.as_bytes());
        assert_eq!(
            cursor,
            ScanCursor {
                scanned_bytes: COMPACTION.len() as u64,
                compaction_count: 1
            }
        );
    }

    #[test]
    fn only_a_top_level_type_counts() {
        let quoted = "{\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"text\":\"we saw \\\"type\\\":\\\"compacted\\\" and \\\"compacted\\\"\"}}\n";
        let nested = "{\"type\":\"event_msg\",\"payload\":{\"type\":\"compacted\"}}\n";
        let other_key = "{\"kind\":\"compacted\",\"type\":\"event_msg\"}\n";
        let spaced = "{ \"ordinal\" : 3 , \"type\" : \"compacted\" }\n";
        let text = format!("{quoted}{nested}{other_key}{spaced}");
        assert_eq!(count_compactions(text.as_bytes()), 1);
    }

    #[test]
    fn broken_lines_count_nothing_and_do_not_stop_the_scan() {
        let text = format!("{{\"type\":\"compacted\n\"compacted\"\n[\"compacted\"]\n{COMPACTION}");
        assert_eq!(count_compactions(text.as_bytes()), 1);
    }

    #[test]
    fn offsets_are_bytes_with_multi_byte_text() {
        let line = "{\"type\":\"message\",\"text\":\"été — 日本語 🦀\"}\n";
        let file = format!("{line}{COMPACTION}");
        let first = scan(ScanCursor::default(), line.as_bytes());
        assert_eq!(first.scanned_bytes, line.len() as u64);
        let cursor = scan(first, file.as_bytes());
        assert_eq!(cursor.scanned_bytes, file.len() as u64);
        assert_eq!(cursor.compaction_count, 1);
    }
}
