//! The index of requestable rules (behaviour §9.2): one entry listing
//! every rule the model may ask for, with its description and its file,
//! and the one line saying how to ask. It is delivered like a rule, under
//! a name no rule file can have, so both hosts record it and the Claude
//! Code read-back finds it (behaviour §5.5) with no reader of its own.

use sha2::{Digest, Sha256};

use crate::base::text::utf16_len;
use crate::matching::requests::Requestable;
use crate::render::block::{Block, BlockKind};
use crate::render::labels::line_safe;

/// Characters (UTF-16 code units, as frames count) the index's list may
/// take. It comes with the first prompt and again after every compaction,
/// beside the prompt's own rules, so it must stay a small part of one
/// frame (100,000) and of the model's attention: 12,000 characters is
/// about 3,000 tokens, room for some 60 rules described at length or 200
/// described briefly.
pub(crate) const INDEX_CHARS: usize = 12_000;

/// Characters of one description the index shows; a longer one is cut
/// with `…`, so one long description cannot push the others out.
pub(crate) const DESCRIPTION_CHARS: usize = 300;

/// How the model asks for a rule, the index's one line of instruction.
pub(crate) const HOW_TO_REQUEST: &str = "These project rules apply only when their description fits the task at hand. When one does, read its file (the path given, relative to the project root) before going on: Rule Fairy then delivers the rule with the documentation it imports.";

/// What the index says when the descriptions did not fit.
const NAMES_ONLY: &str = "The descriptions did not fit the index's size bound, so only the rules' names and files are listed: read a file to see what its rule is for.";

/// Every delivered index's name starts with this; no rule is named so,
/// since a rule's name ends in its file's extension and never holds a
/// space followed by a hash of this shape.
pub(crate) const INDEX_NAME_PREFIX: &str = "index of requestable rules ";

/// The index as one block, and the name it is delivered and recorded
/// under: [`INDEX_NAME_PREFIX`] and the first 8 hex digits of its text's
/// SHA-256, so a changed index is delivered again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexEntry {
    pub name: String,
    pub block: Block,
}

/// Whether `name` is an index's, not a rule's.
pub(crate) fn is_index_name(name: &str) -> bool {
    name.strip_prefix(INDEX_NAME_PREFIX)
        .is_some_and(|hash| hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn shown_path(rule: &Requestable) -> String {
    line_safe(&rule.file).into_owned()
}

fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(limit - 1).collect();
    cut.push('…');
    cut
}

/// Lines for `listed` while they stay within `budget`; the rest counted.
fn within(lines: impl Iterator<Item = String>, budget: usize) -> (Vec<String>, usize) {
    let mut used = 0;
    let mut kept = Vec::new();
    let mut left = 0;
    for line in lines {
        let cost = utf16_len(&line) + 1;
        if left == 0 && used + cost <= budget {
            used += cost;
            kept.push(line);
        } else {
            left += 1;
        }
    }
    (kept, left)
}

/// The index of `listed` (in name order); `None`
/// when no rule is requestable. Each rule is a line `` - `<name>`
/// (`<file>`): <description> ``; when those lines pass [`INDEX_CHARS`],
/// the index lists names and files only, and says so; when even those
/// pass it, the first ones that fit and how many more there are.
pub(crate) fn index_entry(listed: &[Requestable]) -> Option<IndexEntry> {
    if listed.is_empty() {
        return None;
    }
    let described = listed.iter().map(|rule| {
        format!(
            "- `{}` (`{}`): {}",
            line_safe(&rule.name),
            shown_path(rule),
            line_safe(&cut(&rule.description, DESCRIPTION_CHARS))
        )
    });
    let (mut lines, left) = within(described, INDEX_CHARS);
    let mut head = HOW_TO_REQUEST.to_string();
    if left > 0 {
        let named = listed
            .iter()
            .map(|rule| format!("- `{}`: `{}`", line_safe(&rule.name), shown_path(rule)));
        let (named, left) = within(named, INDEX_CHARS);
        head = format!("{HOW_TO_REQUEST}\n\n{NAMES_ONLY}");
        lines = named;
        if left > 0 {
            lines.push(format!(
                "- and {left} more, past the index's {INDEX_CHARS} characters: list the rules folders to find them"
            ));
        }
    }
    let content = format!("{head}\n\n{}", lines.join("\n"));
    let digest = Sha256::digest(content.as_bytes());
    let hash: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    let name = format!("{INDEX_NAME_PREFIX}{hash}");
    Some(IndexEntry {
        block: Block {
            kind: BlockKind::Rule { name: name.clone() },
            heading: "# Requestable rules".to_string(),
            content,
        },
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(name: &str, description: &str) -> Requestable {
        Requestable {
            name: name.into(),
            path: format!("/p/.cursor/rules/{name}"),
            file: format!(".cursor/rules/{name}"),
            description: description.into(),
        }
    }

    #[test]
    fn the_index_names_each_rule_its_file_and_its_description() {
        let entry = index_entry(&[rule("ops/release.mdc", "Before a release")]).unwrap();
        assert!(is_index_name(&entry.name), "{}", entry.name);
        assert_eq!(entry.block.heading, "# Requestable rules");
        assert_eq!(
            entry.block.content,
            format!("{HOW_TO_REQUEST}\n\n- `ops/release.mdc` (`.cursor/rules/ops/release.mdc`): Before a release")
        );
        assert!(index_entry(&[]).is_none());
        // Another description, another name: the changed index comes again.
        let other = index_entry(&[rule("ops/release.mdc", "After")]).unwrap();
        assert_ne!(other.name, entry.name);
        assert!(
            !is_index_name("ops/release.mdc") && !is_index_name("index of requestable rules x.mdc")
        );
    }

    #[test]
    fn a_fifty_kilobyte_description_is_cut() {
        let entry = index_entry(&[rule("a.mdc", &"d".repeat(50_000))]).unwrap();
        assert!(
            entry.block.content.len() < 1_000,
            "{}",
            entry.block.content.len()
        );
        assert!(entry.block.content.ends_with("d…"));
    }

    #[test]
    fn past_the_bound_names_only_then_a_count() {
        let many: Vec<Requestable> = (0..5_000)
            .map(|i| rule(&format!("r{i:04}.mdc"), &"why ".repeat(20)))
            .collect();
        let entry = index_entry(&many).unwrap();
        let content = &entry.block.content;
        assert!(
            utf16_len(content) < INDEX_CHARS + 1_000,
            "{}",
            content.len()
        );
        assert!(content.contains(NAMES_ONLY));
        assert!(content.contains("- `r0000.mdc`: `.cursor/rules/r0000.mdc`"));
        assert!(!content.contains("why"));
        assert!(
            content.contains("more, past the index's 12000 characters"),
            "{content}"
        );
        // Forty rules described briefly fit with their descriptions.
        let few: Vec<Requestable> = many[..40].iter().map(|r| rule(&r.name, "short")).collect();
        assert!(!index_entry(&few)
            .unwrap()
            .block
            .content
            .contains(NAMES_ONLY));
    }
}
