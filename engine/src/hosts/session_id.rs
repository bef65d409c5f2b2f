//! Which session ids may name a file, for both hosts: an id ends up in
//! `<state dir>/<id>.json` (and, for Codex, `<state dir>/locks/<id>.lock`),
//! so anything that could climb out of the state directory, or that no
//! host sends, is refused rather than written somewhere else. Claude Code's
//! and Codex's ids are UUIDs.

/// Longest id accepted, in bytes: the file name gains `.json` and a
/// temporary suffix, and must stay under the usual 255-byte limit.
pub(crate) const MAX_LEN: usize = 200;

/// Why `id` cannot name a state file, or `None` when it can: it must be 1
/// to `MAX_LEN` (200) ASCII letters, digits, `-`, `_` and `.`, not `.`, and
/// hold no `..`.
///
/// ```
/// use rule_fairy_engine::session_id_problem;
/// assert_eq!(session_id_problem("3f1c2a9e-0b6d-4c1e-9a57-2d8f7e6b5a41"), None);
/// assert_eq!(session_id_problem("../x"), Some("contains a path separator"));
/// assert_eq!(session_id_problem(""), Some("is empty"));
/// ```
pub fn session_id_problem(id: &str) -> Option<&'static str> {
    if id.is_empty() {
        Some("is empty")
    } else if id.contains('/') || id.contains('\\') {
        Some("contains a path separator")
    } else if id.contains("..") || id == "." {
        Some("contains `..`")
    } else if id.contains('\0') {
        Some("contains a NUL character")
    } else if id.len() > MAX_LEN {
        Some("is longer than 200 bytes")
    } else if !id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        Some("holds a character other than ASCII letters, digits, `-`, `_` and `.`")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_either_host_refused_stays_refused() {
        for good in [
            "3f1c2a9e-0b6d-4c1e-9a57-2d8f7e6b5a41",
            "019a2c7e-1b2c-7d3e-8f40-123456789abc",
            "a.b",
            "s_1",
            &"x".repeat(MAX_LEN),
        ] {
            assert_eq!(session_id_problem(good), None, "{good}");
        }
        let long = "x".repeat(MAX_LEN + 1);
        for (bad, why) in [
            ("", "is empty"),
            ("../x", "contains a path separator"),
            ("a/b", "contains a path separator"),
            ("a\\b", "contains a path separator"),
            ("..", "contains `..`"),
            (".", "contains `..`"),
            ("a..b", "contains `..`"),
            ("a\0b", "contains a NUL character"),
            (long.as_str(), "is longer than 200 bytes"),
            ("a b", "holds a character"),
            ("a:b", "holds a character"),
            ("é", "holds a character"),
            ("a\nb", "holds a character"),
        ] {
            let problem = session_id_problem(bad).unwrap_or_default();
            assert!(problem.starts_with(why), "{bad:?}: {problem}");
        }
    }
}
