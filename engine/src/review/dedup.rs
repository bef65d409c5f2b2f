//! Dedup across a review bundle (behaviour §6.4). Instruction files are
//! linked to each other, import each other, or carry chunks pasted from one
//! into another, and rule text gets copied into them; a reviewer should read
//! each piece once. The bundle's blocks go in order, and the first copy
//! wins: a section seen before (same heading text, same body) becomes one
//! line naming the kept copy, and so does a long paragraph or fenced block
//! seen before inside a section that stays. The canonical file therefore
//! belongs first in the bundle.

use std::collections::HashMap;

use crate::base::text::utf16_len;
use crate::syntax::markdown;

/// Units shorter than this (in characters, once normalised) are never
/// omitted on their own: a repeated one-liner, such as a test command, is
/// usually meant to be in both places.
pub(crate) const MIN_UNIT_CHARS: usize = 200;

/// One block of the bundle: its label (a display path, a rule name, or a
/// documentation block's references) and its content.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Input<'a> {
    pub label: &'a str,
    pub content: &'a str,
}

/// A block after dedup: its content, verbatim when nothing was omitted,
/// and the kept copy behind each omission line, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Deduped {
    pub content: String,
    pub omissions: Vec<String>,
}

/// The line that stands where a duplicate was.
pub(crate) fn omission_line(location: &str) -> String {
    format!("*Duplicate of `{location}`, omitted.*")
}

/// Dedups blocks in bundle order.
pub(crate) fn dedup(blocks: &[Input<'_>]) -> Vec<Deduped> {
    let mut seen = Seen::default();
    blocks.iter().map(|block| seen.block(block)).collect()
}

/// A piece of a rewritten block or section: text kept as written, or an
/// omission line standing for a copy kept at `omitted`.
struct Part {
    text: String,
    /// Set for an omission line, to merge it with an adjacent twin.
    omitted: Option<String>,
    omissions: Vec<String>,
}

impl Part {
    fn kept(text: String) -> Part {
        Part {
            text,
            omitted: None,
            omissions: Vec::new(),
        }
    }

    fn omission(location: &str) -> Part {
        Part {
            text: omission_line(location),
            omitted: Some(location.to_string()),
            omissions: vec![location.to_string()],
        }
    }
}

/// Adjacent omission lines naming the same kept copy become one.
fn coalesce(parts: Vec<Part>) -> Vec<Part> {
    let mut result: Vec<Part> = Vec::with_capacity(parts.len());
    for part in parts {
        let twin = part.omitted.is_some()
            && result.last().and_then(|p| p.omitted.as_ref()) == part.omitted.as_ref();
        if !twin {
            result.push(part);
        }
    }
    result
}

#[derive(Default)]
struct Seen {
    /// (normalised heading text, normalised body) to the kept location.
    sections: HashMap<(Option<String>, String), String>,
    /// Normalised long unit to the location of the section that kept it.
    units: HashMap<String, String>,
}

impl Seen {
    fn block(&mut self, block: &Input<'_>) -> Deduped {
        let parts: Vec<Part> = markdown::sections(block.content)
            .iter()
            .map(|section| self.section(block.label, section))
            .collect();
        let parts = coalesce(parts);
        let omissions: Vec<String> = parts.iter().flat_map(|p| p.omissions.clone()).collect();
        let content = if omissions.is_empty() {
            block.content.to_string()
        } else {
            join_parts(&parts)
        };
        Deduped { content, omissions }
    }

    fn section(&mut self, label: &str, section: &markdown::Section<'_>) -> Part {
        let body_lines = match section.heading {
            Some(_) => &section.lines[1..],
            None => &section.lines[..],
        };
        let body = body_lines.join("\n");
        let normalized_body = normalize_text(&body);
        let verbatim = || markdown::trim(&section.lines.join("\n")).to_string();
        // A heading alone says nothing worth omitting.
        if markdown::is_blank(&normalized_body) {
            return Part::kept(verbatim());
        }
        let key = (
            section.heading.as_ref().map(|h| normalize_heading(&h.text)),
            normalized_body,
        );
        if let Some(kept) = self.sections.get(&key) {
            return Part::omission(kept);
        }
        let location = match &section.heading {
            Some(heading) => format!("{label}#{}", heading.slug),
            None => label.to_string(),
        };
        self.sections.insert(key, location.clone());
        let parts = coalesce(self.units(&location, &body));
        let omissions: Vec<String> = parts.iter().flat_map(|p| p.omissions.clone()).collect();
        if omissions.is_empty() {
            return Part::kept(verbatim());
        }
        let mut text = String::new();
        if section.heading.is_some() {
            text.push_str(section.lines[0]);
            text.push_str("\n\n");
        }
        text.push_str(&join_parts(&parts));
        Part {
            text,
            omitted: None,
            omissions,
        }
    }

    fn units(&mut self, location: &str, body: &str) -> Vec<Part> {
        markdown::units(body)
            .into_iter()
            .map(|unit| {
                let normalized = normalize_text(&unit.text);
                if utf16_len(&normalized) < MIN_UNIT_CHARS {
                    return Part::kept(unit.text);
                }
                match self.units.get(&normalized) {
                    Some(kept) => Part::omission(kept),
                    None => {
                        self.units.insert(normalized, location.to_string());
                        Part::kept(unit.text)
                    }
                }
            })
            .collect()
    }
}

fn join_parts(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Trailing whitespace off every line, runs of blank lines cut to one,
/// trimmed: what a copy keeps even when its spacing drifted.
fn normalize_text(text: &str) -> String {
    let joined = markdown::lines(text)
        .iter()
        .map(|line| line.trim_end_matches(markdown::is_whitespace))
        .collect::<Vec<_>>()
        .join("\n");
    let mut collapsed = String::with_capacity(joined.len());
    let mut breaks = 0;
    for c in joined.chars() {
        if c == '\n' {
            breaks += 1;
            if breaks <= 2 {
                collapsed.push(c);
            }
        } else {
            breaks = 0;
            collapsed.push(c);
        }
    }
    markdown::trim(&collapsed).to_string()
}

/// Heading text as a section key: case and spacing do not matter, nor does
/// the level (a `##` section pasted as `###` is the same section).
fn normalize_heading(text: &str) -> String {
    let lower = text.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut in_space = false;
    for c in lower.chars() {
        // Java's `\s`: ASCII space, tab, line breaks, vertical tab, form feed.
        if matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r') {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    markdown::trim(&out).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SENTENCE: &str = "This sentence pads the paragraph well past the duplicate threshold. ";
    const SENTENCE2: &str = "Another sentence, different words, also long enough to be counted!! ";

    fn long(sentence: &str) -> String {
        assert_eq!(sentence.len(), 68);
        sentence.repeat(6).trim().to_string()
    }

    fn fence() -> String {
        let line = "(defn example [x] (let [y (inc x)] (* y y (dec y) 10000)))";
        assert_eq!(line.len(), 58);
        format!("```clojure\n{}\n```", [line; 8].join("\n"))
    }

    fn run(blocks: &[(&str, &str)]) -> Vec<Deduped> {
        let inputs: Vec<Input> = blocks
            .iter()
            .map(|(label, content)| Input { label, content })
            .collect();
        dedup(&inputs)
    }

    #[test]
    fn case_151a_whole_sections_dedup_without_a_length_threshold() {
        let out = run(&[
            (
                "AGENTS.md",
                "# Testing\n\nRun bb test.\n\n## Style\n\nShort.",
            ),
            (
                "CLAUDE.md",
                "# Testing\n\nRun bb test.\n\n## Other\n\nDifferent.",
            ),
        ]);
        assert_eq!(
            out[0].content,
            "# Testing\n\nRun bb test.\n\n## Style\n\nShort."
        );
        assert!(out[0].omissions.is_empty());
        assert_eq!(
            out[1].content,
            "*Duplicate of `AGENTS.md#testing`, omitted.*\n\n## Other\n\nDifferent."
        );
        assert_eq!(out[1].omissions, vec!["AGENTS.md#testing"]);
    }

    #[test]
    fn case_151b_spacing_case_and_level_do_not_matter() {
        let out = run(&[
            ("a", "## Testing\n\nline one  \n\n\n\nline two"),
            ("b", "### TESTING\n\nline one\n\nline two\n"),
        ]);
        assert_eq!(out[1].content, "*Duplicate of `a#testing`, omitted.*");
    }

    #[test]
    fn case_151c_a_long_paragraph_inside_a_kept_section() {
        let l = long(SENTENCE);
        let out = run(&[
            ("AGENTS.md", &format!("# One\n\n{l}")),
            ("CLAUDE.md", &format!("# Two\n\n{l}\n\nShort tail.")),
        ]);
        assert_eq!(
            out[1].content,
            "# Two\n\n*Duplicate of `AGENTS.md#one`, omitted.*\n\nShort tail."
        );
        assert_eq!(out[1].omissions, vec!["AGENTS.md#one"]);
    }

    #[test]
    fn case_151d_short_paragraphs_stay() {
        let out = run(&[
            ("a", "# A\n\nRun `bb test` before pushing."),
            ("b", "# B\n\nRun `bb test` before pushing."),
        ]);
        assert_eq!(out[1].content, "# B\n\nRun `bb test` before pushing.");
        assert!(out[1].omissions.is_empty());
    }

    #[test]
    fn case_151e_a_long_fence() {
        let f = fence();
        let out = run(&[
            ("a", &format!("# Code\n\n{f}")),
            ("b", &format!("# Copy\n\nIntro.\n\n{f}")),
        ]);
        assert_eq!(
            out[1].content,
            "# Copy\n\nIntro.\n\n*Duplicate of `a#code`, omitted.*"
        );
    }

    #[test]
    fn case_151f_short_fences_stay() {
        let out = run(&[
            ("a", "# A\n\n```sh\nbb test\n```"),
            ("b", "# B\n\n```sh\nbb test\n```"),
        ]);
        assert!(out.iter().all(|b| b.omissions.is_empty()));
    }

    #[test]
    fn case_151g_h_preambles() {
        let l = long(SENTENCE);
        let out = run(&[("a", &l), ("b", &l)]);
        assert_eq!(out[1].content, "*Duplicate of `a`, omitted.*");
        assert_eq!(out[1].omissions, vec!["a"]);
        let out = run(&[("a", &l), ("b", &format!("# Heading\n\n{l}"))]);
        assert_eq!(out[1].content, "# Heading\n\n*Duplicate of `a`, omitted.*");
    }

    #[test]
    fn case_151i_adjacent_omissions_coalesce() {
        let (l, l2) = (long(SENTENCE), long(SENTENCE2));
        let out = run(&[
            ("a", &format!("# One\n\n{l}\n\n{l2}")),
            ("b", &format!("# Two\n\n{l}\n\n{l2}\n\nTail.")),
        ]);
        assert_eq!(
            out[1].content,
            "# Two\n\n*Duplicate of `a#one`, omitted.*\n\nTail."
        );
        assert_eq!(out[1].omissions, vec!["a#one"]);
    }

    #[test]
    fn case_151j_heading_only_sections_never_dedup() {
        let out = run(&[("a", "# T\n\n## S"), ("b", "# T\n\n## S")]);
        assert_eq!(out[1].content, "# T\n\n## S");
        assert!(out[1].omissions.is_empty());
    }

    #[test]
    fn case_151k_repeats_inside_one_block() {
        let l = long(SENTENCE);
        let out = run(&[("a", &format!("# One\n\n{l}\n\n# Two\n\n{l}"))]);
        assert_eq!(
            out[0].content,
            format!("# One\n\n{l}\n\n# Two\n\n*Duplicate of `a#one`, omitted.*")
        );
    }

    #[test]
    fn case_151l_untouched_blocks_keep_their_spacing() {
        let text = "# A\n\n\n\nspaced   \n\n- list\n\n\n# B\n";
        let out = run(&[("a", text)]);
        assert_eq!(out[0].content, text);
        assert!(out[0].omissions.is_empty());
    }

    #[test]
    fn whole_section_omissions_of_one_copy_merge_across_sections() {
        let out = run(&[
            ("a", "# S\n\nx\n\n# S\n\ny"),
            ("b", "# S\n\nx\n\n# S\n\nx\n\n# T\n\nz"),
        ]);
        // The two repeats of `a#s` sit side by side and become one line.
        assert_eq!(out[1].content, "*Duplicate of `a#s`, omitted.*\n\n# T\n\nz");
        assert_eq!(out[1].omissions, vec!["a#s"]);
    }

    #[test]
    fn duplicate_headings_get_unique_slugs_in_locations() {
        let l = long(SENTENCE);
        let out = run(&[
            ("a", &format!("# S\n\nfirst\n\n# S\n\n{l}")),
            ("b", &format!("# Other\n\n{l}")),
        ]);
        assert_eq!(
            out[1].content,
            "# Other\n\n*Duplicate of `a#s-1`, omitted.*"
        );
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn omission_line_example() {
        use crate::review::dedup::omission_line;
        assert_eq!(
            omission_line("AGENTS.md#testing"),
            "*Duplicate of `AGENTS.md#testing`, omitted.*"
        );
    }

    #[test]
    fn dedup_example() {
        use crate::review::dedup::{dedup, Input};
        let out = dedup(&[
            Input {
                label: "AGENTS.md",
                content: "# Testing\n\nRun the tests.",
            },
            Input {
                label: "CLAUDE.md",
                content: "# Testing\n\nRun the tests.\n\n# Other\n\nMore.",
            },
        ]);
        assert_eq!(
            out[1].content,
            "*Duplicate of `AGENTS.md#testing`, omitted.*\n\n# Other\n\nMore."
        );
        assert_eq!(out[1].omissions, vec!["AGENTS.md#testing"]);
    }
}
