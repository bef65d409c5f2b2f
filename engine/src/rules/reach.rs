//! How a rule that fires on nothing by itself can still reach the model
//! (behaviour §9): a rule with a description and no trigger is
//! *requestable* (Cursor's Agent Requested, Windsurf's `model_decision`):
//! the model is offered its description and asks for it by reading its
//! file. Any rule, requestable or not, comes when a prompt mentions it.

use crate::config::formats::Format;
use crate::rules::conditions::unquote;
use crate::rules::rule::Rule;

/// A rule's description, as its frontmatter writes it (one pair of quotes
/// removed, whitespace folded); `None` when absent or blank.
pub(crate) fn description(rule: &Rule) -> Option<String> {
    let text = rule.frontmatter()?.text("description")?;
    let folded = unquote(text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!folded.is_empty()).then_some(folded)
}

/// Whether a rule fires on some event by itself: always on, globs, prompt
/// terms, or any other declared condition.
pub(crate) fn fires_by_itself(rule: &Rule) -> bool {
    rule.always_apply
        || !rule.globs.is_empty()
        || rule.trigger.is_some()
        || rule.conditions.declares_any()
}

/// Whether the rule's format says a person asks for it by name only, so it
/// is never offered to the model (Windsurf's `trigger: manual`).
fn manual_only(rule: &Rule) -> bool {
    let trigger = || {
        rule.frontmatter()
            .and_then(|fm| fm.text("trigger"))
            .map(|t| unquote(t).to_string())
    };
    match rule.format {
        Format::Windsurf => trigger().as_deref() == Some("manual"),
        _ => false,
    }
}

/// Whether the rule is requestable: a description, nothing that fires it
/// by itself, and no format saying it is for a person to mention only.
/// Its globs may have been declared empty (`globs:` with no value, as
/// Cursor's editor writes an Agent Requested rule).
pub(crate) fn is_requestable(rule: &Rule) -> bool {
    !fires_by_itself(rule) && !manual_only(rule) && description(rule).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cursor(text: &str) -> Rule {
        Rule::parse("r.mdc", "/p/.cursor/rules/r.mdc", text)
    }

    #[test]
    fn cursors_agent_requested_form_is_requestable() {
        // Exactly what Cursor's editor writes for "Agent Requested".
        let rule = cursor(
            "---\ndescription: Steps before a release\nglobs:\nalwaysApply: false\n---\n# R",
        );
        assert!(is_requestable(&rule));
        assert_eq!(
            description(&rule).as_deref(),
            Some("Steps before a release")
        );
        assert_eq!(
            description(&cursor("---\ndescription: \"  quoted   text \"\n---\n")).as_deref(),
            Some("quoted text")
        );
    }

    #[test]
    fn a_trigger_or_no_description_is_not_requestable() {
        for text in [
            "---\ndescription: d\nalwaysApply: true\n---\n",
            "---\ndescription: d\nglobs: src/**\n---\n",
            "---\ndescription: d\npromptAnyOf: x\n---\n",
            "---\ndescription: d\nos: linux\n---\n",
            "---\ndescription:\n---\n",
            "---\nalwaysApply: false\n---\n",
            "# no frontmatter",
        ] {
            assert!(!is_requestable(&cursor(text)), "{text}");
        }
    }

    #[test]
    fn windsurf_model_decision_is_requestable_and_manual_is_not() {
        let windsurf =
            |text: &str| Rule::parse_as(Format::Windsurf, "w.md", "/p/.windsurf/rules/w.md", text);
        assert!(is_requestable(&windsurf(
            "---\ntrigger: model_decision\ndescription: d\n---\n"
        )));
        assert!(!is_requestable(&windsurf(
            "---\ntrigger: manual\ndescription: d\n---\n"
        )));
        // A Claude Code rule without `paths` is always on, never requested.
        let claude = Rule::parse_as(
            Format::Claude,
            "c.md",
            "/p/c.md",
            "---\ndescription: d\n---\n",
        );
        assert!(!is_requestable(&claude));
    }
}
