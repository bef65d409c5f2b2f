//! A document cut into heading sections and into paragraph units
//! (behaviour §4.9), fences kept whole.

use super::fences::{opening_fence, Fence};
use super::headings::{parse_heading, Heading, Outline};
use super::{is_blank, lines};

/// A piece of content between headings (behaviour §4.9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Section<'a> {
    /// `None` for the preamble before the first heading.
    pub heading: Option<Heading>,
    /// The heading line first, then everything up to the next heading.
    pub lines: Vec<&'a str>,
}

/// Splits content at every heading outside fences, of any level. The
/// preamble is left out when it is blank; empty content has no sections.
pub(crate) fn sections(content: &str) -> Vec<Section<'_>> {
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
pub(crate) struct Unit {
    /// The unit's lines joined with LF.
    pub text: String,
    /// A fenced block, opening line to closing line.
    pub fenced: bool,
}

/// Splits content into units: at blank lines, at fence boundaries and
/// before a heading line. A fenced block is one unit; a line directly after
/// a heading joins the heading's unit; blank lines are dropped.
pub(crate) fn units(content: &str) -> Vec<Unit> {
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
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn sections_example() {
        use crate::syntax::markdown::sections;
        let parts = sections("Intro\n# One\nbody\n## Two\n");
        assert_eq!(parts[0].heading, None);
        assert_eq!(parts[1].lines, vec!["# One", "body"]);
        assert_eq!(parts[2].lines, vec!["## Two", ""]);
    }

    #[test]
    fn units_example() {
        use crate::syntax::markdown::units;
        let texts: Vec<String> = units("# T\nlead\n\npara\n```\ncode\n```\nafter")
            .into_iter()
            .map(|u| u.text)
            .collect();
        assert_eq!(texts, vec!["# T\nlead", "para", "```\ncode\n```", "after"]);
    }
}
