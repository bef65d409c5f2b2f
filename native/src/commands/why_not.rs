//! `rule-fairy explain --why-not RULE`: why one rule does or does not fire
//! for the event the flags name, in the engine's words.

use std::process::ExitCode;

use std::path::Path;

use rule_fairy_engine::status::SessionHost;
use rule_fairy_engine::{
    describe_no_rule, describe_why_not, why_not, HeldBy, NoRule, Project, Query,
};

use super::status::state_text;

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
    // With a session, its record says what it would do; without, the
    // answer states the rule for both hosts.
    let mut answer = why_not(project, &query, rule, None);
    if let (Some(id), Ok(found)) = (&args.session, &answer) {
        // The record names the rule by its name, whatever the person typed.
        let held = held_by(args, root, &found.name, id)?;
        answer = why_not(project, &query, rule, Some(&held));
    }
    match answer {
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

/// What session `id`'s record says of the rule `name`: Claude Code's or
/// Codex's, whichever has the session, or the one `--host` names.
fn held_by(args: &ExplainArgs, root: &str, name: &str, id: &str) -> Result<HeldBy, String> {
    let hosts: Vec<SessionHost> = match args.host {
        Some(host) => vec![host.host()],
        None => SessionHost::ALL.to_vec(),
    };
    let mut found = Vec::new();
    for host in hosts {
        if let Some(text) = state_text(Path::new(root), host, id)? {
            found.push((host, text));
        }
    }
    let (host, text) = match found.len() {
        0 => return Err(format!("no session {id} in {root}/.rule-fairy")),
        1 => found.remove(0),
        _ => {
            return Err(format!(
                "more than one host has a session {id}: say which with --host claude, --host codex or --host opencode"
            ))
        }
    };
    let file = format!(".rule-fairy/{}/{id}.json", host.name());
    let held = if host.keeps_claude_state() {
        rule_fairy_engine::claude::held_by(&text, name, crate::utc::now_ms())
    } else {
        rule_fairy_engine::codex::held_by(&text, name)
    };
    held.map_err(|why| format!("{file} is not a session state: {why}"))
}
