//! Matching one file's text against the rules of its language, in one
//! traversal of its syntax tree. A file that mentions `ast-grep-ignore`
//! goes through ast-grep's combined scan, which honours those comments;
//! any other file skips the extra traversal that looks for them, which is
//! a fifth of a per-write check on a large file.

use ast_grep_config::{CombinedScan, RuleConfig};
use ast_grep_core::matcher::{Matcher, MatcherExt};
use ast_grep_core::tree_sitter::{LanguageExt, StrDoc};
use ast_grep_core::{AstGrep, NodeMatch};

use crate::finding::{Finding, Severity};
use crate::language::SupportLang;
use crate::rules::Rule;

/// The findings of `rules` (all of `lang`) in `source`, sorted by position.
/// `file` is the name the findings carry.
pub(crate) fn scan_source(
    rules: &[&Rule],
    lang: SupportLang,
    file: &str,
    source: &str,
) -> Vec<Finding> {
    let active: Vec<&Rule> = rules
        .iter()
        .copied()
        .filter(|r| r.language() == lang && r.severity() != Severity::Off)
        .collect();
    if active.is_empty() {
        return Vec::new();
    }
    let root = lang.ast_grep(source);
    let configs: Vec<&RuleConfig<SupportLang>> = active.iter().map(|r| &r.config).collect();
    let mut findings = if source.contains(SUPPRESSION) {
        let combined = CombinedScan::new(configs);
        to_findings(combined.scan(&root, false).matches, file)
    } else {
        to_findings(match_all(&configs, &root), file)
    };
    findings.sort_by(|a, b| (a.line, a.column, &a.rule_id).cmp(&(b.line, b.column, &b.rule_id)));
    findings
}

fn to_findings(matches: Matches<'_, '_>, file: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (config, matches) in matches {
        for node in matches {
            let start = node.start_pos();
            let end = node.end_pos();
            findings.push(Finding {
                rule_id: config.id.clone(),
                severity: Severity::from(&config.severity),
                file: file.to_string(),
                line: start.line() + 1,
                column: start.column(&node) + 1,
                end_line: end.line() + 1,
                end_column: end.column(&node) + 1,
                message: config.get_message(&node),
                note: config.note.clone(),
            });
        }
    }
    findings
}

/// The comment ast-grep reads as a suppression.
const SUPPRESSION: &str = "ast-grep-ignore";

type Matches<'t, 'r> = Vec<(
    &'r RuleConfig<SupportLang>,
    Vec<NodeMatch<'t, StrDoc<SupportLang>>>,
)>;

/// What ast-grep's combined scan does when no suppression comment exists:
/// one pre-order walk, each node tried only against the rules whose
/// pattern can start at its kind.
fn match_all<'t, 'r>(
    configs: &[&'r RuleConfig<SupportLang>],
    root: &'t AstGrep<StrDoc<SupportLang>>,
) -> Matches<'t, 'r> {
    let mut by_kind: Vec<Vec<usize>> = Vec::new();
    for (index, config) in configs.iter().enumerate() {
        // Loading refused rules without potential kinds, as ast-grep does.
        let Some(kinds) = config.matcher.potential_kinds() else {
            continue;
        };
        for kind in &kinds {
            if by_kind.len() <= kind {
                by_kind.resize_with(kind + 1, Vec::new);
            }
            by_kind[kind].push(index);
        }
    }
    let mut found: Vec<Vec<NodeMatch<'t, StrDoc<SupportLang>>>> = vec![Vec::new(); configs.len()];
    for node in root.root().dfs() {
        let Some(candidates) = by_kind.get(node.kind_id() as usize) else {
            continue;
        };
        for &index in candidates {
            if let Some(found_match) = configs[index].matcher.match_node(node.clone()) {
                found[index].push(found_match);
            }
        }
    }
    configs
        .iter()
        .zip(found)
        .filter(|(_, matches)| !matches.is_empty())
        .map(|(config, matches)| (*config, matches))
        .collect()
}
