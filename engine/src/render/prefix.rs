//! The marker lines a Claude Code delivery opens with (behaviour §4.5) and
//! the reason lines of a prompt delivery (behaviour §2.5): which rules were
//! injected and why. The frame reader counts a rule as delivered from its
//! `injected` marker, so the markers name exactly the delivered rules.

use std::collections::HashSet;

use crate::matching::index::PromptMatch;
use crate::render::labels;
use crate::rules::instructions::{self, HostLoading};

/// Characters a shell delivery spends naming changed paths; the rest are
/// counted, so neither a rebase's hundreds of paths nor a few very long ones
/// push the prefix past the frame limit.
pub(crate) const SHELL_PATH_BUDGET: usize = 1_000;

/// What a shell delivery asks of the agent: the rules arrive after the
/// change was made, so they apply to the next pass over it.
pub(crate) const SHELL_CONTRACT: &str = "Apply these rules on the next pass over this change. If the completed change conflicts with them, revise it before moving on.";

/// What selected the candidate rules of one Claude Code delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// A prompt: the prompt matches of the candidates (behaviour §2.4).
    Prompt(Vec<PromptMatch>),
    /// An edit of one path, project-relative as matched.
    Edit { path: String },
    /// The paths a shell command changed, in sorted order, each with the
    /// rules its globs select.
    Shell(Vec<ChangedPath>),
    /// Files the model read, project-relative, in the order read.
    Read {
        /// Each requestable rule's file read (behaviour §9.2), with its
        /// rule.
        requested: Vec<ChangedPath>,
        /// Each path read below a nested folder's always-on rules
        /// (behaviour §1.2), with them.
        below: Vec<ChangedPath>,
    },
}

/// A path a shell command changed and the rules matching it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedPath {
    pub path: String,
    pub rules: Vec<String>,
}

impl Trigger {
    /// The first frame's marker lines for a delivery of `delivered` (in
    /// delivery order), without the deferred line, which fitting adds.
    pub fn prefix<S: AsRef<str>>(&self, delivered: &[S]) -> String {
        self.prefix_for(delivered, HostLoading::ClaudeCode)
    }

    /// [`prefix`](Self::prefix) for the host of `loading`, whom the line
    /// naming the instruction files it did not load names.
    pub(crate) fn prefix_for<S: AsRef<str>>(
        &self,
        delivered: &[S],
        loading: HostLoading,
    ) -> String {
        let host = loading.name();
        let mut lines = injected_markers(delivered);
        match self {
            Trigger::Prompt(matches) => {
                let delivered_matches = delivered
                    .iter()
                    .filter_map(|name| matches.iter().find(|m| m.name == name.as_ref()));
                lines.extend(reason_lines(delivered_matches));
            }
            Trigger::Edit { path } => {
                if delivered.iter().any(|name| !is_instruction(name.as_ref())) {
                    lines.push(labels::matched_glob(path));
                }
                if delivered.iter().any(|name| is_instruction(name.as_ref())) {
                    lines.push(labels::matched_instructions_unloaded(host, path, false));
                }
            }
            Trigger::Read { requested, below } => {
                lines.extend(read_lines(requested, below, delivered));
            }
            Trigger::Shell(changed) => {
                let delivered: HashSet<&str> = delivered.iter().map(AsRef::as_ref).collect();
                // The paths one of whose delivered names is (or is not) an
                // instruction file.
                let named = |instruction: bool| -> Vec<&str> {
                    changed
                        .iter()
                        .filter(|c| {
                            c.rules.iter().any(|rule| {
                                delivered.contains(rule.as_str())
                                    && is_instruction(rule) == instruction
                            })
                        })
                        .map(|c| c.path.as_str())
                        .collect()
                };
                let (by_rules, by_instructions) = (named(false), named(true));
                if !by_rules.is_empty() {
                    lines.push(labels::matched_glob_by_shell(&shell_paths(&by_rules)));
                }
                if !by_instructions.is_empty() {
                    let paths = shell_paths(&by_instructions);
                    lines.push(labels::matched_instructions_unloaded(host, &paths, true));
                }
                lines.push(String::new());
                lines.push(SHELL_CONTRACT.to_string());
            }
        }
        lines.join("\n")
    }
}

/// Whether a delivered name is an instruction file's (behaviour §5.3).
fn is_instruction(name: &str) -> bool {
    instructions::delivered_path(name).is_some()
}

/// Why a read brought `delivered`: the requestable rules' files read, then
/// the paths read below nested folders' always-on rules, each line only
/// when one of its rules was delivered.
pub(crate) fn read_lines<S: AsRef<str>>(
    requested: &[ChangedPath],
    below: &[ChangedPath],
    delivered: &[S],
) -> Vec<String> {
    let mut lines = Vec::new();
    let requested = paths_delivering(requested, delivered);
    if !requested.is_empty() {
        lines.push(labels::matched_read(&requested));
    }
    let below = paths_delivering(below, delivered);
    if !below.is_empty() {
        lines.push(labels::matched_read_below(&below));
    }
    lines
}

/// The paths one of whose rules is among `delivered`, `, ` between them.
fn paths_delivering<S: AsRef<str>>(read: &[ChangedPath], delivered: &[S]) -> String {
    read.iter()
        .filter(|r| {
            r.rules
                .iter()
                .any(|rule| delivered.iter().any(|d| d.as_ref() == rule))
        })
        .map(|r| r.path.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `[rule-fairy injected: <rule>]` for each rule, in order.
pub(crate) fn injected_markers<S: AsRef<str>>(rules: &[S]) -> Vec<String> {
    rules
        .iter()
        .map(|rule| labels::injected(rule.as_ref()))
        .collect()
}

/// Why a prompt selected its rules (behaviour §2.5): the always-on rules,
/// then the distinct matched keywords in order of first appearance, then
/// the distinct mentions (behaviour §9.3); each line only when it has
/// something to say.
pub(crate) fn reason_lines<'a>(matches: impl IntoIterator<Item = &'a PromptMatch>) -> Vec<String> {
    let mut always_on: Vec<&str> = Vec::new();
    let mut keywords: Vec<&str> = Vec::new();
    let mut mentions: Vec<&str> = Vec::new();
    for m in matches {
        for mention in &m.mentions {
            if !mentions.contains(&mention.as_str()) {
                mentions.push(mention);
            }
        }
        if m.always_apply {
            always_on.push(&m.name);
        }
        for keyword in &m.keywords {
            if !keywords.contains(&keyword.as_str()) {
                keywords.push(keyword);
            }
        }
    }
    let mut lines = Vec::new();
    if !always_on.is_empty() {
        lines.push(labels::matched_always_apply(&always_on));
    }
    if !keywords.is_empty() {
        lines.push(labels::matched_keywords(&keywords));
    }
    if !mentions.is_empty() {
        lines.push(labels::matched_mentions(&mentions));
    }
    lines
}

/// The changed paths as a shell delivery names them, each line-safe
/// (`labels::line_safe`): the leading paths
/// whose names and `, ` separators stay within [`SHELL_PATH_BUDGET`]
/// (naming stops at the first that does not fit), then ` and <k> more`;
/// `<count> paths` when not even the first fits.
pub(crate) fn shell_paths<S: AsRef<str>>(paths: &[S]) -> String {
    labels::named_within(paths, SHELL_PATH_BUDGET, "paths")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt_match(name: &str, always_apply: bool, keywords: &[&str]) -> PromptMatch {
        PromptMatch {
            name: name.into(),
            always_apply,
            keywords: keywords
                .iter()
                .map(std::string::ToString::to_string)
                .collect(),
            durable: true,
            mentions: vec![],
        }
    }

    #[test]
    fn reason_lines_name_always_on_rules_then_distinct_keywords() {
        let matches = [
            prompt_match("a.mdc", true, &[]),
            prompt_match("b.mdc", true, &["service"]),
            prompt_match("c.mdc", false, &["service", "deftest"]),
        ];
        assert_eq!(
            reason_lines(&matches),
            vec![
                "[rule-fairy matched: alwaysApply a.mdc, b.mdc]",
                "[rule-fairy matched: keyword \"service\", \"deftest\"]",
            ]
        );
        assert_eq!(
            reason_lines(&matches[2..]),
            vec!["[rule-fairy matched: keyword \"service\", \"deftest\"]"]
        );
        assert!(reason_lines(&[]).is_empty());
        let mut mentioned = prompt_match("d.mdc", false, &[]);
        mentioned.mentions = vec!["@d".into(), "@ops/d".into()];
        assert_eq!(
            reason_lines(&[mentioned.clone(), mentioned]),
            vec!["[rule-fairy matched: mention @d, @ops/d]"]
        );
    }

    #[test]
    fn prompt_prefix_speaks_only_of_delivered_rules() {
        // Case 81, the prefix half.
        let trigger = Trigger::Prompt(vec![
            prompt_match("base.mdc", true, &[]),
            prompt_match("widget.mdc", false, &["widget"]),
        ]);
        assert_eq!(
            trigger.prefix(&["base.mdc"]),
            "[rule-fairy injected: base.mdc]\n[rule-fairy matched: alwaysApply base.mdc]"
        );
        assert_eq!(
            trigger.prefix(&["widget.mdc"]),
            "[rule-fairy injected: widget.mdc]\n[rule-fairy matched: keyword \"widget\"]"
        );
    }

    #[test]
    fn edit_prefix_names_the_path() {
        let trigger = Trigger::Edit {
            path: "src/a.clj".into(),
        };
        assert_eq!(
            trigger.prefix(&["widget.mdc", "z.mdc"]),
            "[rule-fairy injected: widget.mdc]\n[rule-fairy injected: z.mdc]\n[rule-fairy matched: glob on src/a.clj]"
        );
    }

    #[test]
    fn shell_prefix_names_paths_with_delivered_rules_and_the_contract() {
        let changed = |path: &str, rules: &[&str]| ChangedPath {
            path: path.into(),
            rules: rules.iter().map(std::string::ToString::to_string).collect(),
        };
        let trigger = Trigger::Shell(vec![
            changed("a.clj", &["a.mdc"]),
            changed("b.clj", &["b.mdc"]),
            changed("c.clj", &["a.mdc", "c.mdc"]),
        ]);
        assert_eq!(
            trigger.prefix(&["a.mdc"]),
            "[rule-fairy injected: a.mdc]\n[rule-fairy matched: glob on a.clj, c.clj, changed by a shell command]\n\nApply these rules on the next pass over this change. If the completed change conflicts with them, revise it before moving on."
        );
    }

    #[test]
    fn shell_paths_stay_within_the_budget() {
        let short: Vec<String> = (0..25).map(|i| format!("src/f{i:02}.clj")).collect();
        assert_eq!(shell_paths(&short), short.join(", "));

        // Thirty 60-character paths: 16 cost 60 * 16 + 2 * 15 = 990.
        let long: Vec<String> = (0..30)
            .map(|i| format!("{i:02}{}", "p".repeat(58)))
            .collect();
        let named = shell_paths(&long);
        assert_eq!(named, format!("{} and 14 more", long[..16].join(", ")));

        assert_eq!(shell_paths(&["x".repeat(1_200)]), "1 paths");
        assert_eq!(shell_paths(&["x".repeat(1_200), "short".into()]), "2 paths");
        // Naming stops at the first path that does not fit.
        assert_eq!(
            shell_paths(&["a".repeat(990), "b".repeat(20), "c".into()]),
            format!("{} and 2 more", "a".repeat(990))
        );
        assert_eq!(
            shell_paths(&["a".repeat(997), "b".into()]),
            format!("{}, b", "a".repeat(997))
        );
        assert_eq!(
            shell_paths(&["a".repeat(998), "b".into()]),
            format!("{} and 1 more", "a".repeat(998))
        );
    }
}
