//! Which rules an event selects and why, in the order a delivery would
//! carry them (behaviour §2.6). The `explain` command prints this, in the
//! words of [`crate::matching::describe`].

use serde::{Deserialize, Serialize};

use crate::base::error::Error;
use crate::matching::conditions::Outcome;
use crate::matching::event::Event;
use crate::matching::event::{EventKind, Query};
use crate::matching::facts::{command_of, Facts};
use crate::matching::index::RuleIndex;
use crate::matching::requests::{MentionHint, Requestable};

/// One reason a rule fired; [`describe`](crate::describe) words it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum Reason {
    /// The rule is always on (`alwaysApply`, or its format's equivalent).
    #[serde(rename = "alwaysApply")]
    AlwaysApply,
    /// The prompt terms that matched: any-of terms, then required terms.
    #[serde(rename = "keyword")]
    Keywords {
        /// The terms as the rule declares them, lower-cased.
        keywords: Vec<String>,
    },
    /// The first glob of the rule, in declaration order, that matched the path.
    #[serde(rename = "glob")]
    Glob {
        /// The glob, normalised for matching.
        glob: String,
        /// The path it matched, project-relative and normalised.
        path: String,
    },
    /// The first `fileContains` pattern that matched the path's content.
    #[serde(rename = "fileContains")]
    FileContains {
        /// The pattern as the rule declares it.
        pattern: String,
        /// The path whose content matched.
        path: String,
    },
    /// The prompt mentioned the rule by name (behaviour §9.3).
    #[serde(rename = "mention")]
    Mention {
        /// The mentions naming it, with their `@`.
        mentions: Vec<String>,
    },
    /// The agent read the requestable rule's file (behaviour §9.2).
    #[serde(rename = "read")]
    Read {
        /// The file read, project-relative.
        path: String,
    },
    /// The agent read a file below a nested folder whose always-on rules
    /// these are (behaviour §1.2).
    #[serde(rename = "readBelow")]
    ReadBelow {
        /// The file read, project-relative.
        path: String,
    },
    /// An instruction file the host did not load for the paths the event
    /// touched (behaviour §5.2.2, §5.3); a delivery names no other reason.
    #[serde(rename = "instructions")]
    Instructions,
    /// The index of requestable rules, which comes with the prompts
    /// (behaviour §9.2).
    #[serde(rename = "index")]
    Index,
    /// A rule with no trigger but its conditions, on whenever they hold
    /// (behaviour §2.4): the conditions, each held. A delivery names this
    /// when the rule fired for nothing else.
    #[serde(rename = "conditions")]
    Conditions {
        /// The conditions it declares, as [`FiredRule::conditions`].
        conditions: Vec<Outcome>,
    },
}

/// One rule the event selects, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct FiredRule {
    /// The rule's name, relative to its rules directory.
    pub name: String,
    /// What made it fire: always-on and keywords for a prompt; for a path
    /// event its glob hits, then its `fileContains` hits.
    pub reasons: Vec<Reason>,
    /// Every other condition the rule declares (command, project, os, ci,
    /// branch, model, agent, tools): what it wanted, what the fact was, and
    /// whether it held.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub conditions: Vec<Outcome>,
    /// `"ephemeral"` for rules on per-turn facts, delivered every turn they
    /// hold and never recorded; absent for durable rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", tsify(type = "\"ephemeral\""))]
    pub delivery: Option<&'static str>,
}

/// What [`explain`] says about one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The kind of event explained.
    pub event: EventKind,
    /// The rules it selects, in delivery order.
    pub rules: Vec<FiredRule>,
    /// The requestable rules the index offers with a prompt (behaviour
    /// §9.2), in name order; empty for other events.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requestable: Vec<Requestable>,
    /// Mentions in the prompt that name no one rule: ambiguous ones, and
    /// unknown ones that look like rule names (behaviour §9.3).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<MentionHint>,
    /// Problems the event ran into (an invalid glob it reached); the rules
    /// listed still fired.
    #[serde(skip)]
    pub errors: Vec<Error>,
}

fn fired(
    index: &RuleIndex,
    name: String,
    reasons: Vec<Reason>,
    durable: bool,
    facts: &Facts,
    command: Option<&str>,
) -> FiredRule {
    let conditions = index
        .conditions_of(&name)
        .map(|c| c.fact_outcomes(facts, command))
        .unwrap_or_default();
    FiredRule {
        name,
        reasons,
        conditions,
        delivery: (!durable).then_some("ephemeral"),
    }
}

/// The rules an event selects and why, in the order of
/// [`crate::delivery::selection::select`]: a prompt's always-on and keyword
/// matches in name order; paths in the event's order, each path's rules in
/// name order, each rule once with every path that reached it.
pub fn explain(index: &RuleIndex, query: &Query<'_>) -> Explanation {
    let facts = query.facts;
    let event = query.event.kind();
    if let Event::Read { paths } = query.event {
        let rules = index
            .requests()
            .read(paths)
            .into_iter()
            .map(|(rule, path)| {
                fired(
                    index,
                    rule.name.clone(),
                    vec![Reason::Read { path }],
                    true,
                    facts,
                    None,
                )
            })
            .collect();
        return Explanation {
            event,
            rules,
            requestable: Vec::new(),
            hints: Vec::new(),
            errors: Vec::new(),
        };
    }
    if let Some(prompt) = query.event.prompt_text() {
        let command = facts.command.clone().or_else(|| command_of(prompt));
        let rules = index
            .match_prompt_with(prompt, facts)
            .into_iter()
            .map(|m| {
                let mut reasons = Vec::new();
                if m.always_apply {
                    reasons.push(Reason::AlwaysApply);
                }
                if !m.keywords.is_empty() {
                    reasons.push(Reason::Keywords {
                        keywords: m.keywords,
                    });
                }
                if !m.mentions.is_empty() {
                    reasons.push(Reason::Mention {
                        mentions: m.mentions,
                    });
                }
                fired(index, m.name, reasons, m.durable, facts, command.as_deref())
            })
            .collect();
        return Explanation {
            event,
            rules,
            requestable: index.requests().listed().to_vec(),
            hints: index.requests().mentioned(prompt).hints,
            errors: Vec::new(),
        };
    }
    let paths = query.event.matched_paths();
    let matches = index.match_paths_with(&paths, facts, query.contents);
    let rules = matches
        .rules
        .into_iter()
        .map(|m| {
            let globs = m.hits.into_iter().map(|hit| Reason::Glob {
                glob: hit.glob,
                path: hit.path,
            });
            let contents = m.contents.into_iter().map(|hit| Reason::FileContains {
                pattern: hit.pattern,
                path: hit.path,
            });
            fired(
                index,
                m.name,
                globs.chain(contents).collect(),
                m.durable,
                facts,
                facts.command.as_deref(),
            )
        })
        .collect();
    Explanation {
        event,
        rules,
        requestable: Vec::new(),
        hints: Vec::new(),
        errors: matches.errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::event::Event;
    use crate::rules::rule::Rule;

    #[test]
    fn reasons_serialise_as_the_cli_promises() {
        let rules = vec![
            Rule::parse(
                "a.mdc",
                "/p/a.mdc",
                "---\nalwaysApply: true\npromptAnyOf: widget\nglobs: src/**\n---\n",
            ),
            Rule::parse("b.mdc", "/p/b.mdc", "---\nglobs: *.ts\n---\n"),
        ];
        let index = RuleIndex::build(&rules);
        let facts = Facts::default();
        let explain_event = |event: Event| explain(&index, &Query::new(&event, &facts));
        let prompt = serde_json::to_value(explain_event(Event::prompt("a widget"))).unwrap();
        assert_eq!(
            prompt,
            serde_json::json!({"event": "prompt", "rules": [
                {"name": "a.mdc", "reasons": [{"kind": "alwaysApply"}, {"kind": "keyword", "keywords": ["widget"]}]}
            ]})
        );
        let edit = serde_json::to_value(explain_event(Event::edit(&["src/x.ts"]))).unwrap();
        assert_eq!(
            edit,
            serde_json::json!({"event": "edit", "rules": [
                {"name": "a.mdc", "reasons": [{"kind": "glob", "glob": "src/**", "path": "src/x.ts"}]},
                {"name": "b.mdc", "reasons": [{"kind": "glob", "glob": "*.ts", "path": "src/x.ts"}]}
            ]})
        );
    }
}
