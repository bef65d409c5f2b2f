//! Inline Markdown as headings and imports need it: code spans found the
//! way the original's pattern finds them, and links reduced to their text.

use std::ops::Range;

use super::is_line_terminator;

/// The text with every link outside a code span reduced to its visible
/// text; code spans stay as written.
pub(super) fn links_to_text(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut outside_from = 0;
    for span in code_spans(&chars) {
        reduce_links(&chars[outside_from..span.start], &mut out);
        out.extend(&chars[span.clone()]);
        outside_from = span.end;
    }
    reduce_links(&chars[outside_from..], &mut out);
    out
}

/// A run of backticks in heading text.
#[derive(Debug, Clone, Copy)]
struct BacktickRun {
    start: usize,
    len: usize,
    /// How many line terminators come before it: a span cannot cross one.
    segment: usize,
    /// The longest run after this one in the same segment.
    longest_after: usize,
}

fn backtick_runs(chars: &[char]) -> Vec<BacktickRun> {
    let mut runs: Vec<BacktickRun> = Vec::new();
    let mut segment = 0;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '`' {
            let len = chars[i..].iter().take_while(|&&c| c == '`').count();
            runs.push(BacktickRun {
                start: i,
                len,
                segment,
                longest_after: 0,
            });
            i += len;
        } else {
            if is_line_terminator(chars[i]) {
                segment += 1;
            }
            i += 1;
        }
    }
    let mut longest = 0;
    for index in (0..runs.len()).rev() {
        if runs
            .get(index + 1)
            .is_some_and(|next| next.segment != runs[index].segment)
        {
            longest = 0;
        }
        runs[index].longest_after = longest;
        longest = longest.max(runs[index].len);
    }
    runs
}

/// Code spans, found the way the original's pattern `` (`+)(.*?)\1 ``
/// finds them, left to right; each is the character range it covers.
///
/// At a run of `r` backticks the pattern tries opening runs of `r`, `r - 1`,
/// ... backticks and takes the first length `l` for which `l` more
/// backticks follow before a line terminator, at the nearest place. Inside
/// the run itself that is possible from `l = r / 2` down; in a later run it
/// needs a run at least `l` long. Computing that directly, rather than
/// backtracking, keeps a line of thousands of backticks linear.
pub(super) fn code_spans(chars: &[char]) -> Vec<Range<usize>> {
    let runs = backtick_runs(chars);
    let mut spans = Vec::new();
    let mut resume = 0;
    for (index, run) in runs.iter().enumerate() {
        let mut at = resume.max(run.start);
        while at < run.start + run.len {
            let remaining = run.start + run.len - at;
            let within = remaining / 2;
            let across = remaining.min(run.longest_after);
            let end = if within >= across {
                if within == 0 {
                    break;
                }
                at + 2 * within
            } else {
                let closing = runs[index + 1..]
                    .iter()
                    .find(|later| later.len >= across)
                    .expect("longest_after promises a run this long");
                closing.start + across
            };
            spans.push(at..end);
            resume = end;
            if end > run.start + run.len {
                break;
            }
            at = end;
        }
    }
    spans
}

/// The text with every code span (as [`code_spans`] finds them) removed,
/// for readers that must not see what a span quotes: an `@path` in a span
/// is an example, not an import.
pub(crate) fn without_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for span in code_spans(&chars) {
        out.extend(&chars[from..span.start]);
        from = span.end;
    }
    out.extend(&chars[from..]);
    out
}

/// Appends `chars` with every link reduced to its visible text: an inline
/// link `[text](destination)`, one level of balanced parentheses allowed in
/// the destination, or a reference link `[text][label]`. The text runs to
/// the first `]`, as the original's `[^\]]*` does.
fn reduce_links(chars: &[char], out: &mut String) {
    let n = chars.len();
    let mut next_close = vec![n; n + 1];
    for i in (0..n).rev() {
        next_close[i] = if chars[i] == ']' {
            i
        } else {
            next_close[i + 1]
        };
    }
    // Every `[` before the same `]` ends the same way; remembering the last
    // answer keeps `[[[[...` linear.
    let mut last_target: Option<(usize, Option<usize>)> = None;
    let mut i = 0;
    while i < n {
        if chars[i] == '[' && next_close[i + 1] < n {
            let close = next_close[i + 1];
            let target_end = match last_target {
                Some((cached, end)) if cached == close => end,
                _ => {
                    let end = link_target_end(chars, close + 1, &next_close);
                    last_target = Some((close, end));
                    end
                }
            };
            if let Some(end) = target_end {
                out.extend(&chars[i + 1..close]);
                i = end;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
}

/// Where the `(destination)` or `[label]` starting at `at` ends, exclusive.
fn link_target_end(chars: &[char], at: usize, next_close: &[usize]) -> Option<usize> {
    match chars.get(at)? {
        '(' => destination_end(chars, at),
        '[' => {
            let close = next_close[at + 1];
            (close < chars.len()).then_some(close + 1)
        }
        _ => None,
    }
}

fn destination_end(chars: &[char], open: usize) -> Option<usize> {
    let mut i = open + 1;
    while i < chars.len() {
        match chars[i] {
            ')' => return Some(i + 1),
            '(' => {
                let inner = i + 1 + chars[i + 1..].iter().position(|&c| c == '(' || c == ')')?;
                if chars[inner] == '(' {
                    return None;
                }
                i = inner + 1;
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn without_code_spans_example() {
        use crate::syntax::markdown::without_code_spans;
        assert_eq!(
            without_code_spans("see `@a.md` and ``x`y`` @b.md"),
            "see  and  @b.md"
        );
    }
}
