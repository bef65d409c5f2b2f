//! The shared Markdown model (behaviour §3.2, 3.4, 3.5, 4.9): fenced blocks,
//! ATX headings and their slugs, heading sections and paragraph units.
//! Imports, block splitting, dedup and plan extraction all read Markdown
//! through this module, so they agree on where a fence or a section ends.
//!
//! It is a line scanner, not a CommonMark parser: imports name sections by
//! the original's slugs, and a full parser disagrees with the original on
//! fences (an info string may hold backticks here) and on slugs. Where the
//! original leans on Java's regular expressions (what `.` matches, what
//! `\s` and `\p{L}` mean, what `trim` removes), this module does the same,
//! so a fragment that resolves there resolves here.

mod fences;
pub(crate) mod headings;
mod inline;
mod sections;

pub(crate) use fences::fenced_lines;
pub(crate) use headings::Outline;
pub(crate) use inline::without_code_spans;
pub(crate) use sections::{sections, units, Section};

/// Splits content into lines at LF or CRLF, as the original's model does.
/// Unlike [`crate::base::text::lines`], a final line break leaves an empty last
/// line, and empty content is one empty line: the model's line numbers and
/// section ranges count that line.
pub(crate) fn lines(content: &str) -> Vec<&str> {
    content
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect()
}

/// Whitespace as the original's `trim` and `blank?` see it (Java's
/// `Character.isWhitespace`): no-break spaces are not whitespace, the
/// information separators U+001C..U+001F are.
pub(crate) fn is_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\u{1c}'..='\u{1f}'
            | ' '
            | '\u{1680}'
            | '\u{2000}'..='\u{2006}'
            | '\u{2008}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// The text without leading and trailing [`is_whitespace`] characters.
pub(crate) fn trim(text: &str) -> &str {
    text.trim_matches(is_whitespace)
}

/// Empty or only [`is_whitespace`] characters.
pub(crate) fn is_blank(text: &str) -> bool {
    text.chars().all(is_whitespace)
}

/// Characters Java's `.` does not match: a heading or a code span cannot
/// run across one.
fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_space_or_tab(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Byte length of a line's leading spaces and tabs, when there are at most
/// three of them (the indentation a fence or heading may have).
fn short_indent(line: &str) -> Option<usize> {
    let indent = line.bytes().take_while(|&b| is_space_or_tab(b)).count();
    (indent <= 3).then_some(indent)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn lines_example() {
        use crate::syntax::markdown::lines;
        assert_eq!(lines("a\r\nb\n"), vec!["a", "b", ""]);
        assert_eq!(lines(""), vec![""]);
    }
}
