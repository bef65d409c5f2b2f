//! `rule-fairy explain --why-not RULE`: why one rule does or does not fire
//! for the event the flags name, in the engine's words.

use std::process::ExitCode;

use rule_fairy_engine::{describe_no_rule, describe_why_not, why_not, NoRule, Project, Query};

use super::explain::event_of;
use crate::ExplainArgs;

/// Exit status for a rule name no rule answers to: a usage error.
const UNKNOWN_RULE: u8 = 2;

pub(crate) fn run(
    args: &ExplainArgs,
    root: &str,
    project: &Project,
    rule: &str,
) -> Result<ExitCode, String> {
    let facts = args.facts.facts(project);
    let (event, contents) = event_of(args, root, project)?;
    let query = Query::new(&event, &facts).with_contents(contents.as_deref());
    // No session is read here: the answer states what a delivery record
    // would do, not what one did.
    match why_not(project, &query, rule, None) {
        Ok(answer) if args.json => {
            let json = serde_json::to_string(&answer).expect("answers serialise");
            crate::output::print_line(&json)?;
            Ok(ExitCode::SUCCESS)
        }
        Ok(answer) => {
            let mut text = describe_why_not(&answer).join("\n");
            text.push('\n');
            crate::output::print(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(problem) => {
            if args.json {
                let json = serde_json::to_string(&problem).expect("problems serialise");
                crate::output::print_line(&json)?;
            }
            crate::output::warn(format_args!("rule-fairy: {}", describe_no_rule(&problem)));
            Ok(match problem {
                NoRule::Broken { .. } => ExitCode::FAILURE,
                NoRule::Unknown { .. } | NoRule::Ambiguous { .. } => ExitCode::from(UNKNOWN_RULE),
            })
        }
    }
}
