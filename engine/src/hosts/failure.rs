//! What every host says when a delivery stops before anything was recorded
//! (behaviour §4.7): the entry the model reads and the one-line summary the
//! person sees. Built here once; the Claude Code mod keeps a copy for when
//! the engine itself failed to load (`mod/failure.ts`), and a test holds it
//! equal to this one (`tests/claude/copies.test.mjs`).

use crate::render::labels::NOTHING_INJECTED;

/// Characters (Unicode scalar values) of detail an entry and a summary
/// carry, as the original keeps of a failed process's standard error.
pub(crate) const DETAIL_CHARS: usize = 1_000;

/// The detail as every failure text carries it: trimmed, then cut to
/// [`DETAIL_CHARS`].
pub(crate) fn kept_detail(detail: &str) -> String {
    detail.trim().chars().take(DETAIL_CHARS).collect()
}

/// `[rule-fairy error: <kind> delivery <how>]`, LF, the detail (see
/// `kept_detail`; left out with its line when empty), LF,
/// [`NOTHING_INJECTED`]. `kind` is what was delivered (`prompt`, `edit`,
/// `shell`, `session start`), `how` how it stopped (`failed`, `threw`,
/// `timed out`). No shard header, so it is never read back as a delivery.
///
/// ```
/// use rule_fairy_engine::delivery_failed;
/// assert_eq!(
///     delivery_failed("prompt", "failed", ""),
///     "[rule-fairy error: prompt delivery failed]\nNo matched rules were injected or marked as injected."
/// );
/// ```
pub fn delivery_failed(kind: &str, how: &str, detail: &str) -> String {
    let detail = kept_detail(detail);
    if detail.is_empty() {
        format!("[rule-fairy error: {kind} delivery {how}]\n{NOTHING_INJECTED}")
    } else {
        format!("[rule-fairy error: {kind} delivery {how}]\n{detail}\n{NOTHING_INJECTED}")
    }
}

/// `<kind> delivery <how>: <detail>` (without `: ` and the detail when it
/// is empty), the detail kept as in [`delivery_failed`]: the line a host
/// logs or shows the person, after its own prefix (`rule-fairy: ` in
/// Claude Code's transcript, `Rule Fairy: ` in Codex's system message).
pub fn failure_summary(kind: &str, how: &str, detail: &str) -> String {
    let detail = kept_detail(detail);
    if detail.is_empty() {
        format!("{kind} delivery {how}")
    } else {
        format!("{kind} delivery {how}: {detail}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_and_summaries() {
        assert_eq!(
            delivery_failed("shell", "failed", "Rule import does not exist: doc/lib.md\n"),
            "[rule-fairy error: shell delivery failed]\nRule import does not exist: doc/lib.md\nNo matched rules were injected or marked as injected."
        );
        let long = "x".repeat(5_000);
        assert!(delivery_failed("edit", "threw", &long).len() < 1_200);
        assert_eq!(
            failure_summary("session start", "failed", "  a.mdc: bad \n"),
            "session start delivery failed: a.mdc: bad"
        );
        assert_eq!(
            failure_summary("edit", "timed out", " "),
            "edit delivery timed out"
        );
        // Cut by characters, never inside one.
        let wide = "é".repeat(DETAIL_CHARS + 5);
        assert_eq!(kept_detail(&wide).chars().count(), DETAIL_CHARS);
        assert_eq!(
            failure_summary("prompt", "threw", &wide),
            format!("prompt delivery threw: {}", "é".repeat(DETAIL_CHARS))
        );
    }
}
