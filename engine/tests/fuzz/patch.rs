//! Unified diffs: the paths a patch changes (behaviour §6.2).

use proptest::prelude::*;
use rule_fairy_engine::patch::{changed_paths, has_file_sections, unquote};

use crate::inputs::{bounded, config, mutated};

/// A path as git writes it in a header: C-quoted when it holds a quote, a
/// backslash, a control character or a non-ASCII byte.
fn git_quote(path: &str) -> String {
    let needs = path
        .bytes()
        .any(|b| b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b));
    if !needs {
        return path.to_string();
    }
    let mut out = String::from("\"");
    for b in path.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            b if !(0x20..0x7f).contains(&b) => out.push_str(&format!("\\{b:03o}")),
            b => out.push(b as char),
        }
    }
    out.push('"');
    out
}

/// `prefix` joined to a path, quoted as a whole as git does.
fn side(prefix: &str, path: &str) -> String {
    let quoted = git_quote(path);
    match quoted.strip_prefix('"') {
        Some(rest) => format!("\"{prefix}{rest}"),
        None => format!("{prefix}{path}"),
    }
}

fn path() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-zA-Z0-9_. \"\\\\\t\n\u{e9}\u{1F600}-]{1,6}|b|a b", 1..4)
        .prop_map(|segments| segments.join("/"))
        .prop_filter("git paths", |p| {
            p.split('/').all(|s| s != "." && s != ".." && !s.is_empty())
                && !p.starts_with(' ')
                && !p.ends_with(' ')
        })
}

#[derive(Debug, Clone)]
enum Change {
    Edit(String),
    Rename(String, String),
}

fn section(change: &Change) -> String {
    match change {
        Change::Edit(p) => format!(
            "diff --git {} {}\nindex 1111111..2222222 100644\n--- {}\n+++ {}\n@@ -1 +1 @@\n-rename to x\n+diff --git a/x b/x\n",
            side("a/", p), side("b/", p), side("a/", p), side("b/", p)
        ),
        Change::Rename(from, to) => format!(
            "diff --git {} {}\nsimilarity index 90%\nrename from {}\nrename to {}\n",
            side("a/", from), side("b/", to), git_quote(from), git_quote(to)
        ),
    }
}

const SEEDS: &[&[u8]] = &[
    b"From 1 Mon Sep 17 00:00:00 2001\nSubject: x\n\ndiff --git a/src/a b/x.ts b/src/a b/x.ts\nindex 1..2 100644\n--- a/src/a b/x.ts\n+++ b/src/a b/x.ts\n@@ -1 +1 @@\n-a\n+b\ndiff --git \"a/caf\\303\\251.md\" \"b/caf\\303\\251.md\"\nnew file mode 100644\n",
    b"diff --git a/old name b/new name\nsimilarity index 100%\nrename from old name\nrename to new name\ndiff --git a/x b/y\ncopy from x\ncopy to \"y\\tz\"\n",
];

proptest! {
    #![proptest_config(config(512))]

    /// The paths git would write come back, renames by their new name,
    /// each once in order of first appearance.
    #[test]
    fn changed_paths_round_trip(changes in prop::collection::vec(
        prop_oneof![
            path().prop_map(Change::Edit),
            (path(), path()).prop_map(|(a, b)| Change::Rename(a, b)),
        ], 0..6)
    ) {
        let patch: String = changes.iter().map(section).collect();
        let mut expected: Vec<String> = Vec::new();
        for change in &changes {
            let path = match change { Change::Edit(p) | Change::Rename(_, p) => p.clone() };
            if !expected.contains(&path) {
                expected.push(path);
            }
        }
        prop_assert_eq!(has_file_sections(&patch), !changes.is_empty());
        prop_assert_eq!(changed_paths(&patch), expected, "{}", patch);
    }

    /// Git's quoting read back gives the path.
    #[test]
    fn unquote_reverses_git_quoting(path in any::<String>()) {
        let quoted = git_quote(&path);
        let inner = quoted.strip_prefix('"').and_then(|q| q.strip_suffix('"')).unwrap_or(&quoted);
        prop_assert_eq!(unquote(inner), path);
    }

    /// Any text: no panic, and every path found is non-empty.
    #[test]
    fn any_patch_text_is_read(bytes in mutated(SEEDS)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let paths = bounded("patch", move || changed_paths(&text));
        for path in paths {
            prop_assert!(!path.is_empty());
        }
    }

    /// Any escapes at all decode without a panic.
    #[test]
    fn any_escapes_decode(text in "(\\\\[0-7]{0,4}|\\\\.|[a-z\u{e9}\"])*\\\\?") {
        let _ = unquote(&text);
    }
}
