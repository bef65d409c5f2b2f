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

use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// Splits content into lines at LF or CRLF, as the original's model does.
/// Unlike [`crate::base::text::lines`], a final line break leaves an empty last
/// line, and empty content is one empty line: the model's line numbers and
/// section ranges count that line.
///
/// ```
/// use rule_fairy_engine::syntax::markdown::lines;
/// assert_eq!(lines("a\r\nb\n"), vec!["a", "b", ""]);
/// assert_eq!(lines(""), vec![""]);
/// ```
pub fn lines(content: &str) -> Vec<&str> {
    content
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect()
}

/// Whitespace as the original's `trim` and `blank?` see it (Java's
/// `Character.isWhitespace`): no-break spaces are not whitespace, the
/// information separators U+001C..U+001F are.
pub fn is_whitespace(c: char) -> bool {
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
pub fn trim(text: &str) -> &str {
    text.trim_matches(is_whitespace)
}

/// Empty or only [`is_whitespace`] characters.
pub fn is_blank(text: &str) -> bool {
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

/// An open code fence (behaviour §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fence {
    /// `` ` `` or `~`.
    pub marker: char,
    /// Length of the opening run.
    pub len: usize,
}

/// The fence a line opens: at most three spaces or tabs, then at least
/// three backticks or three tildes; anything may follow.
pub fn opening_fence(line: &str) -> Option<Fence> {
    let rest = &line[short_indent(line)?..];
    let marker = rest.chars().next().filter(|&c| c == '`' || c == '~')?;
    let len = rest.bytes().take_while(|&b| b == marker as u8).count();
    (len >= 3).then_some(Fence { marker, len })
}

impl Fence {
    /// Whether `line` closes this fence: at most three spaces or tabs, a
    /// run of the same character at least as long, then only spaces or tabs.
    pub fn is_closed_by(&self, line: &str) -> bool {
        let Some(indent) = short_indent(line) else {
            return false;
        };
        let rest = &line[indent..];
        let run = rest.bytes().take_while(|&b| b == self.marker as u8).count();
        run >= self.len && rest[run..].bytes().all(is_space_or_tab)
    }
}

/// One flag per line: whether it is fenced (an opening line, a closing line
/// or anything between). An unclosed fence runs to the end.
pub fn fenced_lines(lines: &[&str]) -> Vec<bool> {
    let mut open: Option<Fence> = None;
    let mut fenced = Vec::with_capacity(lines.len());
    for line in lines {
        match open {
            Some(fence) => {
                fenced.push(true);
                if fence.is_closed_by(line) {
                    open = None;
                }
            }
            None => {
                open = opening_fence(line);
                fenced.push(open.is_some());
            }
        }
    }
    fenced
}

/// An ATX heading line, read on its own (behaviour §3.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtxHeading {
    pub level: usize,
    /// The text, closing sequence removed, trimmed.
    pub text: String,
}

/// Reads an ATX heading: at most three spaces or tabs, one to six `#`, at
/// least one space or tab, then at least one character. Whether the line is
/// fenced is the caller's business.
///
/// ```
/// use rule_fairy_engine::syntax::markdown::parse_heading;
/// let heading = parse_heading("### Do it: now! ###").unwrap();
/// assert_eq!((heading.level, heading.text.as_str()), (3, "Do it: now!"));
/// assert!(parse_heading("#hashtag").is_none());
/// ```
pub fn parse_heading(line: &str) -> Option<AtxHeading> {
    let after_indent = &line[short_indent(line)?..];
    let level = after_indent.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &after_indent[level..];
    // The original's pattern matches the text with `.`, which stops at a
    // line terminator: such a line is no heading there.
    if rest.chars().any(is_line_terminator) {
        return None;
    }
    let spaces = rest.bytes().take_while(|&b| is_space_or_tab(b)).count();
    let raw = if spaces == 0 {
        return None;
    } else if spaces < rest.len() {
        &rest[spaces..]
    } else if spaces >= 2 {
        // Only blanks: one separates, the next is the "at least one
        // character", so the heading exists with empty text.
        &rest[spaces - 1..]
    } else {
        return None;
    };
    let text = trim(without_closing_sequence(raw)).to_string();
    Some(AtxHeading { level, text })
}

/// The text without a closing sequence: spaces or tabs, one or more `#`,
/// optional spaces or tabs, at the end.
fn without_closing_sequence(text: &str) -> &str {
    let before_blanks = text.trim_end_matches([' ', '\t']);
    let before_hashes = before_blanks.trim_end_matches('#');
    if before_hashes.len() == before_blanks.len() {
        return text;
    }
    let kept = before_hashes.trim_end_matches([' ', '\t']);
    if kept.len() == before_hashes.len() {
        // `C#`: the hashes belong to the text.
        return text;
    }
    kept
}

/// The GitHub-style slug of a heading's text (behaviour §3.4): links outside
/// code spans reduced to their text, lower-cased, everything but letters,
/// numbers, whitespace, `_` and `-` removed, each whitespace character made
/// a `-`.
///
/// ```
/// use rule_fairy_engine::syntax::markdown::slug;
/// assert_eq!(slug("Do it: now!"), "do-it-now");
/// assert_eq!(slug("See [the API][api]"), "see-the-api");
/// assert_eq!(slug("`[API](api.md)`"), "apiapimd");
/// ```
pub fn slug(text: &str) -> String {
    links_to_text(text)
        .to_lowercase()
        .chars()
        .filter(|&c| is_slug_char(c))
        .map(|c| if is_regex_space(c) { '-' } else { c })
        .collect()
}

/// `\s` of a Java pattern compiled without Unicode classes: ASCII only.
fn is_regex_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0b}' | '\u{0c}' | '\r')
}

fn is_slug_char(c: char) -> bool {
    is_letter(c) || c.is_numeric() || is_regex_space(c) || c == '_' || c == '-'
}

/// A Unicode letter (general category L), what `\p{L}` matches. Rust's
/// `is_alphabetic` also admits the combining vowel signs of Indic and other
/// scripts and the circled letters (Other_Alphabetic), which `\p{L}` does
/// not; those are listed below so slugs agree with the original's.
fn is_letter(c: char) -> bool {
    c.is_alphabetic() && !is_marked_alphabetic(c)
}

fn is_marked_alphabetic(c: char) -> bool {
    let code = c as u32;
    MARKED_ALPHABETIC
        .binary_search_by(|&(start, end)| {
            if end < code {
                std::cmp::Ordering::Less
            } else if start > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Ranges holding every character that is alphabetic for Rust but not a
/// letter in the Unicode general categories (marks Mn/Mc and symbols So with
/// Other_Alphabetic). A range may also span characters that are not
/// alphabetic at all or are numbers, which the callers decide before this
/// table. Derived from the Unicode character database: every character with
/// `is_alphabetic() && !is_numeric()` whose category is not Lu, Ll, Lt, Lm
/// or Lo, adjacent ranges merged across such characters.
const MARKED_ALPHABETIC: &[(u32, u32)] = &[
    (0x0345, 0x036F),
    (0x05B0, 0x05C7),
    (0x0610, 0x061A),
    (0x064B, 0x065F),
    (0x0670, 0x0670),
    (0x06D6, 0x06E4),
    (0x06E7, 0x06ED),
    (0x0711, 0x0711),
    (0x0730, 0x073F),
    (0x07A6, 0x07B0),
    (0x0816, 0x0817),
    (0x081B, 0x0823),
    (0x0825, 0x0827),
    (0x0829, 0x082C),
    (0x08D4, 0x0903),
    (0x093A, 0x093B),
    (0x093E, 0x094F),
    (0x0955, 0x0957),
    (0x0962, 0x0963),
    (0x0981, 0x0983),
    (0x09BE, 0x09CC),
    (0x09D7, 0x09D7),
    (0x09E2, 0x09E3),
    (0x0A01, 0x0A03),
    (0x0A3E, 0x0A51),
    (0x0A70, 0x0A71),
    (0x0A75, 0x0A83),
    (0x0ABE, 0x0ACC),
    (0x0AE2, 0x0AE3),
    (0x0AFA, 0x0B03),
    (0x0B3E, 0x0B57),
    (0x0B62, 0x0B63),
    (0x0B82, 0x0B82),
    (0x0BBE, 0x0BCC),
    (0x0BD7, 0x0C04),
    (0x0C3E, 0x0C56),
    (0x0C62, 0x0C63),
    (0x0C81, 0x0C83),
    (0x0CBE, 0x0CD6),
    (0x0CE2, 0x0CE3),
    (0x0D00, 0x0D03),
    (0x0D3E, 0x0D4C),
    (0x0D57, 0x0D57),
    (0x0D62, 0x0D63),
    (0x0D81, 0x0D83),
    (0x0DCF, 0x0DF3),
    (0x0E31, 0x0E31),
    (0x0E34, 0x0E3A),
    (0x0E4D, 0x0E4D),
    (0x0EB1, 0x0EB1),
    (0x0EB4, 0x0EBC),
    (0x0ECD, 0x0ECD),
    (0x0F71, 0x0F83),
    (0x0F8D, 0x0FBC),
    (0x102B, 0x103E),
    (0x1056, 0x1059),
    (0x105E, 0x1060),
    (0x1062, 0x1064),
    (0x1067, 0x106D),
    (0x1071, 0x1074),
    (0x1082, 0x108D),
    (0x108F, 0x109D),
    (0x1712, 0x1713),
    (0x1732, 0x1733),
    (0x1752, 0x1753),
    (0x1772, 0x1773),
    (0x17B6, 0x17C8),
    (0x1885, 0x1886),
    (0x18A9, 0x18A9),
    (0x1920, 0x1938),
    (0x1A17, 0x1A1B),
    (0x1A55, 0x1A74),
    (0x1ABF, 0x1B04),
    (0x1B35, 0x1B43),
    (0x1B80, 0x1B82),
    (0x1BA1, 0x1BAD),
    (0x1BE7, 0x1BF1),
    (0x1C24, 0x1C36),
    (0x1DD3, 0x1DF4),
    (0x24B6, 0x24E9),
    (0x2DE0, 0x2DFF),
    (0xA674, 0xA67B),
    (0xA69E, 0xA69F),
    (0xA802, 0xA802),
    (0xA80B, 0xA80B),
    (0xA823, 0xA827),
    (0xA880, 0xA881),
    (0xA8B4, 0xA8C5),
    (0xA8FF, 0xA8FF),
    (0xA926, 0xA92A),
    (0xA947, 0xA952),
    (0xA980, 0xA983),
    (0xA9B4, 0xA9BF),
    (0xA9E5, 0xA9E5),
    (0xAA29, 0xAA36),
    (0xAA43, 0xAA43),
    (0xAA4C, 0xAA4D),
    (0xAA7B, 0xAA7D),
    (0xAAB0, 0xAAB0),
    (0xAAB2, 0xAAB4),
    (0xAAB7, 0xAAB8),
    (0xAABE, 0xAABE),
    (0xAAEB, 0xAAEF),
    (0xAAF5, 0xAAF5),
    (0xABE3, 0xABEA),
    (0xFB1E, 0xFB1E),
    (0x10376, 0x1037A),
    (0x10A01, 0x10A0F),
    (0x10D24, 0x10D27),
    (0x10EAB, 0x10EAC),
    (0x11000, 0x11002),
    (0x11038, 0x11045),
    (0x11073, 0x11074),
    (0x11080, 0x11082),
    (0x110B0, 0x110C2),
    (0x11100, 0x11102),
    (0x11127, 0x11132),
    (0x11145, 0x11146),
    (0x11180, 0x11182),
    (0x111B3, 0x111BF),
    (0x111CE, 0x111CF),
    (0x1122C, 0x1123E),
    (0x112DF, 0x11303),
    (0x1133E, 0x1134C),
    (0x11357, 0x11357),
    (0x11362, 0x11363),
    (0x11435, 0x11445),
    (0x114B0, 0x114C1),
    (0x115AF, 0x115BE),
    (0x115DC, 0x115DD),
    (0x11630, 0x11640),
    (0x116AB, 0x116B5),
    (0x1171D, 0x1172A),
    (0x1182C, 0x11838),
    (0x11930, 0x1193C),
    (0x11940, 0x11940),
    (0x11942, 0x11942),
    (0x119D1, 0x119DF),
    (0x119E4, 0x119E4),
    (0x11A01, 0x11A0A),
    (0x11A35, 0x11A39),
    (0x11A3B, 0x11A3E),
    (0x11A51, 0x11A5B),
    (0x11A8A, 0x11A97),
    (0x11C2F, 0x11C3E),
    (0x11C92, 0x11CB6),
    (0x11D31, 0x11D43),
    (0x11D47, 0x11D47),
    (0x11D8A, 0x11D96),
    (0x11EF3, 0x11EF6),
    (0x16F4F, 0x16F4F),
    (0x16F51, 0x16F92),
    (0x16FF0, 0x16FF1),
    (0x1BC9E, 0x1BC9E),
    (0x1E000, 0x1E02A),
    (0x1E947, 0x1E947),
    (0x1F130, 0x1F189),
];

/// The text with every link outside a code span reduced to its visible
/// text; code spans stay as written.
fn links_to_text(text: &str) -> String {
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
fn code_spans(chars: &[char]) -> Vec<Range<usize>> {
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
///
/// ```
/// use rule_fairy_engine::syntax::markdown::without_code_spans;
/// assert_eq!(without_code_spans("see `@a.md` and ``x`y`` @b.md"), "see  and  @b.md");
/// ```
pub fn without_code_spans(text: &str) -> String {
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

/// Makes slugs unique in document order (behaviour §3.4): a slug already
/// taken gets the smallest suffix `-1`, `-2`, ... not yet taken, suffixed
/// slugs counting as taken.
#[derive(Debug, Clone, Default)]
pub struct Slugger {
    taken: HashSet<String>,
    /// Per base, the suffix to try first: every smaller one is taken, and
    /// stays taken, so a heading repeated a thousand times costs no more
    /// than a thousand lookups.
    next_suffix: HashMap<String, usize>,
}

impl Slugger {
    pub fn new() -> Self {
        Slugger::default()
    }

    /// The unique form of `base`, which is then taken.
    pub fn unique(&mut self, base: String) -> String {
        let slug = if self.taken.contains(&base) {
            let next = self.next_suffix.entry(base.clone()).or_insert(1);
            loop {
                let candidate = format!("{base}-{next}");
                *next += 1;
                if !self.taken.contains(&candidate) {
                    break candidate;
                }
            }
        } else {
            base
        };
        self.taken.insert(slug.clone());
        slug
    }
}

/// A heading of a document, outside fences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub level: usize,
    pub text: String,
    /// 1-based line number.
    pub line: usize,
    /// Unique within the document.
    pub slug: String,
}

/// The headings outside fences, with unique slugs, in document order.
pub fn headings(lines: &[&str], fenced: &[bool]) -> Vec<Heading> {
    let mut slugger = Slugger::new();
    lines
        .iter()
        .enumerate()
        .filter(|(index, _)| !fenced.get(*index).copied().unwrap_or(false))
        .filter_map(|(index, line)| {
            let AtxHeading { level, text } = parse_heading(line)?;
            let slug = slugger.unique(slug(&text));
            Some(Heading {
                level,
                text,
                line: index + 1,
                slug,
            })
        })
        .collect()
}

/// A document's structure: which lines are fenced and its headings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    pub fenced: Vec<bool>,
    pub headings: Vec<Heading>,
    line_count: usize,
}

impl Outline {
    /// The outline of a document split with [`lines`].
    pub fn new(lines: &[&str]) -> Outline {
        let fenced = fenced_lines(lines);
        let headings = headings(lines, &fenced);
        Outline {
            fenced,
            headings,
            line_count: lines.len(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_count
    }

    /// The 0-based line range a heading's section spans (behaviour §3.5):
    /// from the heading to the next heading of the same or a higher level
    /// (fewer `#`), or to the end.
    pub fn section(&self, heading: usize) -> Range<usize> {
        let own = &self.headings[heading];
        let end = self.headings[heading + 1..]
            .iter()
            .find(|later| later.level <= own.level)
            .map_or(self.line_count, |later| later.line - 1);
        own.line - 1..end
    }
}

/// A piece of content between headings (behaviour §4.9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section<'a> {
    /// `None` for the preamble before the first heading.
    pub heading: Option<Heading>,
    /// The heading line first, then everything up to the next heading.
    pub lines: Vec<&'a str>,
}

/// Splits content at every heading outside fences, of any level. The
/// preamble is left out when it is blank; empty content has no sections.
///
/// ```
/// use rule_fairy_engine::syntax::markdown::sections;
/// let parts = sections("Intro\n# One\nbody\n## Two\n");
/// assert_eq!(parts[0].heading, None);
/// assert_eq!(parts[1].lines, vec!["# One", "body"]);
/// assert_eq!(parts[2].lines, vec!["## Two", ""]);
/// ```
pub fn sections(content: &str) -> Vec<Section<'_>> {
    let all = lines(content);
    let outline = Outline::new(&all);
    let starts: Vec<usize> = outline.headings.iter().map(|h| h.line - 1).collect();
    let preamble_end = starts.first().copied().unwrap_or(all.len());
    let mut result = Vec::with_capacity(starts.len() + 1);
    if !all[..preamble_end].iter().all(|line| is_blank(line)) {
        result.push(Section {
            heading: None,
            lines: all[..preamble_end].to_vec(),
        });
    }
    for (index, heading) in outline.headings.into_iter().enumerate() {
        let end = starts.get(index + 1).copied().unwrap_or(all.len());
        result.push(Section {
            lines: all[starts[index]..end].to_vec(),
            heading: Some(heading),
        });
    }
    result
}

/// A paragraph-sized piece of content (behaviour §4.9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The unit's lines joined with LF.
    pub text: String,
    /// A fenced block, opening line to closing line.
    pub fenced: bool,
}

/// Splits content into units: at blank lines, at fence boundaries and
/// before a heading line. A fenced block is one unit; a line directly after
/// a heading joins the heading's unit; blank lines are dropped.
///
/// ```
/// use rule_fairy_engine::syntax::markdown::units;
/// let texts: Vec<String> = units("# T\nlead\n\npara\n```\ncode\n```\nafter").into_iter().map(|u| u.text).collect();
/// assert_eq!(texts, vec!["# T\nlead", "para", "```\ncode\n```", "after"]);
/// ```
pub fn units(content: &str) -> Vec<Unit> {
    let mut builder = UnitBuilder::default();
    let all = lines(content);
    let mut index = 0;
    while index < all.len() {
        if builder.take(all[index]) {
            index += 1;
        }
    }
    builder.finish();
    builder.units
}

#[derive(Default)]
struct UnitBuilder<'a> {
    units: Vec<Unit>,
    current: Vec<&'a str>,
    current_fenced: bool,
    open: Option<Fence>,
}

impl<'a> UnitBuilder<'a> {
    /// Takes one line; `false` when the line ended the current unit and must
    /// be taken again to start the next one.
    fn take(&mut self, line: &'a str) -> bool {
        if let Some(fence) = self.open {
            self.current.push(line);
            if fence.is_closed_by(line) {
                self.open = None;
            }
            return true;
        }
        let blank = is_blank(line);
        if self.current.is_empty() {
            if !blank {
                self.open = opening_fence(line);
                self.current_fenced = self.open.is_some();
                self.current.push(line);
            }
            return true;
        }
        let opening = opening_fence(line);
        let boundary =
            self.current_fenced || blank || opening.is_some() || parse_heading(line).is_some();
        if boundary {
            self.finish();
            return blank;
        }
        self.current.push(line);
        true
    }

    fn finish(&mut self) {
        if !self.current.is_empty() {
            self.units.push(Unit {
                text: self.current.join("\n"),
                fenced: self.current_fenced,
            });
            self.current.clear();
        }
        self.current_fenced = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE_62: &str = "Preamble line.\n\n# Title\n\nIntro paragraph.\n\n```\n# not a heading\n```\n\n## Section ##\n\nBody one.\nBody two.\n\n## Section\n\nRepeated heading.\n";

    fn outline(content: &str) -> Outline {
        Outline::new(&lines(content))
    }

    fn slugs(content: &str) -> Vec<String> {
        outline(content)
            .headings
            .into_iter()
            .map(|h| h.slug)
            .collect()
    }

    #[test]
    fn case_62_headings_outside_fences_with_unique_slugs() {
        let found: Vec<(usize, String, usize, String)> = outline(CASE_62)
            .headings
            .into_iter()
            .map(|h| (h.level, h.text, h.line, h.slug))
            .collect();
        // The original numbers these lines 2, 10 and 15: 0-based indexes.
        assert_eq!(
            found,
            vec![
                (1, "Title".to_string(), 3, "title".to_string()),
                (2, "Section".to_string(), 11, "section".to_string()),
                (2, "Section".to_string(), 16, "section-1".to_string()),
            ]
        );
    }

    #[test]
    fn case_63_slug_suffixes_skip_taken_slugs() {
        assert_eq!(
            slugs("# API\n# API\n# API-1"),
            vec!["api", "api-1", "api-1-1"]
        );
        assert_eq!(
            slugs("# API\n# API-1\n# API"),
            vec!["api", "api-1", "api-2"]
        );
        assert_eq!(
            slugs("## Section\n## Section"),
            vec!["section", "section-1"]
        );
        assert_eq!(
            slugs("# a\n# a\n# a-1\n# a\n# a-2"),
            vec!["a", "a-1", "a-1-1", "a-2", "a-2-1"]
        );
    }

    #[test]
    fn case_64_closing_sequences_and_hashtags() {
        let heading = parse_heading("### Do it: now! ###").unwrap();
        assert_eq!(
            heading,
            AtxHeading {
                level: 3,
                text: "Do it: now!".into()
            }
        );
        assert_eq!(parse_heading("#hashtag"), None);
        assert_eq!(slug("Do it: now!"), "do-it-now");
    }

    #[test]
    fn heading_edge_cases() {
        let text = |line: &str| parse_heading(line).map(|h| (h.level, h.text));
        assert_eq!(text("   # three spaces"), Some((1, "three spaces".into())));
        assert_eq!(text("    # four spaces"), None);
        assert_eq!(text("\t## tab"), Some((2, "tab".into())));
        assert_eq!(text("###### six"), Some((6, "six".into())));
        assert_eq!(text("####### seven"), None);
        assert_eq!(text("# C#"), Some((1, "C#".into())));
        assert_eq!(text("# a # #"), Some((1, "a #".into())));
        assert_eq!(text("# #"), Some((1, "#".into())));
        assert_eq!(text("# ###"), Some((1, "###".into())));
        assert_eq!(text("# Title #  \t"), Some((1, "Title".into())));
        assert_eq!(text("#"), None);
        assert_eq!(text("# "), None);
        assert_eq!(text("#  "), Some((1, String::new())));
        assert_eq!(text("# a\rb"), None);
        assert_eq!(text("# a\u{2028}"), None);
        assert_eq!(text("Title\n==="), None);
    }

    #[test]
    fn case_65_slugs_with_links_and_code_spans() {
        assert_eq!(slug("Do it: now!"), "do-it-now");
        assert_eq!(slug("[Testing](testing.md)"), "testing");
        assert_eq!(slug("See [the API][api]"), "see-the-api");
        assert_eq!(slug("[API](guide_(v2).md)"), "api");
        assert_eq!(slug("`[API](api.md)`"), "apiapimd");
        assert_eq!(slug("See `code` and [docs](d.md)"), "see-code-and-docs");
        assert_eq!(slug("``x`[API](api.md)`` [y](y.md)"), "xapiapimd-y");
    }

    #[test]
    fn slug_character_classes_follow_the_reference() {
        // Each whitespace character is its own hyphen.
        assert_eq!(slug("a  b\tc"), "a--b-c");
        assert_eq!(slug("Ünïcödé Straße 42 ½"), "ünïcödé-straße-42-½");
        assert_eq!(slug("snake_case-and-kebab"), "snake_case-and-kebab");
        // A no-break space is not `\s` in the original's pattern: removed.
        assert_eq!(slug("a\u{a0}b"), "ab");
        // Combining vowel signs are not letters there either.
        assert_eq!(slug("हिन्दी"), "हनद");
        assert_eq!(slug("日本語 見出し"), "日本語-見出し");
        assert_eq!(slug("Ⓐ"), "");
    }

    #[test]
    fn links_need_a_destination_or_label() {
        assert_eq!(slug("[a] b"), "a-b");
        assert_eq!(slug("[a[b](c)"), "ab");
        assert_eq!(slug("[a](b(c(d)))"), "abcd");
        assert_eq!(slug("[a](b) [c][] [d](e"), "a-c-de");
        assert_eq!(slug("``unclosed"), "unclosed");
    }

    #[test]
    fn fences_open_and_close_as_the_reference_says() {
        let flags = |content: &str| fenced_lines(&lines(content));
        assert_eq!(
            flags("a\n```js\nb\n```\nc"),
            vec![false, true, true, true, false]
        );
        // A shorter run or another character does not close; a longer one does.
        assert_eq!(
            flags("````\n```\n~~~~\n`````\nx"),
            vec![true, true, true, true, false]
        );
        // Inside a fence, an opening-looking line is content.
        assert_eq!(flags("~~~\n```\n~~~\nx"), vec![true, true, true, false]);
        // Closing lines allow only blanks after the run.
        assert_eq!(
            flags("```\n``` x\n```  \t\nx"),
            vec![true, true, true, false]
        );
        assert_eq!(flags("    ```\nx"), vec![false, false]);
        assert_eq!(flags("   ```\nx\n   ```"), vec![true, true, true]);
        // An unclosed fence runs to the end; an info string may hold anything.
        assert_eq!(flags("```a`b\n# no\n\ntext"), vec![true, true, true, true]);
        assert_eq!(flags("``\nx"), vec![false, false]);
    }

    #[test]
    fn sections_span_to_the_next_heading_of_the_same_or_higher_level() {
        let doc = outline("# A\n## B\n### C\ntext\n## D\n# E\n```\n# fenced\n```\n");
        let spans: Vec<Range<usize>> = (0..doc.headings.len()).map(|i| doc.section(i)).collect();
        assert_eq!(spans, vec![0..5, 1..4, 2..4, 4..5, 5..10]);
    }

    #[test]
    fn case_66_sections() {
        let parts = sections(CASE_62);
        let headings: Vec<Option<&str>> = parts
            .iter()
            .map(|s| s.heading.as_ref().map(|h| h.text.as_str()))
            .collect();
        assert_eq!(
            headings,
            vec![None, Some("Title"), Some("Section"), Some("Section")]
        );
        assert_eq!(parts[0].lines, vec!["Preamble line.", ""]);
        assert!(parts[1].lines.contains(&"# not a heading") && parts[1].lines.contains(&"```"));
        assert_eq!(parts[3].heading.as_ref().unwrap().slug, "section-1");

        let titled = sections("\n\n# Title\n\nBody\n");
        assert_eq!(titled.len(), 1);
        assert_eq!(titled[0].heading.as_ref().unwrap().text, "Title");
        let plain = sections("Just text.\n");
        assert_eq!(
            plain,
            vec![Section {
                heading: None,
                lines: vec!["Just text.", ""]
            }]
        );
        assert!(sections("").is_empty());
    }

    #[test]
    fn case_67_units() {
        let found: Vec<(String, bool)> = units(CASE_62)
            .into_iter()
            .map(|u| (u.text, u.fenced))
            .collect();
        let expected: Vec<(String, bool)> = [
            ("Preamble line.", false),
            ("# Title", false),
            ("Intro paragraph.", false),
            ("```\n# not a heading\n```", true),
            ("## Section ##", false),
            ("Body one.\nBody two.", false),
            ("## Section", false),
            ("Repeated heading.", false),
        ]
        .into_iter()
        .map(|(text, fenced)| (text.to_string(), fenced))
        .collect();
        assert_eq!(found, expected);
        assert_eq!(units("a\r\n\r\nb\r\n"), units("a\n\nb\n"));
        assert_eq!(units(&CASE_62.replace('\n', "\r\n")), units(CASE_62));
    }

    #[test]
    fn units_break_at_fences_and_headings_and_keep_open_fences_whole() {
        let texts = |content: &str| {
            units(content)
                .into_iter()
                .map(|u| (u.text, u.fenced))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            texts("para\n```\ncode\n\nmore\n```\nafter\n# H\nlead\nmore"),
            vec![
                ("para".into(), false),
                ("```\ncode\n\nmore\n```".into(), true),
                ("after".into(), false),
                ("# H\nlead\nmore".into(), false),
            ]
        );
        assert_eq!(
            texts("~~~\nnever closed\n\n# x"),
            vec![("~~~\nnever closed\n\n# x".into(), true)]
        );
        assert_eq!(
            texts("# A\n# B"),
            vec![("# A".into(), false), ("# B".into(), false)]
        );
        assert!(units("").is_empty() && units(" \n\t\n").is_empty());
    }

    #[test]
    fn java_whitespace_for_trim_and_blank() {
        assert_eq!(trim("\u{1c} a \u{3000}"), "a");
        assert_eq!(trim("\u{a0}a\u{a0}"), "\u{a0}a\u{a0}");
        assert!(is_blank("") && is_blank(" \t\u{0b}") && !is_blank("\u{a0}"));
    }

    #[test]
    fn a_thousand_equal_headings_get_their_suffixes_quickly() {
        let doc = "## x\n\ntext\n\n".repeat(20_000);
        let found = slugs(&doc);
        assert_eq!(found.len(), 20_000);
        assert_eq!(found[0], "x");
        assert_eq!(found[1], "x-1");
        assert_eq!(found[19_999], "x-19999");
    }

    /// Xorshift: deterministic, so a failure replays.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn text(&mut self, max_len: usize) -> String {
            const PIECES: &[&str] = &[
                "#",
                "# ",
                "## ",
                "`",
                "```",
                "~~~",
                "[",
                "]",
                "(",
                ")",
                "][",
                "](",
                "\n",
                "\r",
                "\r\n",
                " ",
                "\t",
                "a",
                "B",
                "é",
                "ि",
                "_",
                "-",
                "!",
                "<!-- agent-context: omit -->",
                "<!-- /agent-context -->",
                "\u{2028}",
                "\u{a0}",
                "😀",
            ];
            let len = self.below(max_len + 1);
            if self.below(4) == 0 {
                let bytes: Vec<u8> = (0..len).map(|_| self.next() as u8).collect();
                return String::from_utf8_lossy(&bytes).into_owned();
            }
            (0..len).map(|_| PIECES[self.below(PIECES.len())]).collect()
        }
    }

    /// The original's code span pattern run the slow way: every opening
    /// length from the longest down, the nearest closing run.
    fn code_spans_by_backtracking(chars: &[char]) -> Vec<Range<usize>> {
        let mut spans = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '`' {
                i += 1;
                continue;
            }
            let run = chars[i..].iter().take_while(|&&c| c == '`').count();
            let found = (1..=run).rev().find_map(|open| {
                let mut j = i + open;
                while j + open <= chars.len() {
                    if chars[j..j + open].iter().all(|&c| c == '`') {
                        return Some(j + open);
                    }
                    if is_line_terminator(chars[j]) {
                        return None;
                    }
                    j += 1;
                }
                None
            });
            match found {
                Some(end) => {
                    spans.push(i..end);
                    i = end;
                }
                None => i += 1,
            }
        }
        spans
    }

    #[test]
    fn code_spans_agree_with_backtracking() {
        let mut random = Random(0x5eed_cafe);
        for _ in 0..20_000 {
            let len = random.below(24);
            let chars: Vec<char> = (0..len)
                .map(|_| ['`', '`', '`', 'a', '\r', ' '][random.below(6)])
                .collect();
            assert_eq!(
                code_spans(&chars),
                code_spans_by_backtracking(&chars),
                "{:?}",
                chars.iter().collect::<String>()
            );
        }
    }

    #[test]
    fn arbitrary_input_neither_panics_nor_hangs() {
        let mut random = Random(0x1234_5678_9abc_def1);
        for _ in 0..3_000 {
            let text = random.text(200);
            let _ = slug(&text);
            let _ = parse_heading(&text);
            let doc = outline(&text);
            for index in 0..doc.headings.len() {
                let span = doc.section(index);
                assert!(span.start < span.end && span.end <= doc.line_count());
            }
            for section in sections(&text) {
                assert!(!section.lines.is_empty());
            }
            for unit in units(&text) {
                assert!(!unit.text.is_empty());
            }
        }
    }

    #[test]
    fn long_pathological_lines_stay_linear() {
        for line in [
            format!("# {}", "`".repeat(200_001)),
            format!("# {}", "``a".repeat(70_000)),
            format!("# {}", "[".repeat(200_000)),
            format!("# {}", "[a](".repeat(50_000)),
            format!("# {}", "[a]((b)".repeat(30_000)),
            format!("# {}", "](x(a)".repeat(30_000)),
            format!("# {}", "[a][".repeat(50_000)),
        ] {
            let heading = parse_heading(&line).unwrap();
            let _ = slug(&heading.text);
        }
        let long = format!("```\n{}", "~~~\n```x\n".repeat(100_000));
        assert_eq!(units(&long).len(), 1);
    }

    fn unit_texts(content: &str) -> Vec<(String, bool)> {
        units(content)
            .into_iter()
            .map(|u| (u.text, u.fenced))
            .collect()
    }

    #[test]
    fn fences_headings_and_paragraphs_split_where_the_reference_splits() {
        assert_eq!(
            unit_texts("text\n```rust\nlet x;\n\nlet y;\n```\nafter\n# H\nunder"),
            vec![
                ("text".to_string(), false),
                ("```rust\nlet x;\n\nlet y;\n```".to_string(), true),
                ("after".to_string(), false),
                ("# H\nunder".to_string(), false),
            ]
        );
        // An unclosed fence runs to the end; a shorter run does not close it.
        assert_eq!(
            unit_texts("~~~~\na\n~~~\n\nb"),
            vec![("~~~~\na\n~~~\n\nb".to_string(), true)]
        );
        assert_eq!(
            unit_texts("#hashtag\nline"),
            vec![("#hashtag\nline".to_string(), false)]
        );
        assert_eq!(
            unit_texts("    ```\ncode"),
            vec![("    ```\ncode".to_string(), false)]
        );
        assert!(unit_texts(" \t\n\n").is_empty());
    }
}
