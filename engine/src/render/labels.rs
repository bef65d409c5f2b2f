//! The labels Rule Fairy writes into an agent's context (behaviour §4.7).
//! Their texts are an interface: the frame reader (behaviour §5.5), the
//! adapters' tests and people reading a transcript all match on them, so
//! every label is built here and nowhere else.

use std::borrow::Cow;

use crate::base::text::utf16_len;
use crate::matching::describe::describe_briefly;
use crate::matching::explain::Reason;
use crate::render::index_entry::is_index_name;
use crate::rules::instructions;

/// Text from outside the engine (a path, a rule name, a keyword, a glob, a
/// message) as a label line carries it (behaviour §4.7): every character
/// that could end the line or start another is written as an escape, so
/// the text stays on its line and can never forge one. A line feed is
/// `\n`, a carriage return `\r`, a tab `\t`, and every other control
/// character (U+0000 to U+001F, U+007F to U+009F, so U+0085 too) and the
/// line and paragraph separators U+2028 and U+2029 are `\u{hex}`. Nothing
/// else changes, and text that is safe already comes back as it was, so
/// escaping twice is escaping once.
///
/// ```
/// use rule_fairy_engine::labels::line_safe;
/// assert_eq!(line_safe("src/a.ts"), "src/a.ts");
/// assert_eq!(line_safe("a\n[b]\r\u{2028}c\u{85}"), "a\\n[b]\\r\\u{2028}c\\u{85}");
/// assert_eq!(line_safe(&line_safe("x\ny")), "x\\ny");
/// ```
pub fn line_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(breaks_line) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if breaks_line(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A character a label line may not carry as it is: a control character
/// or a line or paragraph separator.
fn breaks_line(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// The line that closes an error entry: the original's wording, kept so
/// anyone matching on it keeps working.
pub const NOTHING_INJECTED: &str = "No matched rules were injected or marked as injected.";

/// `[rule-fairy shard <index>/<count> <delivery id>]`, the first line of
/// every Claude Code frame; `index` is 1-based.
pub fn shard_header(index: usize, count: usize, delivery_id: &str) -> String {
    format!("[rule-fairy shard {index}/{count} {delivery_id}]")
}

/// `[rule-fairy injected: <rule>]`, one per delivered rule.
pub fn injected(rule: &str) -> String {
    format!("[rule-fairy injected: {}]", line_safe(rule))
}

/// `[rule-fairy deferred: <rules> (...)]`: rules left out of a delivery
/// because the set did not fit; they come with the next matching event.
pub fn deferred<S: AsRef<str>>(rules: &[S]) -> String {
    format!(
        "[rule-fairy deferred: {} (past what one delivery can carry; delivered with the next matching event)]",
        named_within(rules, DEFERRED_NAMES_BUDGET, "rules")
    )
}

/// Characters the deferred line spends naming rules: past them it counts,
/// so thousands of deferred rules never push it past a frame.
const DEFERRED_NAMES_BUDGET: usize = 1_000;

/// `items` joined by `, ` while their names (line-safe, as shown) and
/// separators stay within `budget` UTF-16 units (naming stops at the first
/// that does not fit), then ` and <k> more`; `<count> <what>` when not even
/// the first fits.
pub(crate) fn named_within<S: AsRef<str>>(items: &[S], budget: usize, what: &str) -> String {
    let mut used = 0;
    let mut named: Vec<Cow<'_, str>> = Vec::new();
    for item in items {
        let item = line_safe(item.as_ref());
        let cost = utf16_len(&item) + if named.is_empty() { 0 } else { 2 };
        if used + cost > budget {
            break;
        }
        used += cost;
        named.push(item);
    }
    let rest = items.len() - named.len();
    if named.is_empty() {
        format!("{} {what}", items.len())
    } else if rest > 0 {
        format!("{} and {rest} more", named.join(", "))
    } else {
        named.join(", ")
    }
}

/// `[rule-fairy matched: alwaysApply <rules>]`.
pub fn matched_always_apply<S: AsRef<str>>(rules: &[S]) -> String {
    format!("[rule-fairy matched: alwaysApply {}]", join(rules))
}

/// `[rule-fairy matched: keyword "<k>", ...]`; keywords are quoted as they
/// are, without escaping, as the original does.
pub fn matched_keywords<S: AsRef<str>>(keywords: &[S]) -> String {
    let quoted: Vec<String> = keywords
        .iter()
        .map(|k| format!("\"{}\"", line_safe(k.as_ref())))
        .collect();
    format!("[rule-fairy matched: keyword {}]", quoted.join(", "))
}

/// `[rule-fairy matched: mention @a, @b]`: the mentions, with their `@`,
/// that named the delivered rules (behaviour §9.3).
pub fn matched_mentions<S: AsRef<str>>(mentions: &[S]) -> String {
    format!("[rule-fairy matched: mention {}]", join(mentions))
}

/// `[rule-fairy matched: requested by reading <paths>]`: the model read
/// the files of these requestable rules (behaviour §9.2).
pub fn matched_read(paths: &str) -> String {
    format!(
        "[rule-fairy matched: requested by reading {}]",
        line_safe(paths)
    )
}

/// `[rule-fairy matched: alwaysApply in a nested folder, on reading
/// <paths>]`: a read below a nested folder's always-on rule (behaviour
/// §1.2).
pub fn matched_read_below(paths: &str) -> String {
    format!(
        "[rule-fairy matched: alwaysApply in a nested folder, on reading {}]",
        line_safe(paths)
    )
}

/// Why a Codex delivery carries instruction files (behaviour §5.3): the
/// edited or read files lie below the session's working directory, where
/// Codex read no instruction file.
pub const MATCHED_INSTRUCTIONS: &str =
    "[rule-fairy matched: instruction files of directories below the working directory, which Codex did not read]";

/// Why a Claude Code or opencode delivery carries instruction files
/// (behaviour §5.3, §5.2.4): `[rule-fairy matched: instruction files <host>
/// did not load, for <paths>]`, with `, changed by a shell command` when
/// one changed them.
pub fn matched_instructions_unloaded(host: &str, paths: &str, by_shell: bool) -> String {
    let shell = if by_shell {
        ", changed by a shell command"
    } else {
        ""
    };
    format!(
        "[rule-fairy matched: instruction files {host} did not load, for {}{shell}]",
        line_safe(paths)
    )
}

/// `[rule-fairy matched: glob on <paths>]`, where `paths` is already the
/// text to show (one path, a list, or a count).
pub fn matched_glob(paths: &str) -> String {
    format!("[rule-fairy matched: glob on {}]", line_safe(paths))
}

/// `[rule-fairy matched: glob on <paths>, changed by a shell command]`.
pub fn matched_glob_by_shell(paths: &str) -> String {
    format!(
        "[rule-fairy matched: glob on {}, changed by a shell command]",
        line_safe(paths)
    )
}

/// The closing line of the broken rules' entry (behaviour §4.10). The
/// original says no matched rule was injected, because it gave up on the
/// whole event; here only the rules named were left out.
pub const BROKEN_LEFT_OUT: &str = "They were not injected or marked as injected, so each is tried again with the next event that matches it; the other matched rules were delivered as usual.";

/// What the person's line for a delivery starts with (behaviour §10.1).
pub const DELIVERY_LINE_PREFIX: &str = "Rule Fairy: ";

/// Characters the person's line spends naming rules; past them it counts.
const DELIVERY_LINE_BUDGET: usize = 600;

/// The person's line for one delivery (behaviour §10.1): each rule with
/// why, in delivery order, then the deferred ones.
///
/// ```
/// use rule_fairy_engine::labels::delivery_line;
/// use rule_fairy_engine::Reason;
/// let rules = vec![
///     ("ui/components.mdc".to_string(), vec![Reason::Keywords { keywords: vec!["button".into()] }]),
///     ("testing.mdc".to_string(), vec![Reason::Glob { glob: "*.test.ts".into(), path: "a.test.ts".into() }]),
/// ];
/// assert_eq!(
///     delivery_line(&rules, &["big.mdc"]),
///     "Rule Fairy: ui/components.mdc (keyword \"button\"), testing.mdc (glob *.test.ts); deferred to the next matching event: big.mdc"
/// );
/// ```
pub fn delivery_line<S: AsRef<str>>(rules: &[(String, Vec<Reason>)], deferred: &[S]) -> String {
    thread_delivery_line(None, rules, deferred)
}

/// [`delivery_line`] for a delivery to another thread than the main one,
/// which the prefix names: `Rule Fairy (subagent a1b2): testing.mdc (glob
/// *.test.ts)`.
pub fn thread_delivery_line<S: AsRef<str>>(
    thread: Option<&str>,
    rules: &[(String, Vec<Reason>)],
    deferred: &[S],
) -> String {
    let items: Vec<String> = rules
        .iter()
        .map(|(name, reasons)| {
            let mut words: Vec<String> = Vec::new();
            for word in reasons.iter().filter_map(describe_briefly) {
                if !words.contains(&word) {
                    words.push(word);
                }
            }
            let shown = shown_name(name);
            if words.is_empty() {
                shown.to_string()
            } else {
                format!("{shown} ({})", words.join(", "))
            }
        })
        .collect();
    let prefix = match thread {
        Some(thread) => format!("Rule Fairy ({}): ", line_safe(thread)),
        None => DELIVERY_LINE_PREFIX.to_string(),
    };
    let mut line = format!(
        "{prefix}{}",
        named_within(&items, DELIVERY_LINE_BUDGET, "rules")
    );
    if !deferred.is_empty() {
        line.push_str("; deferred to the next matching event: ");
        line.push_str(&named_within(deferred, DELIVERY_LINE_BUDGET / 2, "rules"));
    }
    line
}

/// A delivered entry's name as the person knows it: an instruction file
/// by its path, the index without its hash.
fn shown_name(name: &str) -> &str {
    if let Some(path) = instructions::delivered_path(name) {
        return path;
    }
    if is_index_name(name) {
        return "index of requestable rules";
    }
    name
}

/// The one entry naming an event's broken rules (behaviour §4.10):
/// `[rule-fairy error: <n> broken rule(s) left out: <names, ", ">]`, a line
/// `- <problem>` for each problem (`<file>:<line>: <rule>: <why>`), then
/// [`BROKEN_LEFT_OUT`]. Names and problems are made line-safe here.
pub fn broken_rules<S: AsRef<str>, T: AsRef<str>>(names: &[S], problems: &[T]) -> String {
    let mut entry = format!(
        "[rule-fairy error: {}: {}]",
        broken_count(problems.len()),
        join(names)
    );
    for problem in problems {
        entry.push_str("\n- ");
        entry.push_str(&line_safe(problem.as_ref()));
    }
    entry.push('\n');
    entry.push_str(BROKEN_LEFT_OUT);
    entry
}

/// `1 broken rule left out`, `<n> broken rules left out`.
pub fn broken_count(problems: usize) -> String {
    if problems == 1 {
        "1 broken rule left out".to_string()
    } else {
        format!("{problems} broken rules left out")
    }
}

fn join<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|item| line_safe(item.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One gate finding as people and models read it: `severity[rule-id]
/// file:line: message`, then the rule's note verbatim, each line indented
/// by two spaces. Both hosts show findings in this one form: the Codex
/// hooks from the gate in process, the Claude Code mod from `rule-fairy
/// gate check --json`.
///
/// ```
/// use rule_fairy_engine::labels::gate_finding;
/// assert_eq!(
///     gate_finding("error", "no-eval", "src/a.ts", 3, "Do not call eval.", Some("PR #12: eval ran user input.")),
///     "error[no-eval] src/a.ts:3: Do not call eval.\n  PR #12: eval ran user input.\n"
/// );
/// ```
pub fn gate_finding(
    severity: &str,
    rule_id: &str,
    file: &str,
    line: usize,
    message: &str,
    note: Option<&str>,
) -> String {
    let mut out = format!(
        "{}[{}] {}:{line}: {}\n",
        line_safe(severity),
        line_safe(rule_id),
        line_safe(file),
        line_safe(message)
    );
    if let Some(note) = note.filter(|n| !n.trim().is_empty()) {
        // Each line of the note stays indented: a separator inside a line
        // is escaped so it cannot start one of its own.
        for line in note.trim_end_matches('\n').lines() {
            if !line.is_empty() {
                out.push_str("  ");
                out.push_str(&line_safe(line));
            }
            out.push('\n');
        }
    }
    out
}

/// What the gate found in the files an agent just wrote, as the model
/// reads it: a header counting the findings, each finding as the gate
/// formats it (rule id, file:line, message, the note verbatim), and what
/// to do about them.
pub fn gate_findings<S: AsRef<str>>(findings: &[S]) -> String {
    let count = findings.len();
    let noun = if count == 1 { "finding" } else { "findings" };
    let body: Vec<&str> = findings.iter().map(|f| f.as_ref().trim_end()).collect();
    format!(
        "[rule-fairy gate: {count} {noun} in the files just written]\n{}\n\n{GATE_CONTRACT}",
        body.join("\n")
    )
}

/// What a gate finding asks of the agent.
pub const GATE_CONTRACT: &str = "These are the repository's own ast-grep rules. Fix each finding before moving on; `rule-fairy gate scan` holds the whole tree to the same rules.";

/// A gate check that could not run, told once per session: the write is
/// not blocked, and the scan of record still fails closed.
pub fn gate_unavailable(problem: &str) -> String {
    format!("[rule-fairy gate: the check of written files could not run: {}]\nThe write went ahead unchecked; `rule-fairy gate scan` will fail until this is fixed.", line_safe(problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deferred_line_names_rules_within_its_budget_then_counts() {
        let many: Vec<String> = (0..2_000).map(|i| format!("rules/r{i:04}.mdc")).collect();
        let line = deferred(&many);
        assert!(line.len() < 1_200, "{}", line.len());
        assert!(line.starts_with("[rule-fairy deferred: rules/r0000.mdc, rules/r0001.mdc"));
        assert!(
            line.contains(" and 1942 more (past what one delivery can carry"),
            "{line}"
        );
        assert_eq!(
            deferred(&["x".repeat(1_500)]),
            "[rule-fairy deferred: 1 rules (past what one delivery can carry; delivered with the next matching event)]"
        );
    }

    #[test]
    fn labels_match_the_catalogue() {
        assert_eq!(shard_header(2, 2, "event"), "[rule-fairy shard 2/2 event]");
        assert_eq!(injected("a.mdc"), "[rule-fairy injected: a.mdc]");
        assert_eq!(
            deferred(&["beta.mdc", "gamma.mdc"]),
            "[rule-fairy deferred: beta.mdc, gamma.mdc (past what one delivery can carry; delivered with the next matching event)]"
        );
        assert_eq!(
            matched_always_apply(&["a.mdc", "b.mdc"]),
            "[rule-fairy matched: alwaysApply a.mdc, b.mdc]"
        );
        assert_eq!(
            matched_keywords(&["service", "deftest"]),
            "[rule-fairy matched: keyword \"service\", \"deftest\"]"
        );
        assert_eq!(
            matched_glob("src/a.clj"),
            "[rule-fairy matched: glob on src/a.clj]"
        );
        assert_eq!(
            matched_mentions(&["@a", "@ops/b"]),
            "[rule-fairy matched: mention @a, @ops/b]"
        );
        assert_eq!(
            matched_read(".cursor/rules/a.mdc"),
            "[rule-fairy matched: requested by reading .cursor/rules/a.mdc]"
        );
        assert_eq!(
            matched_glob_by_shell("1 paths"),
            "[rule-fairy matched: glob on 1 paths, changed by a shell command]"
        );
        assert_eq!(
            broken_rules(&["e.mdc"], &["e.mdc: alone needs 3 context entries\n[x]"]),
            "[rule-fairy error: 1 broken rule left out: e.mdc]\n- e.mdc: alone needs 3 context entries\\n[x]\nThey were not injected or marked as injected, so each is tried again with the next event that matches it; the other matched rules were delivered as usual."
        );
    }
}
