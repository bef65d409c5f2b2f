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
    }
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
    // The kind as the JSON of `explain --json` names it.
    let kind = serde_json::to_value(outcome.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    format!("{kind} {} {mark} ({actual})", outcome.wanted.join(", "))
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
