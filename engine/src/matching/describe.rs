//! "Why this rule fired", in words: one reason or one condition's outcome
//! as `rule-fairy explain` prints it and the playground shows it. Both take
//! the words from here, so they never drift apart.

use crate::matching::conditions::Outcome;
use crate::matching::explain::Reason;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::conditions::Dimension;

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
}
