//! What `check` says about a rule's reach in the project it lives in: a
//! glob that matches no file there cannot fire (see `rule-fairy check` in
//! the book's commands chapter).

use std::collections::HashMap;

use crate::base::error::Place;
use crate::base::finding::{Code, Finding};
use crate::check::lint::glob_place;
use crate::matching::index::RuleIndex;
use crate::rules::rule::Rule;

/// A warning for each valid glob of `rules` that matches none of `files`
/// (project-relative).
pub(crate) fn unmatched_globs(rules: &[Rule], files: &[String]) -> Vec<Finding> {
    let index = RuleIndex::build(rules);
    // By file, so placing many unmatched globs stays linear.
    let by_path: HashMap<&str, &Rule> = rules.iter().map(|r| (r.path.as_str(), r)).collect();
    index
        .globs_matching_none(files)
        .into_iter()
        .map(|(file, line, glob)| {
            let (line, span) = by_path
                .get(file)
                .and_then(|rule| glob_place(rule, line, glob))
                .unwrap_or((line, None));
            Finding::warning(
                Code::RuleGlobMatchesNothing,
                Place::line(file, line),
                format!("glob {glob} matches no file in the project"),
            )
            .with_hint(
                "check the path and its case; files git ignores are not counted (fine if the files are still to come)",
            )
            .with_span(span)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::finding::Span;

    #[test]
    fn a_glob_that_matches_nothing_is_named_with_its_line() {
        let rules = vec![
            Rule::parse(
                "ui.mdc",
                "/p/ui.mdc",
                "---\nglobs: src/ui/**, src/iu/**\n---\nU",
            ),
            Rule::parse(
                "db.mdc",
                "/p/db.mdc",
                "---\nglobs:\n  - db/**/*.sql\n---\nD",
            ),
            Rule::parse("bad.mdc", "/p/bad.mdc", "---\nglobs: src/[\n---\nB"),
            Rule::parse("dot.mdc", "/p/dot.mdc", "---\nglobs:   ./lib/*.rs\n---\nL"),
            Rule::parse(
                "flow.mdc",
                "/p/flow.mdc",
                "---\npaths: [\"src/ui/**\", \"api/**\"]\n---\nF",
            ),
        ];
        let files = vec!["src/ui/Button.tsx".to_string(), "README.md".to_string()];
        let found: Vec<String> = unmatched_globs(&rules, &files)
            .iter()
            .map(|f| format!("{}: {}", f.place, f.message))
            .collect();
        assert_eq!(
            found,
            vec![
                "/p/ui.mdc:2: glob src/iu/** matches no file in the project",
                "/p/db.mdc:3: glob db/**/*.sql matches no file in the project",
                "/p/dot.mdc:2: glob lib/*.rs matches no file in the project",
                "/p/flow.mdc:2: glob api/** matches no file in the project",
            ]
        );
        // Each points at its glob as written: the second of a comma line,
        // a sequence item on its own line, a normalised glob where its
        // text is, an item of a flow sequence.
        let spans: Vec<Option<Span>> = unmatched_globs(&rules, &files)
            .iter()
            .map(|f| f.span)
            .collect();
        assert_eq!(
            spans,
            vec![
                Some(Span::at(19, 9)),
                Some(Span::at(5, 11)),
                Some(Span::at(10, 10)),
                Some(Span::at(23, 6)),
            ]
        );
        assert!(unmatched_globs(
            &rules[..1],
            &["src/iu/x".to_string(), "src/ui/y".to_string()]
        )
        .is_empty());
    }
}
