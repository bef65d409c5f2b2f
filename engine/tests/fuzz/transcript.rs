//! The Codex transcript scan: compactions counted over complete lines,
//! incrementally (behaviour §5.3, "Transcript metrics").

use proptest::prelude::*;
use rule_fairy_engine::codex::{advance, resume, ScanCursor};
use serde_json::{json, Value};

use crate::inputs::{bounded, config, mutated};

const COMPACTED: &[u8] = br#"{"timestamp":"2026-11-30T02:00:47.000Z","ordinal":22,"type":"compacted","payload":{"message":"summary","replacement_history":[{"type":"compacted"}]}}"#;
const EVENT: &[u8] = br#"{"timestamp":"2026-11-30T02:00:46.000Z","ordinal":21,"type":"event_msg","payload":{"type":"token_count","text":"\"compacted\""}}"#;

const SEEDS: &[&[u8]] = &[
    b"{\"timestamp\":\"2026-11-30T02:00:46.000Z\",\"ordinal\":21,\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\",\"text\":\"\\\"compacted\\\"\"}}\n{\"timestamp\":\"2026-11-30T02:00:47.000Z\",\"ordinal\":22,\"type\":\"compacted\",\"payload\":{\"message\":\"summary\",\"replacement_history\":[{\"type\":\"compacted\"}]}}\n",
    b"{\"payload\":{\"type\":\"compacted\"},\"type\":\"response_item\"}\n{ \"type\" : \"compacted\" }\n{\"type\":\"compacted\"",
];

/// A transcript line: an object whose top-level `type` may or may not be
/// `compacted`, with the word elsewhere too (nested, in strings, in keys).
fn line() -> impl Strategy<Value = Value> {
    let text = prop_oneof![
        Just("compacted".to_string()),
        Just("\"compacted\"".to_string()),
        Just("event_msg".to_string()),
        "[a-z\" \\\\{}:\n]{0,12}",
    ];
    let nested = prop_oneof![
        text.clone().prop_map(|t| json!({"type": t})),
        text.clone().prop_map(|t| json!([{"type": t}, t])),
        text.clone()
            .prop_map(|t| json!({ t.clone(): "compacted", "x": {"type": t} })),
        text.clone().prop_map(Value::String),
    ];
    (
        prop::option::of(text),
        prop::collection::vec(("[a-z_]{1,8}", nested), 0..4),
        any::<bool>(),
    )
        .prop_map(|(kind, fields, type_last)| {
            let mut object = serde_json::Map::new();
            if !type_last {
                if let Some(kind) = &kind {
                    object.insert("type".into(), Value::String(kind.clone()));
                }
            }
            for (key, value) in fields {
                if key != "type" {
                    object.insert(key, value);
                }
            }
            if type_last {
                if let Some(kind) = kind {
                    object.insert("type".into(), Value::String(kind));
                }
            }
            Value::Object(object)
        })
}

/// The cursor after reading `file` in pieces ending at each of `cuts`.
fn scan_in_pieces(file: &[u8], cuts: &[usize]) -> ScanCursor {
    let mut cursor = ScanCursor::default();
    let mut ends: Vec<usize> = cuts.iter().map(|c| c % (file.len() + 1)).collect();
    ends.sort_unstable();
    ends.push(file.len());
    for end in ends {
        cursor = resume(cursor, end as u64);
        let start = cursor.scanned_bytes as usize;
        if start <= end {
            cursor = advance(cursor, &file[start..end]);
        }
    }
    cursor
}

proptest! {
    #![proptest_config(config(512))]

    /// The count is the number of complete lines whose top-level `type` is
    /// `compacted`, as a JSON parser reads them, and the cursor ends after
    /// the last line end.
    #[test]
    fn compactions_are_counted_as_a_parser_reads_them(
        lines in prop::collection::vec(line(), 0..12),
        pretty in any::<bool>(),
        tail in "[a-z{\"]{0,10}",
    ) {
        let mut file = Vec::new();
        let mut expected = 0;
        for value in &lines {
            let text = if pretty { serde_json::to_string_pretty(value).unwrap().replace('\n', " ") } else { value.to_string() };
            file.extend_from_slice(text.as_bytes());
            file.push(b'\n');
            if value.get("type").and_then(Value::as_str) == Some("compacted") {
                expected += 1;
            }
        }
        let complete = file.len();
        file.extend_from_slice(tail.as_bytes());
        let cursor = advance(ScanCursor::default(), &file);
        prop_assert_eq!(cursor.compaction_count, expected, "{}", String::from_utf8_lossy(&file));
        prop_assert_eq!(cursor.scanned_bytes as usize, complete);
    }

    /// Reading a file in pieces gives what reading it whole gives, for any
    /// bytes.
    #[test]
    fn pieces_read_as_the_whole(
        file in mutated(SEEDS),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let (whole, pieces) = bounded("transcript", move || {
            let whole = advance(ScanCursor::default(), &file);
            (whole, scan_in_pieces(&file, &cuts))
        });
        prop_assert_eq!(whole, pieces);
    }

    /// A shorter file than the cursor read (replaced or truncated) is read
    /// again from its start.
    #[test]
    fn a_shorter_file_is_read_from_the_start(read in 1..u64::MAX, len in any::<u64>()) {
        let cursor = ScanCursor { scanned_bytes: read, compaction_count: 3 };
        let resumed = resume(cursor, len);
        if len < read {
            prop_assert_eq!(resumed, ScanCursor::default());
        } else {
            prop_assert_eq!(resumed, cursor);
        }
    }

    /// Counts near the top of the range saturate instead of overflowing (a
    /// cursor comes from a state file, which anyone can write).
    #[test]
    fn counts_saturate(count in (u64::MAX - 4)..=u64::MAX, scanned in (u64::MAX - 300)..=u64::MAX) {
        let mut file = COMPACTED.to_vec();
        file.push(b'\n');
        file.extend_from_slice(EVENT);
        file.push(b'\n');
        file = file.repeat(5);
        let cursor = bounded("saturation", move || advance(ScanCursor { scanned_bytes: scanned, compaction_count: count }, &file));
        prop_assert_eq!(cursor.compaction_count, u64::MAX);
        prop_assert!(cursor.scanned_bytes >= scanned);
    }
}
