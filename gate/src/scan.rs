//! Matching one file's text against the rules of its language, in one
//! traversal of its syntax tree. A file that mentions `ast-grep-ignore`
//! goes through ast-grep's combined scan, which honours those comments;
//! any other file skips the extra traversal that looks for them, which is
//! a fifth of a per-write check on a large file.
//!
//! Everything here is linear in the file's size: one parse, one walk, and
//! character columns counted in one pass over the lines that have findings
//! (ast-grep counts each column from its line's start, which on a minified
//! one-line file is quadratic in the findings).

use ast_grep_config::{CombinedScan, RuleConfig};
use ast_grep_core::matcher::{Matcher, MatcherExt};
use ast_grep_core::tree_sitter::{LanguageExt, StrDoc};
use ast_grep_core::{AstGrep, NodeMatch};

use crate::finding::{Finding, Severity};
use crate::language::SupportLang;
use crate::rules::Rule;

/// What one file's scan found.
#[derive(Debug, Default)]
pub(crate) struct SourceScan {
    /// Sorted by position.
    pub findings: Vec<Finding>,
    /// The 1-based line where the first syntax error the parser recovered
    /// from starts, if any: the findings are then those of a partial parse.
    pub syntax_error: Option<usize>,
}

/// The findings of `rules` (all of `lang`) in `source`, sorted by position,
/// and whether it parsed cleanly. `file` is the name the findings carry.
pub(crate) fn scan_source(
    rules: &[&Rule],
    lang: SupportLang,
    file: &str,
    source: &str,
) -> SourceScan {
    let active: Vec<&Rule> = rules
        .iter()
        .copied()
        .filter(|r| r.language() == lang && r.severity() != Severity::Off)
        .collect();
    if active.is_empty() {
        return SourceScan::default();
    }
    let root = lang.ast_grep(source);
    let syntax_error = first_syntax_error(&root);
    let configs: Vec<&RuleConfig<SupportLang>> = active.iter().map(|r| &r.config).collect();
    let mut findings = if source.contains(SUPPRESSION) {
        let combined = CombinedScan::new(configs);
        to_findings(combined.scan(&root, false).matches, file, source)
    } else {
        to_findings(match_all(&configs, &root), file, source)
    };
    findings.sort_by(|a, b| (a.line, a.column, &a.rule_id).cmp(&(b.line, b.column, &b.rule_id)));
    SourceScan {
        findings,
        syntax_error,
    }
}

/// The line of the first `ERROR` or `MISSING` node in document order: the
/// parser's own mark that it recovered from a syntax error. Only the path
/// down to it is walked: a node knows whether anything below it is wrong.
fn first_syntax_error(root: &AstGrep<StrDoc<SupportLang>>) -> Option<usize> {
    let mut node = root.root().get_inner_node();
    if !node.has_error() {
        return None;
    }
    loop {
        if node.is_error() || node.is_missing() {
            return Some(node.start_position().row + 1);
        }
        let mut cursor = node.walk();
        let mut below = None;
        for child in node.children(&mut cursor) {
            if child.has_error() {
                below = Some(child);
                break;
            }
        }
        match below {
            Some(child) => node = child,
            None => return Some(node.start_position().row + 1),
        }
    }
}

fn to_findings(matches: Matches<'_, '_>, file: &str, source: &str) -> Vec<Finding> {
    // Each match's start and end as (byte offset, byte column).
    let mut points: Vec<(usize, usize)> = Vec::new();
    for (_, matches) in &matches {
        for node in matches {
            let range = node.range();
            points.push((range.start, node.start_pos().byte_point().1));
            points.push((range.end, node.end_pos().byte_point().1));
        }
    }
    let columns = CharColumns::new(source, points);
    let mut findings = Vec::new();
    for (config, matches) in matches {
        for node in matches {
            let range = node.range();
            let start = node.start_pos();
            let end = node.end_pos();
            findings.push(Finding {
                rule_id: config.id.clone(),
                severity: Severity::from(&config.severity),
                file: file.to_string(),
                line: start.line() + 1,
                column: columns.at(range.start) + 1,
                end_line: end.line() + 1,
                end_column: columns.at(range.end) + 1,
                message: config.get_message(&node),
                note: config.note.clone(),
            });
        }
    }
    findings
}

/// The 0-based character column of each of a set of byte offsets, counted
/// in one forward pass: each line is read once, from its start to its last
/// offset asked for.
struct CharColumns {
    /// (byte offset, character column), sorted by offset.
    columns: Vec<(usize, usize)>,
}

impl CharColumns {
    /// `points` are (byte offset, byte column) pairs, as tree-sitter gives
    /// them: the line starts `byte column` bytes before the offset.
    fn new(source: &str, mut points: Vec<(usize, usize)>) -> CharColumns {
        points.sort_unstable();
        points.dedup();
        let bytes = source.as_bytes();
        let mut columns = Vec::with_capacity(points.len());
        // Where the last count stopped: its line's start, its offset, its
        // column.
        let mut last: Option<(usize, usize, usize)> = None;
        for (offset, byte_column) in points {
            let line_start = offset - byte_column;
            let (from, base) = match last {
                Some((start, at, column)) if start == line_start => (at, column),
                _ => (line_start, 0),
            };
            let column = base + chars(&bytes[from..offset]);
            columns.push((offset, column));
            last = Some((line_start, offset, column));
        }
        CharColumns { columns }
    }

    fn at(&self, offset: usize) -> usize {
        self.columns
            .binary_search_by_key(&offset, |&(o, _)| o)
            .map_or(0, |i| self.columns[i].1)
    }
}

/// Characters in UTF-8 bytes: every byte that does not continue one.
fn chars(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .filter(|&&b| b & 0b1100_0000 != 0b1000_0000)
        .count()
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
