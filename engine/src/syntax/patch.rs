//! The paths a unified diff changes (behaviour §6.2): the post-image path of
//! every `diff --git` section, which is what the review bundle matches the
//! rules against; and the files an apply_patch text names (§5.3).
//!
//! Git quotes a path holding a quote, a backslash, a control character or
//! (unless `core.quotepath` is off) a non-ASCII byte, C-style, and never
//! quotes one for spaces alone. So an unquoted header can itself contain
//! ` b/`, and a rename's header is ambiguous: its `rename to` line is not.

const HEADER: &str = "diff --git ";

/// The post-image paths of a patch, one per file section, in order of
/// first appearance.
///
/// ```
/// use rule_fairy_engine::patch::changed_paths;
/// let patch = "diff --git a/src/a b/x.ts b/src/a b/x.ts\n\
///              diff --git \"a/caf\\303\\251.md\" \"b/caf\\303\\251.md\"\n";
/// assert_eq!(changed_paths(patch), vec!["src/a b/x.ts", "café.md"]);
/// ```
pub fn changed_paths(patch: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    sections(patch)
        .iter()
        .filter_map(|section| post_image(section))
        .filter(|path| seen.insert(path.clone()))
        .collect()
}

/// Whether the text holds at least one file section.
pub fn has_file_sections(patch: &str) -> bool {
    crate::base::text::lines(patch)
        .iter()
        .any(|line| line.starts_with(HEADER))
}

/// Lines grouped per file, each group starting with its header; anything
/// before the first header (a mail's headers, a commit message) is dropped.
fn sections(patch: &str) -> Vec<Vec<&str>> {
    let mut sections: Vec<Vec<&str>> = Vec::new();
    for line in crate::base::text::lines(patch) {
        if line.starts_with(HEADER) {
            sections.push(vec![line]);
        } else if let Some(current) = sections.last_mut() {
            current.push(line);
        }
    }
    sections
}

/// An empty path (a quoted `"b/"`, a `rename to ""`) names no file.
fn post_image(section: &[&str]) -> Option<String> {
    destination_line(&section[1..])
        .filter(|path| !path.is_empty())
        .or_else(|| header_post_image(&section[0][HEADER.len()..]))
        .filter(|path| !path.is_empty())
}

/// The path of a `rename to` or `copy to` line in the extended header. A
/// hunk can hold the same text as a removed line, so only lines before the
/// first hunk or file marker count.
fn destination_line(extended: &[&str]) -> Option<String> {
    extended
        .iter()
        .take_while(|line| !line.starts_with("@@") && !line.starts_with("--- "))
        .find_map(|line| {
            line.strip_prefix("rename to ")
                .or_else(|| line.strip_prefix("copy to "))
                .filter(|path| !path.is_empty())
        })
        .map(
            |path| match path.strip_prefix('"').and_then(|p| p.strip_suffix('"')) {
                Some(quoted) if path.len() >= 2 => unquote(quoted),
                _ => path.to_string(),
            },
        )
}

/// The post-image path of a header body (the text after `diff --git `).
fn header_post_image(body: &str) -> Option<String> {
    if body.ends_with('"') {
        let quoted = last_quoted(body)?;
        return unquote(quoted).strip_prefix("b/").map(str::to_string);
    }
    if let Some(path) = symmetric(body) {
        return Some(path.to_string());
    }
    // `a/<old> b/<new>`, possibly with the old side quoted: split at the
    // last ` b/`, which is right unless the new path itself holds ` b/`.
    let rest = body.strip_prefix('"').unwrap_or(body).strip_prefix("a/")?;
    let split = rest.rfind(" b/")?;
    let path = &rest[split + 3..];
    (!path.is_empty() && split > 0).then(|| path.to_string())
}

/// A body that reads as the same path on both sides, `a/P b/P`.
fn symmetric(body: &str) -> Option<&str> {
    let len = body.len();
    if len.is_multiple_of(2) || len < 7 || !body.starts_with("a/") {
        return None;
    }
    let half = (len - 5) / 2;
    let (old, new) = (body.get(2..2 + half)?, body.get(5 + half..)?);
    (body.get(2 + half..5 + half)? == " b/" && old == new).then_some(new)
}

/// The contents of the last double-quoted string of a body that ends with a
/// quote: escaped quotes inside do not end it.
fn last_quoted(body: &str) -> Option<&str> {
    let bytes = body.as_bytes();
    let end = bytes.len() - 1;
    // Scan from the left so escapes are read the way git wrote them.
    let mut start = None;
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'"' => {
                let open = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i == end {
                    start = Some(open);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    start.map(|open| &body[open + 1..end])
}

/// Decodes git's C-style quoting. The work is on UTF-8 bytes: a backslash
/// never occurs inside a multi-byte sequence, so a literal non-ASCII
/// character passes through whole, and octal-escaped bytes and literal
/// characters of the same path agree once the bytes are read back.
///
/// ```
/// use rule_fairy_engine::patch::unquote;
/// assert_eq!(unquote(r#"src/f\303\244\"x\\y\tz"#), "src/fä\"x\\y\tz");
/// ```
pub fn unquote(quoted: &str) -> String {
    let bytes = quoted.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' || i + 1 == bytes.len() {
            out.push(b);
            i += 1;
            continue;
        }
        let digits = bytes[i + 1..]
            .iter()
            .take(3)
            .take_while(|d| (b'0'..=b'7').contains(d))
            .count();
        if digits > 0 {
            let value = bytes[i + 1..i + 1 + digits]
                .iter()
                .fold(0u32, |value, d| value * 8 + u32::from(d - b'0'));
            // Three octal digits reach 511; git never writes more than 377.
            out.push(value as u8);
            i += 1 + digits;
        } else {
            out.push(match bytes[i + 1] {
                b'a' => 7,
                b'b' => 8,
                b't' => 9,
                b'n' => 10,
                b'v' => 11,
                b'f' => 12,
                b'r' => 13,
                other => other,
            });
            i += 2;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The headers of an apply_patch text (Codex's and opencode's patch tool)
/// that name a file.
const APPLY_PATCH_HEADERS: [&str; 4] = [
    "*** Add File: ",
    "*** Update File: ",
    "*** Delete File: ",
    "*** Move to: ",
];

/// The files an apply_patch text adds, updates, deletes or moves to, as
/// written (trimmed), in order, each once; a move names its source and its
/// destination, so the rules of both apply (behaviour §5.3, post-edit).
///
/// ```
/// use rule_fairy_engine::patch::apply_patch_paths;
/// let patch = "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n*** Add File: a.ts\n";
/// assert_eq!(apply_patch_paths(patch), vec!["a.ts", "b.ts"]);
/// ```
pub fn apply_patch_paths(patch: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    patch
        .lines()
        .filter_map(|line| {
            APPLY_PATCH_HEADERS
                .iter()
                .find_map(|header| line.strip_prefix(header))
        })
        .map(str::trim)
        .filter(|path| !path.is_empty() && seen.insert(*path))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_159a_plain_headers_and_an_empty_patch() {
        let patch = "diff --git a/apps/a.clj b/apps/a.clj\n\
                     index 1..2 100644\n\
                     diff --git a/docs/old.md b/docs/new name.md\n\
                     diff --git a/apps/a.clj b/apps/a.clj\n";
        assert_eq!(changed_paths(patch), vec!["apps/a.clj", "docs/new name.md"]);
        assert!(changed_paths("").is_empty());
        assert!(changed_paths("From 1111\nSubject: no sections\n").is_empty());
    }

    #[test]
    fn case_159b_quoted_headers() {
        let patch = concat!(
            "diff --git \"a/src/f\\303\\244\\303\\266.clj\" \"b/src/f\\303\\244\\303\\266.clj\"\n",
            "diff --git \"a/src/quo\\\"te.clj\" \"b/src/quo\\\"te.clj\"\n",
            "diff --git \"a/back\\\\slash.clj\" \"b/back\\\\slash.clj\"\n",
            "diff --git \"a/tab\\there.clj\" \"b/tab\\there.clj\"\n",
            "diff --git \"a/quo\\\"ted.clj\" b/plain.clj\n",
        );
        assert_eq!(
            changed_paths(patch),
            vec![
                "src/fäö.clj",
                "src/quo\"te.clj",
                "back\\slash.clj",
                "tab\there.clj",
                "plain.clj"
            ]
        );
    }

    #[test]
    fn case_159c_literal_and_escaped_emoji_agree() {
        let patch = concat!(
            "diff --git \"a/src/😀\\\"name.clj\" \"b/src/😀\\\"name.clj\"\n",
            "diff --git \"a/src/\\360\\237\\230\\200\\\"name.clj\" \"b/src/\\360\\237\\230\\200\\\"name.clj\"\n",
        );
        assert_eq!(changed_paths(patch), vec!["src/😀\"name.clj"]);
    }

    #[test]
    fn case_159d_named_escapes() {
        let patch = "diff --git \"a/c\\a\\b\\f\\v.clj\" \"b/c\\a\\b\\f\\v.clj\"\n";
        assert_eq!(changed_paths(patch), vec!["c\u{7}\u{8}\u{c}\u{b}.clj"]);
    }

    #[test]
    fn case_159e_unquoted_paths_holding_b_slash() {
        let patch = "diff --git a/src/a b/name.clj b/src/a b/name.clj\n\
                     diff --git a/src/a b/x.clj b/src/y.clj\n";
        assert_eq!(changed_paths(patch), vec!["src/a b/name.clj", "src/y.clj"]);
    }

    #[test]
    fn case_159f_renames_take_their_rename_to_line() {
        let patch = concat!(
            "diff --git a/src/old.clj b/src/a b/name.clj\n",
            "similarity index 100%\n",
            "rename from src/old.clj\n",
            "rename to src/a b/name.clj\n",
            "diff --git a/src/plain.clj \"b/src/q\\\"x.clj\"\n",
            "similarity index 50%\n",
            "rename from src/plain.clj\n",
            "rename to \"src/q\\\"x.clj\"\n",
            "index 1..2 100644\n",
            "--- a/src/plain.clj\n",
            "+++ \"b/src/q\\\"x.clj\"\n",
            "@@ -1 +1 @@\n",
            "-rename to src/not-this.clj\n",
            "+x\n",
            "diff --git a/src/here.clj b/src/moved.clj\n",
            "similarity index 80%\n",
            "rename from src/here.clj\n",
            "rename to src/moved.clj\n",
            "--- a/src/here.clj\n",
            "+++ b/src/moved.clj\n",
        );
        assert_eq!(
            changed_paths(patch),
            vec!["src/a b/name.clj", "src/q\"x.clj", "src/moved.clj"]
        );
    }

    #[test]
    fn copies_crlf_and_odd_escapes() {
        let patch = "diff --git a/x.c b/y.c\r\ncopy from x.c\r\ncopy to y.c\r\n";
        assert_eq!(changed_paths(patch), vec!["y.c"]);
        // An unknown escape stands for itself; a trailing backslash stays.
        assert_eq!(unquote("a\\qb\\"), "aqb\\");
        // One or two octal digits are a byte too.
        assert_eq!(unquote("\\11x\\7"), "\tx\u{7}");
        assert!(has_file_sections("x\ndiff --git a/a b/a\n"));
        assert!(!has_file_sections("--- a/x\n+++ b/x\n"));
    }

    /// Found by the fuzz suite: a quoted `"b/"` header and an empty
    /// `rename to ""` gave an empty path.
    #[test]
    fn empty_paths_name_no_file() {
        assert!(changed_paths("diff --git \"a/\" \"b/\"\n").is_empty());
        assert_eq!(
            changed_paths("diff --git a/x b/y\nrename from x\nrename to \"\"\n"),
            vec!["y"]
        );
    }
}
