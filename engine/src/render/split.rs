//! Splitting one rendered block into parts that each fit a frame
//! (behaviour §4.3). Parts break only at Markdown unit boundaries, every part
//! repeats the block heading, and a fenced block is never cut, so each part
//! reads on its own when the parts land in different frames.

use crate::base::error::{Error, ErrorKind, Place};
use crate::base::text::utf16_len;
use crate::render::block::{Block, BlockKind};
use crate::syntax::markdown::units;

/// Room kept beside the heading for the ` (part i/n)` suffix and the blank
/// line after it.
const HEADING_RESERVE: usize = 32;

/// Splits `block` into parts of at most `max_chars` UTF-16 code units. One
/// part reads `<heading>\n\n<content>`; with several, each heading gains
/// ` (part i/n)`. The content is rebuilt from its units joined by blank
/// lines, so runs of blank lines collapse to one, as in the original.
pub(crate) fn split_block(block: &Block, max_chars: usize) -> Result<Vec<String>, Error> {
    let fail = |kind: ErrorKind| match block_place(block) {
        Some(place) => Error::at(place, kind),
        None => Error::new(kind),
    };
    let reserve = utf16_len(&block.heading) + HEADING_RESERVE;
    if max_chars <= reserve {
        return Err(fail(ErrorKind::HeadingTooLong));
    }
    let content_limit = max_chars - reserve;

    let mut bounded = Vec::new();
    for unit in units(&block.content) {
        if utf16_len(&unit.text) <= content_limit {
            bounded.push(unit.text);
        } else if unit.fenced {
            return Err(fail(ErrorKind::FenceTooLong));
        } else {
            bounded.extend(
                line_groups(&unit.text, content_limit)
                    .map_err(|()| fail(ErrorKind::LineTooLong))?,
            );
        }
    }
    let contents = pack(bounded, "\n\n", content_limit);

    let count = contents.len();
    let mut parts = Vec::with_capacity(count);
    for (index, content) in contents.iter().enumerate() {
        let part = if count == 1 {
            format!("{}\n\n{content}", block.heading)
        } else {
            format!(
                "{} (part {}/{count})\n\n{content}",
                block.heading,
                index + 1
            )
        };
        // A guard: the reserve covers any part suffix a real block reaches.
        if utf16_len(&part) > max_chars {
            return Err(fail(ErrorKind::PartTooLong));
        }
        parts.push(part);
    }
    Ok(parts)
}

/// Which file a split error is about: the rule (by name) or the document.
fn block_place(block: &Block) -> Option<Place> {
    match &block.kind {
        BlockKind::Rule { name } => Some(Place::file(name.clone())),
        BlockKind::Documentation { paths } => paths.first().map(|path| Place::file(path.clone())),
    }
}

/// A unit too long for a part, cut into the longest runs of whole lines
/// that fit. Err when a single line alone is too long.
fn line_groups(text: &str, limit: usize) -> Result<Vec<String>, ()> {
    let lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    if lines.iter().any(|line| utf16_len(line) > limit) {
        return Err(());
    }
    Ok(pack(lines, "\n", limit))
}

/// Greedy packing in order: each item joins the current group when the
/// joined text stays within `limit`, else starts the next group. Always at
/// least one group, so an empty block still renders its heading.
fn pack(items: Vec<String>, separator: &str, limit: usize) -> Vec<String> {
    let separator_len = utf16_len(separator);
    let mut groups: Vec<(String, usize)> = Vec::new();
    for item in items {
        let item_len = utf16_len(&item);
        match groups.last_mut() {
            Some((group, len)) if *len + separator_len + item_len <= limit => {
                group.push_str(separator);
                group.push_str(&item);
                *len += separator_len + item_len;
            }
            _ => groups.push((item, item_len)),
        }
    }
    if groups.is_empty() {
        groups.push((String::new(), 0));
    }
    groups.into_iter().map(|(group, _)| group).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule_block(content: &str) -> Block {
        Block {
            kind: BlockKind::Rule {
                name: "test.mdc".into(),
            },
            heading: "# test.mdc".into(),
            content: content.into(),
        }
    }

    fn fence_count(part: &str) -> usize {
        part.matches("```").count()
    }

    #[test]
    fn one_part_is_heading_blank_line_content() {
        let parts = split_block(&rule_block("# Testing\n\n\n\nBody"), 1000).unwrap();
        assert_eq!(parts, vec!["# test.mdc\n\n# Testing\n\nBody"]);
        assert_eq!(
            split_block(&rule_block(""), 1000).unwrap(),
            vec!["# test.mdc\n\n"]
        );
    }

    #[test]
    fn long_blocks_split_at_units_and_keep_fences_whole() {
        // Case 68.
        let list: Vec<String> = (1..=20)
            .map(|i| format!("- list item number {i}"))
            .collect();
        let content = format!(
            "A paragraph.\n\n```\nfenced one\nfenced two\n```\n\n{}",
            list.join("\n")
        );
        let parts = split_block(&rule_block(&content), 160).unwrap();
        assert!(parts.len() > 1);
        for (i, part) in parts.iter().enumerate() {
            assert!(utf16_len(part) <= 160, "{part}");
            assert!(part.starts_with(&format!("# test.mdc (part {}/{})\n\n", i + 1, parts.len())));
        }
        let with_fence: Vec<&String> = parts.iter().filter(|p| p.contains("```")).collect();
        assert_eq!(with_fence.len(), 1);
        assert_eq!(fence_count(with_fence[0]), 2);
        assert!(with_fence[0].contains("```\nfenced one\nfenced two\n```"));
        for item in &list {
            assert_eq!(
                parts
                    .iter()
                    .filter(|p| p.lines().any(|l| l == item))
                    .count(),
                1,
                "{item}"
            );
        }
    }

    #[test]
    fn text_right_after_a_fence_is_its_own_unit() {
        // Case 69.
        let text: Vec<String> = (1..=20).map(|i| format!("plain line {i}")).collect();
        let content = format!("```\ncode\n```\n{}", text.join("\n"));
        let parts = split_block(&rule_block(&content), 100).unwrap();
        assert!(parts.len() > 2);
        assert!(parts.iter().all(|p| utf16_len(p) <= 100));
        assert_eq!(
            parts
                .iter()
                .filter(|p| p.contains("```\ncode\n```"))
                .count(),
            1
        );
        assert_eq!(parts.iter().map(|p| fence_count(p)).sum::<usize>(), 2);
    }

    #[test]
    fn limits_count_utf16_code_units() {
        // Each line is 30 characters but 60 code units: counted in code
        // units the two lines do not fit one 70-unit part together.
        let line = "😀".repeat(30);
        let parts = split_block(&rule_block(&format!("{line}\n{line}")), 10 + 32 + 70).unwrap();
        assert_eq!(parts.len(), 2);
    }

    #[test]
    fn oversized_pieces_are_errors_with_the_reference_texts() {
        // Case 70.
        let fence = format!("```\n{}\n```", "x".repeat(100));
        let err = split_block(&rule_block(&fence), 100).unwrap_err();
        assert_eq!(
            err.message(),
            "A fenced Markdown block exceeds the hook context frame limit"
        );
        assert!(err.message().contains("fenced Markdown block exceeds"));
        assert_eq!(err.place, Some(Place::file("test.mdc")));

        let err = split_block(&rule_block(&"y".repeat(100)), 100).unwrap_err();
        assert_eq!(
            err.message(),
            "A Markdown line exceeds the hook context frame limit"
        );

        assert_eq!(
            split_block(&rule_block("x"), 42).unwrap_err().message(),
            "Rule block heading exceeds the hook context frame limit"
        );
        assert_eq!(
            split_block(&rule_block("x"), 43).unwrap(),
            vec!["# test.mdc\n\nx"]
        );
    }
}
