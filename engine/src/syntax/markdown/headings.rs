//! ATX headings, their GitHub-style slugs made unique in document order,
//! and a document's outline of headings and their sections (behaviour §3.4,
//! 3.5).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::fences::fenced_lines;
use super::inline::links_to_text;
use super::{is_line_terminator, is_space_or_tab, short_indent, trim};

/// An ATX heading line, read on its own (behaviour §3.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AtxHeading {
    pub level: usize,
    /// The text, closing sequence removed, trimmed.
    pub text: String,
}

/// Reads an ATX heading: at most three spaces or tabs, one to six `#`, at
/// least one space or tab, then at least one character. Whether the line is
/// fenced is the caller's business.
pub(crate) fn parse_heading(line: &str) -> Option<AtxHeading> {
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
pub(crate) fn slug(text: &str) -> String {
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

/// Makes slugs unique in document order (behaviour §3.4): a slug already
/// taken gets the smallest suffix `-1`, `-2`, ... not yet taken, suffixed
/// slugs counting as taken.
#[derive(Debug, Clone, Default)]
pub(crate) struct Slugger {
    taken: HashSet<String>,
    /// Per base, the suffix to try first: every smaller one is taken, and
    /// stays taken, so a heading repeated a thousand times costs no more
    /// than a thousand lookups.
    next_suffix: HashMap<String, usize>,
}

impl Slugger {
    pub(crate) fn new() -> Self {
        Slugger::default()
    }

    /// The unique form of `base`, which is then taken.
    pub(crate) fn unique(&mut self, base: String) -> String {
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
pub(crate) struct Heading {
    pub level: usize,
    pub text: String,
    /// 1-based line number.
    pub line: usize,
    /// Unique within the document.
    pub slug: String,
}

/// The headings outside fences, with unique slugs, in document order.
pub(crate) fn headings(lines: &[&str], fenced: &[bool]) -> Vec<Heading> {
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
pub(crate) struct Outline {
    pub fenced: Vec<bool>,
    pub headings: Vec<Heading>,
    line_count: usize,
}

impl Outline {
    /// The outline of a document split with [`lines`].
    pub(crate) fn new(lines: &[&str]) -> Outline {
        let fenced = fenced_lines(lines);
        let headings = headings(lines, &fenced);
        Outline {
            fenced,
            headings,
            line_count: lines.len(),
        }
    }

    pub(crate) fn line_count(&self) -> usize {
        self.line_count
    }

    /// The 0-based line range a heading's section spans (behaviour §3.5):
    /// from the heading to the next heading of the same or a higher level
    /// (fewer `#`), or to the end.
    pub(crate) fn section(&self, heading: usize) -> Range<usize> {
        let own = &self.headings[heading];
        let end = self.headings[heading + 1..]
            .iter()
            .find(|later| later.level <= own.level)
            .map_or(self.line_count, |later| later.line - 1);
        own.line - 1..end
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn parse_heading_example() {
        use crate::syntax::markdown::headings::parse_heading;
        let heading = parse_heading("### Do it: now! ###").unwrap();
        assert_eq!((heading.level, heading.text.as_str()), (3, "Do it: now!"));
        assert!(parse_heading("#hashtag").is_none());
    }

    #[test]
    fn slug_example() {
        use crate::syntax::markdown::headings::slug;
        assert_eq!(slug("Do it: now!"), "do-it-now");
        assert_eq!(slug("See [the API][api]"), "see-the-api");
        assert_eq!(slug("`[API](api.md)`"), "apiapimd");
    }
}
