//! What the person is told of a delivery (behaviour §10.1): each rule
//! delivered with why, recorded in the session's journal and shown as one
//! line. Both hosts take the rules and their reasons from here.

use crate::matching::event::Query;
use crate::matching::explain::{explain, Reason};
use crate::matching::project::Project;
use crate::render::index_entry::is_index_name;
use crate::render::prefix::Trigger;
use crate::rules::instructions;

/// Each delivered rule (in delivery order) with why the event selected it,
/// in the reasons `explain` gives; the entries a host adds on its own
/// (instruction files, the index, a nested folder's rules for a read) get
/// theirs from the selection's trigger.
pub(crate) fn reasons_of<S: AsRef<str>>(
    project: &Project,
    query: &Query<'_>,
    trigger: &Trigger,
    delivered: &[S],
) -> Vec<(String, Vec<Reason>)> {
    // Matching is cheap beside the delivery it explains, and `explain` is
    // the one place reasons are found.
    let explanation = explain(&project.index, query);
    delivered
        .iter()
        .map(|name| {
            let name = name.as_ref();
            let fired = explanation.rules.iter().find(|fired| fired.name == name);
            let reasons = match fired {
                Some(fired) if !fired.reasons.is_empty() => fired.reasons.clone(),
                // Fired on its conditions alone.
                Some(fired) if !fired.conditions.is_empty() => vec![Reason::Conditions {
                    conditions: fired.conditions.clone(),
                }],
                _ => own_reason(name, trigger),
            };
            (name.to_string(), reasons)
        })
        .collect()
}

/// Why a host added `name` itself.
fn own_reason(name: &str, trigger: &Trigger) -> Vec<Reason> {
    if instructions::delivered_path(name).is_some() {
        return vec![Reason::Instructions];
    }
    if is_index_name(name) {
        return vec![Reason::Index];
    }
    match trigger {
        Trigger::Read { below, .. } => below
            .iter()
            .filter(|read| read.rules.iter().any(|rule| rule == name))
            .map(|read| Reason::ReadBelow {
                path: read.path.clone(),
            })
            .take(1)
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;
    use crate::delivery::selection::select;
    use crate::matching::event::Event;
    use crate::matching::facts::Facts;

    fn project() -> Project {
        let fs = MemoryFs::from_files(
            "/p",
            [
                (
                    ".cursor/rules/ui/components.mdc",
                    "---\npromptAnyOf: button\n---\nUI",
                ),
                (".cursor/rules/testing.mdc", "---\nglobs: *.test.ts\n---\nT"),
                (".cursor/rules/base.mdc", "---\nalwaysApply: true\n---\nB"),
            ],
        );
        Project::load(&fs, "/p").unwrap()
    }

    #[test]
    fn a_prompt_and_an_edit_give_their_reasons() {
        let project = project();
        let facts = Facts::default();
        let prompt = Event::prompt("make the button blue");
        let query = Query::new(&prompt, &facts);
        let selection = select(&project, &query);
        let reasons = reasons_of(&project, &query, &selection.trigger, &selection.rules);
        assert_eq!(
            reasons,
            vec![
                ("base.mdc".to_string(), vec![Reason::AlwaysApply]),
                (
                    "ui/components.mdc".to_string(),
                    vec![Reason::Keywords {
                        keywords: vec!["button".into()]
                    }]
                ),
            ]
        );
        let edit = Event::edit(&["src/a.test.ts"]);
        let query = Query::new(&edit, &facts);
        let selection = select(&project, &query);
        let reasons = reasons_of(&project, &query, &selection.trigger, &selection.rules);
        assert_eq!(
            reasons,
            vec![(
                "testing.mdc".to_string(),
                vec![Reason::Glob {
                    glob: "*.test.ts".into(),
                    path: "src/a.test.ts".into()
                }]
            )]
        );
    }

    #[test]
    fn a_rule_on_its_conditions_alone_is_named_by_them() {
        let fs = MemoryFs::from_files(
            "/p",
            [(
                ".cursor/rules/model.mdc",
                "---\nmodel: [gpt-5.5]\n---\nShort.",
            )],
        );
        let project = Project::load(&fs, "/p").unwrap();
        let facts = Facts {
            model: Some("gpt-5.5".into()),
            ..Facts::default()
        };
        let prompt = Event::prompt("hi");
        let query = Query::new(&prompt, &facts);
        let selection = select(&project, &query);
        let reasons = reasons_of(&project, &query, &selection.trigger, &selection.rules);
        let line = crate::render::labels::delivery_line(&reasons, &[] as &[&str]);
        assert_eq!(line, "Rule Fairy: model.mdc (model gpt-5.5)");
    }

    #[test]
    fn entries_a_host_adds_have_their_own_reason() {
        let project = project();
        let facts = Facts::default();
        let edit = Event::edit(&["src/a.ts"]);
        let query = Query::new(&edit, &facts);
        let trigger = Trigger::Edit {
            path: "src/a.ts".into(),
        };
        let names = [instructions::delivered_name("src/AGENTS.md")];
        assert_eq!(
            reasons_of(&project, &query, &trigger, &names)[0].1,
            vec![Reason::Instructions]
        );
    }
}
