//! Matching one file's text against the rules of its language, in one
//! traversal of its syntax tree (ast-grep's combined scan, which also
//! honours `ast-grep-ignore` comments).

use ast_grep_config::CombinedScan;
use ast_grep_core::tree_sitter::LanguageExt;

use crate::finding::{Finding, Severity};
use crate::language::SupportLang;
use crate::rules::Rule;

/// The findings of `rules` (all of `lang`) in `source`, sorted by position.
/// `file` is the name the findings carry.
pub fn scan_source(rules: &[&Rule], lang: SupportLang, file: &str, source: &str) -> Vec<Finding> {
    let active: Vec<&Rule> = rules
        .iter()
        .copied()
        .filter(|r| r.language() == lang && r.severity() != Severity::Off)
        .collect();
    if active.is_empty() {
        return Vec::new();
    }
    let root = lang.ast_grep(source);
    let combined = CombinedScan::new(active.iter().map(|r| &r.config).collect());
    let result = combined.scan(&root, false);
    let mut findings = Vec::new();
    for (config, matches) in result.matches {
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
    findings.sort_by(|a, b| (a.line, a.column, &a.rule_id).cmp(&(b.line, b.column, &b.rule_id)));
    findings
}
