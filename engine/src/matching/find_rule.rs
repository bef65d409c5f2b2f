//! Finding the one rule a person names (`explain --why-not RULE`, the
//! playground's rule picker): by its name, or by any name a mention of it
//! would use (behaviour §9.3); when none is found, whether its file was
//! left out as broken, else the nearest names, so a typo is one step from
//! the answer.

use serde::Serialize;

use crate::base::error::Place;
use crate::base::paths;
use crate::base::text::edit_distance;
use crate::matching::mentions::{stem, Resolution};
use crate::matching::project::Project;

/// How many of the nearest names an unknown name suggests.
const SUGGESTED: usize = 3;

/// Why no rule answers to a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum NoRule {
    /// No rule has that name.
    #[serde(rename_all = "camelCase")]
    Unknown {
        /// The name as asked.
        name: String,
        /// The nearest rule names, nearest first; empty when none is close.
        nearest: Vec<String>,
    },
    /// The name is a short form several rules answer to.
    #[serde(rename_all = "camelCase")]
    Ambiguous {
        /// The name as asked.
        name: String,
        /// The rules it could mean, in name order.
        candidates: Vec<String>,
    },
    /// The rule's file could not be read as a rule, so the project left it
    /// out when it loaded: it cannot fire for any event.
    #[serde(rename_all = "camelCase")]
    Broken {
        /// The name as asked.
        name: String,
        /// Its file (project-relative) and line.
        place: Place,
        /// What is wrong with it.
        message: String,
    },
}

/// The place in name order of the rule `asked` names: its exact name
/// first, then a mention's name forms (with or without `@`).
pub(crate) fn find_rule(project: &Project, asked: &str) -> Result<usize, NoRule> {
    let rules = project.rules.all();
    if let Some(place) = rules.iter().position(|rule| rule.name == asked) {
        return Ok(place);
    }
    let short = asked.strip_prefix('@').unwrap_or(asked);
    if let Some(broken) = broken(project, asked, short) {
        return Err(broken);
    }
    match project.index.requests().resolve(short) {
        Resolution::Rule(place) => Ok(place),
        Resolution::Ambiguous(places) => Err(NoRule::Ambiguous {
            name: asked.to_string(),
            candidates: places.iter().map(|&p| rules[p].name.clone()).collect(),
        }),
        Resolution::Unknown => Err(NoRule::Unknown {
            name: asked.to_string(),
            nearest: nearest(rules.iter().map(|r| r.name.as_str()), short),
        }),
    }
}

/// The error finding of a rule file the project left out whose name is
/// `asked` (or, without its extension, `short`).
fn broken(project: &Project, asked: &str, short: &str) -> Option<NoRule> {
    let names_it = |file: &str| {
        let tail = |name: &str| file == name || file.ends_with(&format!("/{name}"));
        tail(asked) || tail(short) || tail_of_stem(file, short)
    };
    let finding = project
        .rules
        .findings
        .iter()
        .filter(|f| f.is_error())
        .find(|f| names_it(&f.place.file))?;
    let file = paths::strip_base(&finding.place.file, &project.root)
        .unwrap_or(&finding.place.file)
        .trim_start_matches('/')
        .to_string();
    Some(NoRule::Broken {
        name: asked.to_string(),
        place: Place {
            file,
            line: finding.place.line,
        },
        message: finding.message.clone(),
    })
}

fn tail_of_stem(file: &str, short: &str) -> bool {
    let without = stem(file);
    without == short || without.ends_with(&format!("/{short}"))
}

/// The names nearest `asked` by edit distance (of the names without their
/// extension, ignoring case): those at the least distance, at most
/// [`SUGGESTED`], in name order; a name
/// further than a third of its length (two edits for a short one) away
/// is no suggestion.
pub(crate) fn nearest<'a>(names: impl Iterator<Item = &'a str>, asked: &str) -> Vec<String> {
    let asked = stem(asked).to_lowercase();
    let mut scored: Vec<(usize, &str)> = names
        .filter_map(|name| {
            let whole = stem(name).to_lowercase();
            let file = whole.rsplit('/').next().unwrap_or(&whole);
            let distance = edit_distance(&asked, &whole).min(edit_distance(&asked, file));
            let close = distance <= (asked.chars().count() / 3).max(2);
            close.then_some((distance, name))
        })
        .collect();
    scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    let best = scored.first().map_or(0, |(distance, _)| *distance);
    scored
        .into_iter()
        .take_while(|(distance, _)| *distance == best)
        .take(SUGGESTED)
        .map(|(_, name)| name.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    fn project() -> Project {
        let mut fs = MemoryFs::new();
        fs.add_file(
            "/p/.cursor/rules/ui.mdc",
            "---\nglobs: src/ui/**\n---\n# UI",
        )
        .add_file("/p/.cursor/rules/ops/release.mdc", "# Release")
        .add_file("/p/.cursor/rules/web/style.mdc", "# Web")
        .add_file("/p/.cursor/rules/api/style.mdc", "# Api")
        .add_file("/p/.cursor/rules/bad.mdc", b"# Bad\n\xff");
        Project::load(&fs, "/p").unwrap()
    }

    #[test]
    fn a_rule_is_found_by_its_name_or_a_mention_of_it() {
        let project = project();
        let names = project.rules.names();
        let found = |asked: &str| find_rule(&project, asked).map(|place| names[place]);
        assert_eq!(found("ui.mdc"), Ok("ui.mdc"));
        assert_eq!(found("@release"), Ok("ops/release.mdc"));
        assert_eq!(found("ops/release"), Ok("ops/release.mdc"));
        assert_eq!(
            found("style"),
            Err(NoRule::Ambiguous {
                name: "style".into(),
                candidates: vec!["api/style.mdc".into(), "web/style.mdc".into()]
            })
        );
    }

    #[test]
    fn an_unknown_name_suggests_the_nearest() {
        let project = project();
        assert_eq!(
            find_rule(&project, "iu.mdc"),
            Err(NoRule::Unknown {
                name: "iu.mdc".into(),
                nearest: vec!["ui.mdc".into()]
            })
        );
        assert_eq!(
            find_rule(&project, "relase"),
            Err(NoRule::Unknown {
                name: "relase".into(),
                nearest: vec!["ops/release.mdc".into()]
            })
        );
        let Err(NoRule::Unknown { nearest, .. }) = find_rule(&project, "completely-else") else {
            panic!("unknown")
        };
        assert!(nearest.is_empty(), "{nearest:?}");
    }

    #[test]
    fn a_broken_rule_is_named_with_its_file_and_line() {
        let project = project();
        assert_eq!(
            find_rule(&project, "bad.mdc"),
            Err(NoRule::Broken {
                name: "bad.mdc".into(),
                place: Place::line(".cursor/rules/bad.mdc", 2),
                message: "not valid UTF-8 text (invalid byte at offset 6, line 2)".into(),
            })
        );
        assert!(matches!(
            find_rule(&project, "bad"),
            Err(NoRule::Broken { .. })
        ));
    }
}
