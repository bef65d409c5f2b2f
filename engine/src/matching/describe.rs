//! "Why this rule fired", in words: one reason or one condition's outcome
//! as `rule-fairy explain` prints it and the playground shows it, and
//! "why this rule did not fire" as `explain --why-not` prints it. Both
//! take the words from here, so they never drift apart.

use crate::matching::conditions::Outcome;
use crate::matching::event::EventKind;
use crate::matching::explain::Reason;
use crate::matching::find_rule::NoRule;
use crate::matching::held_back::{Delivery, HoldReason};
use crate::matching::why_not::{Check, ContentOutcome, GlobOutcome, RuleKind, Term, WhyNot};

/// One reason a rule fired: `alwaysApply`, `keyword "a", "b"`,
/// ``glob `src/**` on src/x.ts``, ``fileContains `TODO` in src/x.ts``.
///
/// ```
/// use rule_fairy_engine::describe;
/// use rule_fairy_engine::Reason;
/// let reason = Reason::Glob { glob: "src/**".into(), path: "src/x.ts".into() };
/// assert_eq!(describe(&reason), "glob `src/**` on src/x.ts");
/// ```
pub fn describe(reason: &Reason) -> String {
    match reason {
        Reason::AlwaysApply => "alwaysApply".to_string(),
        Reason::Keywords { keywords } => {
            let quoted: Vec<String> = keywords.iter().map(|k| format!("\"{k}\"")).collect();
            format!("keyword {}", quoted.join(", "))
        }
        Reason::Glob { glob, path } => format!("glob `{glob}` on {path}"),
        Reason::FileContains { pattern, path } => format!("fileContains `{pattern}` in {path}"),
        Reason::Mention { mentions } => format!("mention {}", mentions.join(", ")),
        Reason::Read { path } => format!("requested by reading {path}"),
        Reason::ReadBelow { path } => format!("nested, {path} was read below it"),
        Reason::Instructions => "an instruction file the host did not load".to_string(),
        Reason::Index => "the index of requestable rules".to_string(),
        Reason::Conditions { conditions } => {
            let words: Vec<String> = conditions.iter().map(describe_condition).collect();
            format!("its conditions: {}", words.join("; "))
        }
    }
}

/// One reason in the few words of the person's line for a delivery
/// (behaviour §10.1): `always on`, `keyword "button"`, `glob *.test.ts`,
/// `fileContains TODO`, `mention @ops/deploy`, `read`, `read below
/// src/ui/x.ts`, `instructions`, `model gpt-5.5` (a rule on its conditions
/// alone), and nothing for the index, whose name says what it is.
///
/// ```
/// use rule_fairy_engine::describe_briefly;
/// use rule_fairy_engine::Reason;
/// let reason = Reason::Glob { glob: "*.test.ts".into(), path: "src/a.test.ts".into() };
/// assert_eq!(describe_briefly(&reason).as_deref(), Some("glob *.test.ts"));
/// ```
pub fn describe_briefly(reason: &Reason) -> Option<String> {
    let words = match reason {
        Reason::AlwaysApply => "always on".to_string(),
        Reason::Keywords { keywords } => {
            let quoted: Vec<String> = keywords.iter().map(|k| format!("\"{k}\"")).collect();
            format!("keyword {}", quoted.join(", "))
        }
        Reason::Glob { glob, .. } => format!("glob {glob}"),
        Reason::FileContains { pattern, .. } => format!("fileContains {pattern}"),
        Reason::Mention { mentions } => format!("mention {}", mentions.join(", ")),
        Reason::Read { .. } => "read".to_string(),
        Reason::ReadBelow { path } => format!("read below {path}"),
        Reason::Instructions => "instructions".to_string(),
        Reason::Index => return None,
        Reason::Conditions { conditions } => {
            let words: Vec<String> = conditions
                .iter()
                .map(|c| format!("{} {}", dimension_name(c), c.wanted.join(", ")))
                .collect();
            words.join(", ")
        }
    };
    Some(words)
}

/// One other condition: its kind, what it wanted, held (✓) or failed (✗),
/// and the fact it was tested on (`unknown` when the host could not tell):
/// `branch release/* ✓ (release/2.4)`.
pub fn describe_condition(outcome: &Outcome) -> String {
    let actual = match &outcome.actual {
        Some(values) if !values.is_empty() => values.join(", "),
        _ => "unknown".to_string(),
    };
    let mark = if outcome.held { "✓" } else { "✗" };
    let kind = dimension_name(outcome);
    format!("{kind} {} {mark} ({actual})", outcome.wanted.join(", "))
}

/// The condition's kind as the JSON of `explain --json` names it.
fn dimension_name(outcome: &Outcome) -> String {
    serde_json::to_value(outcome.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn mark(held: bool) -> &'static str {
    if held {
        "✓"
    } else {
        "✗"
    }
}

fn quoted(terms: &[Term]) -> String {
    let quoted: Vec<String> = terms.iter().map(|t| format!("\"{}\"", t.term)).collect();
    quoted.join(", ")
}

/// One condition `--why-not` judged, as [`describe_condition`] words a
/// fact: its kind, what it wanted, held (✓) or failed (✗), and what the
/// event had: ``glob `src/**` ✗ (src/api/a.ts)``,
/// `keyword any of "a", "b"; all of "c" ✗ (found "a"; missing "c")`.
pub fn describe_check(check: &Check) -> String {
    match check {
        Check::AlwaysApply { held, at_prompt } => {
            let why = match at_prompt {
                true => "every prompt",
                false => "tested at prompts, not at path events: behaviour §2.3",
            };
            format!("alwaysApply {} ({why})", mark(*held))
        }
        Check::Keywords {
            any_of,
            requires,
            held,
            at_prompt,
        } => {
            let mut wanted = format!("any of {}", quoted(any_of));
            if !requires.is_empty() {
                wanted.push_str(&format!("; all of {}", quoted(requires)));
            }
            let actual = if *at_prompt {
                let all: Vec<Term> = any_of.iter().chain(requires).cloned().collect();
                let (found, missing): (Vec<Term>, Vec<Term>) =
                    all.into_iter().partition(|t| t.found);
                match (found.is_empty(), missing.is_empty()) {
                    (true, _) => "found none".to_string(),
                    (false, true) => format!("found {}", quoted(&found)),
                    (false, false) => {
                        format!("found {}; missing {}", quoted(&found), quoted(&missing))
                    }
                }
            } else {
                "tested at prompts, not at path events: behaviour §2.4".to_string()
            };
            format!("keyword {wanted} {} ({actual})", mark(*held))
        }
        Check::Glob {
            glob,
            path,
            outcome,
            held,
            error,
        } => {
            let path = path.as_deref().unwrap_or_default();
            let actual = match outcome {
                GlobOutcome::Matched | GlobOutcome::Missed => path.to_string(),
                GlobOutcome::NoPath => "no path at a prompt".to_string(),
                GlobOutcome::Invalid => format!("invalid: {}", error.as_deref().unwrap_or("")),
                GlobOutcome::AfterInvalid => {
                    format!("{path} matches, but the invalid glob before it is reached first: behaviour §2.2")
                }
            };
            format!("glob `{glob}` {} ({actual})", mark(*held))
        }
        Check::FileContains {
            pattern,
            path,
            outcome,
            held,
            error,
        } => {
            let path = path.as_deref().unwrap_or_default();
            let actual = match outcome {
                ContentOutcome::Found => format!("found in {path}"),
                ContentOutcome::NotFound => format!("not found in {path}"),
                ContentOutcome::Unreadable => format!("{path} could not be read"),
                ContentOutcome::NotRead => format!("the content of {path} was not given"),
                ContentOutcome::NoPath => "no file at a prompt".to_string(),
                ContentOutcome::Invalid => format!("invalid: {}", error.as_deref().unwrap_or("")),
            };
            format!("fileContains `{pattern}` {} ({actual})", mark(*held))
        }
        Check::Read { file, held } => {
            let actual = match held {
                true => "read",
                false => "not read",
            };
            format!("read {file} {} ({actual})", mark(*held))
        }
        Check::Fact(outcome) => describe_condition(outcome),
    }
}

/// The event, as a heading names it.
fn subject(why: &WhyNot) -> String {
    let paths: Vec<&str> = why
        .paths
        .iter()
        .map(|p| p.given.as_deref().unwrap_or(&p.path))
        .collect();
    match (why.event, paths.as_slice()) {
        (EventKind::Prompt, _) => "this prompt".to_string(),
        (EventKind::SessionStart, _) => "a session start".to_string(),
        (EventKind::Read, _) => "this read".to_string(),
        (EventKind::Shell, _) => "this shell change".to_string(),
        (EventKind::Edit, [one]) => format!("editing {one}"),
        (EventKind::Edit, more) => format!("editing these {} paths", more.len()),
    }
}

fn kind_words(why: &WhyNot) -> String {
    match why.kind {
        RuleKind::AlwaysOn => {
            "always on: every prompt selects it (behaviour §2.4), a path event does not (§2.3)"
                .to_string()
        }
        RuleKind::AlwaysOnBelow => format!(
            "always on below {}: an edit or read of a path below it selects it, a prompt does not (behaviour §1.2)",
            why.base.as_deref().unwrap_or_default()
        ),
        RuleKind::Requestable => format!(
            "agent-requested: the index offers it with its description (\"{}\"), and the model reads {} to get it (behaviour §9.2)",
            why.description.as_deref().unwrap_or_default(),
            why.file
        ),
        RuleKind::Manual => format!(
            "manual: it declares no trigger, so only a prompt mentioning it ({}) selects it (behaviour §9.3)",
            why.mention
        ),
        RuleKind::Conditional => {
            "conditional: its conditions decide (behaviour §2.4)".to_string()
        }
    }
}

fn verdict(why: &WhyNot) -> String {
    if why.fires && !why.mentioned.is_empty() && !why.conditions_hold {
        return format!(
            "verdict: fires: the prompt mentions it ({}), which selects it whatever its conditions (behaviour §9.3)",
            why.mentioned.join(", ")
        );
    }
    if why.fires {
        return "verdict: fires".to_string();
    }
    let because = match why.event {
        EventKind::Edit | EventKind::Shell if why.paths.iter().all(|p| p.outside) => {
            "the event names no path in the project"
        }
        EventKind::Edit | EventKind::Shell if why.paths.iter().all(|p| !p.reached) => {
            "no glob or fileContains of it held for any path, and a path event selects a rule only for a path one reached (behaviour §2.4)"
        }
        _ if why.checks.is_empty() => "it declares no condition",
        _ => "its conditions do not combine to true",
    };
    format!("verdict: does not fire: {because}")
}

fn delivery_words(delivery: &Delivery) -> String {
    if delivery.ephemeral {
        return "delivery: ephemeral (a per-turn fact): delivered every turn it holds, never held back (behaviour §2.4)".to_string();
    }
    let Some(session) = &delivery.session else {
        return "delivery: durable: once it fires it is delivered once per session; Claude Code then holds it back while the conversation holds it or for a minute after the delivery (behaviour §5.2.2), Codex until a compaction (§5.3)".to_string();
    };
    let ago = session
        .ago_ms
        .map(|ms| format!("delivered {} s ago", ms / 1000))
        .unwrap_or_default();
    let words = match session.reason {
        HoldReason::Ephemeral => "never held back".to_string(),
        HoldReason::NeverDelivered => "not held back: never delivered in this session".to_string(),
        HoldReason::InConversation => {
            "held back: the conversation still holds its delivery (behaviour §5.2.2)".to_string()
        }
        HoldReason::DeliveredRecently => {
            format!("held back: {ago}, less than a minute (behaviour §5.2.2)")
        }
        HoldReason::DueAgain if session.ago_ms.is_some() => format!(
            "not held back: {ago}, and the conversation no longer holds it (behaviour §5.2.2)"
        ),
        HoldReason::DueAgain => {
            "not held back: due again since its delivery (behaviour §5.3)".to_string()
        }
        HoldReason::Delivered => {
            "held back: delivered in this session and not due again (behaviour §5.3)".to_string()
        }
    };
    format!("delivery: durable: {words}")
}

/// How the rule could come when it does not.
fn to_fire(why: &WhyNot) -> String {
    let mention = format!(
        "a prompt mentioning {} selects it whatever its conditions (behaviour §9.3)",
        why.mention
    );
    match why.kind {
        RuleKind::Manual => format!("to fire: {mention}"),
        RuleKind::Requestable => format!("to fire: the model reads {}, or {mention}", why.file),
        RuleKind::AlwaysOn if why.event != EventKind::Prompt => {
            format!("to fire: a prompt, or {mention}")
        }
        _ => format!("to fire: the conditions marked ✗ must hold; or {mention}"),
    }
}

/// `explain --why-not` in words: a heading with the verdict, then the
/// rule's kind, how its conditions combine, each condition judged (one a
/// line, ✓ or ✗), each path's verdict, the verdict, and what a delivery
/// record does with the rule. The lines after the heading are indented.
pub fn describe_why_not(why: &WhyNot) -> Vec<String> {
    let fires = match why.fires {
        true => "fires",
        false => "does not fire",
    };
    let mut lines = vec![format!("{} for {}: {fires}", why.name, subject(why))];
    let mut line = |text: String| lines.push(format!("  {text}"));
    line(format!("rule {}: {}", why.file, kind_words(why)));
    let inside: Vec<&str> = why
        .paths
        .iter()
        .filter(|p| !p.outside)
        .map(|p| p.path.as_str())
        .collect();
    if !inside.is_empty() {
        line(format!(
            "paths as globs see them, project-relative: {} (behaviour §2.1, §5.6)",
            inside.join(", ")
        ));
    }
    if !why.checks.is_empty() {
        line(match why.match_all {
            true => "match all: every condition below must hold".to_string(),
            false => {
                "match any (the default): one condition below that holds is enough".to_string()
            }
        });
    }
    for check in &why.checks {
        line(describe_check(check));
    }
    let several = why.paths.len() > 1;
    for path in &why.paths {
        let shown = match &path.given {
            Some(given) if !path.outside => format!("{} (given as {given})", path.path),
            _ => path.path.clone(),
        };
        if path.outside {
            line(format!(
                "{}: outside the project, so no rule matches it (behaviour §0.1)",
                path.given.as_deref().unwrap_or(&path.path)
            ));
        } else if several || path.given.is_some() {
            let fires = match (path.fires, path.reached) {
                (true, _) => "fires",
                (false, true) => "does not fire: its conditions do not combine to true",
                (false, false) => "does not fire: no glob or fileContains of it held",
            };
            line(format!("on {shown}: {fires}"));
        }
    }
    line(verdict(why));
    line(delivery_words(&why.delivery));
    if !why.fires {
        line(to_fire(why));
    }
    lines
}

/// Why no rule answers to a name, in words: `no rule is named x; did you
/// mean a.mdc?`, or the broken rule's file, line and problem.
pub fn describe_no_rule(no: &NoRule) -> String {
    match no {
        NoRule::Unknown { name, nearest } if nearest.is_empty() => {
            format!("no rule is named {name}")
        }
        NoRule::Unknown { name, nearest } => {
            format!(
                "no rule is named {name}; did you mean {}?",
                nearest.join(", ")
            )
        }
        NoRule::Ambiguous { name, candidates } => format!(
            "{name} could mean {}; write more of its path",
            candidates.join(", ")
        ),
        NoRule::Broken {
            name,
            place,
            message,
        } => format!(
            "{name} is broken, so it never fires: {place}: {message} (fix it, then ask again)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;
    use crate::matching::conditions::Dimension;
    use crate::matching::event::{Event, Query};
    use crate::matching::facts::Facts;
    use crate::matching::project::Project;
    use crate::matching::why_not::why_not;

    #[test]
    fn reasons_and_conditions_in_words() {
        assert_eq!(describe(&Reason::AlwaysApply), "alwaysApply");
        let keywords = Reason::Keywords {
            keywords: vec!["a".into(), "b c".into()],
        };
        assert_eq!(describe(&keywords), "keyword \"a\", \"b c\"");
        let contains = Reason::FileContains {
            pattern: "TODO".into(),
            path: "src/x.ts".into(),
        };
        assert_eq!(describe(&contains), "fileContains `TODO` in src/x.ts");
        let mention = Reason::Mention {
            mentions: vec!["@a".into(), "@ops/a".into()],
        };
        assert_eq!(describe(&mention), "mention @a, @ops/a");
        let read = Reason::Read {
            path: ".cursor/rules/a.mdc".into(),
        };
        assert_eq!(describe(&read), "requested by reading .cursor/rules/a.mdc");
        let branch = Outcome {
            kind: Dimension::Branch,
            held: true,
            wanted: vec!["release/*".into()],
            actual: Some(vec!["release/2.4".into()]),
        };
        assert_eq!(
            describe_condition(&branch),
            "branch release/* ✓ (release/2.4)"
        );
        let os = Outcome {
            kind: Dimension::Os,
            held: false,
            wanted: vec!["linux".into(), "macos".into()],
            actual: None,
        };
        assert_eq!(describe_condition(&os), "os linux, macos ✗ (unknown)");
    }

    fn why(rules: &[(&str, &str)], event: Event, facts: &Facts, rule: &str) -> Vec<String> {
        let mut fs = MemoryFs::new();
        for (name, text) in rules {
            fs.add_file(&format!("/p/.cursor/rules/{name}"), text);
        }
        let project = Project::load(&fs, "/p").unwrap();
        let query = Query::new(&event, facts);
        describe_why_not(&why_not(&project, &query, rule, None).unwrap())
    }

    #[test]
    fn why_not_in_words_one_line_a_condition() {
        let rules = [(
            "ui.mdc",
            "---\nglobs: src/ui/**\npromptAnyOf: button, widget\npromptRequires: ui\nos: linux\nmatch: all\n---\n# UI",
        )];
        let facts = Facts {
            os: Some("darwin".into()),
            ..Facts::default()
        };
        assert_eq!(
            why(&rules, Event::prompt("a Button"), &facts, "ui.mdc"),
            vec![
                "ui.mdc for this prompt: does not fire",
                "  rule .cursor/rules/ui.mdc: conditional: its conditions decide (behaviour §2.4)",
                "  match all: every condition below must hold",
                "  keyword any of \"button\", \"widget\"; all of \"ui\" ✗ (found \"button\"; missing \"widget\", \"ui\")",
                "  glob `src/ui/**` ✗ (no path at a prompt)",
                "  os linux ✗ (darwin)",
                "  verdict: does not fire: its conditions do not combine to true",
                "  delivery: durable: once it fires it is delivered once per session; Claude Code then holds it back while the conversation holds it or for a minute after the delivery (behaviour §5.2.2), Codex until a compaction (§5.3)",
                "  to fire: the conditions marked ✗ must hold; or a prompt mentioning @ui selects it whatever its conditions (behaviour §9.3)",
            ]
        );
        let edit = why(
            &rules,
            Event::edit(&["./src/api/a.ts", "../x"]),
            &facts,
            "ui",
        );
        assert_eq!(edit[0], "ui.mdc for editing these 2 paths: does not fire");
        assert!(edit.contains(&"  keyword any of \"button\", \"widget\"; all of \"ui\" ✗ (tested at prompts, not at path events: behaviour §2.4)".to_string()), "{edit:#?}");
        assert!(
            edit.contains(&"  glob `src/ui/**` ✗ (src/api/a.ts)".to_string()),
            "{edit:#?}"
        );
        assert!(edit.contains(&"  on src/api/a.ts (given as ./src/api/a.ts): does not fire: no glob or fileContains of it held".to_string()), "{edit:#?}");
        assert!(
            edit.contains(
                &"  ../x: outside the project, so no rule matches it (behaviour §0.1)".to_string()
            ),
            "{edit:#?}"
        );
    }

    #[test]
    fn a_manual_rule_and_a_mention_in_words() {
        let rules = [("ops/release.mdc", "# Release")];
        let facts = Facts::default();
        let manual = why(&rules, Event::prompt("ship"), &facts, "ops/release.mdc");
        assert_eq!(
            manual[1..],
            [
                "  rule .cursor/rules/ops/release.mdc: manual: it declares no trigger, so only a prompt mentioning it (@release) selects it (behaviour §9.3)",
                "  verdict: does not fire: it declares no condition",
                "  delivery: durable: once it fires it is delivered once per session; Claude Code then holds it back while the conversation holds it or for a minute after the delivery (behaviour §5.2.2), Codex until a compaction (§5.3)",
                "  to fire: a prompt mentioning @release selects it whatever its conditions (behaviour §9.3)",
            ]
        );
        let mentioned = why(&rules, Event::prompt("ship @release"), &facts, "release");
        assert_eq!(mentioned[2], "  verdict: fires: the prompt mentions it (@release), which selects it whatever its conditions (behaviour §9.3)");
        assert_eq!(
            describe_no_rule(&NoRule::Unknown {
                name: "relase".into(),
                nearest: vec!["ops/release.mdc".into()]
            }),
            "no rule is named relase; did you mean ops/release.mdc?"
        );
    }

    #[test]
    fn what_a_delivery_record_does_in_words() {
        use crate::matching::held_back::{delivery, HeldBy};
        let claude = |delivered_at, in_conversation| {
            delivery_words(&delivery(
                false,
                Some(&HeldBy::Claude {
                    delivered_at,
                    in_conversation,
                    now: 100_000,
                }),
            ))
        };
        assert_eq!(
            claude(Some(70_000), false),
            "delivery: durable: held back: delivered 30 s ago, less than a minute (behaviour §5.2.2)"
        );
        assert_eq!(
            claude(Some(10_000), true),
            "delivery: durable: held back: the conversation still holds its delivery (behaviour §5.2.2)"
        );
        assert_eq!(
            claude(Some(10_000), false),
            "delivery: durable: not held back: delivered 90 s ago, and the conversation no longer holds it (behaviour §5.2.2)"
        );
        let codex = delivery(
            false,
            Some(&HeldBy::Codex {
                delivered: true,
                due_again: true,
            }),
        );
        assert_eq!(
            delivery_words(&codex),
            "delivery: durable: not held back: due again since its delivery (behaviour §5.3)"
        );
        assert!(delivery_words(&delivery(true, None)).starts_with("delivery: ephemeral"));
    }
}
