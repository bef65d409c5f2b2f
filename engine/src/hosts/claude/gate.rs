//! The gate at the write in Claude Code: after an edit, the mod runs
//! `rule-fairy gate check --json` on the written file and hands the run to
//! [`gate_answer`], which says what to attach, what to log and what to
//! save. Findings come every time; a check that could not run is told once
//! per session (until the problem changes) and never holds the write back.
//! The check also says the program's version, and a program of another
//! version than the plugin's is told once per session (behaviour §10.5).

use serde::Serialize;

use crate::hosts::claude::state::SessionState;
use crate::hosts::gate_check::{tell_once, GateRun};
use crate::hosts::version::{version_mismatch, PluginHost, VERSION};
use crate::render::labels::gate_unavailable;

/// What the mod does with one check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct GateAnswer {
    /// The context entry to attach after the edit's rules.
    pub entry: Option<String>,
    /// The lines for the transcript, in order.
    pub log: Vec<String>,
    /// The session state to save; `None` when it stays as it is.
    pub state: Option<String>,
}

/// The answer to a finished check, given the session's saved state.
/// `program_version` is the version the check said it was
/// (`{"programVersion": ...}`), `None` when it said none (it did not run,
/// or the program is older than this report), and `program_path` where it
/// said it runs from; the version is compared with this engine's, which is
/// the plugin's.
pub fn gate_answer(
    saved: &str,
    run: GateRun,
    program_version: Option<&str>,
    program_path: Option<&str>,
    now_ms: i64,
) -> GateAnswer {
    let mismatch = program_version
        .and_then(|program| version_mismatch(PluginHost::Claude, VERSION, program, program_path));
    let (entry, problem) = match run {
        GateRun::Clean => (None, None),
        GateRun::Found(entry) => (Some(entry), None),
        GateRun::Failed(problem) => (None, Some(problem)),
    };
    if problem.is_none() && mismatch.is_none() {
        return GateAnswer {
            entry,
            ..GateAnswer::default()
        };
    }
    // A state that does not parse is the delivery's to report and replace;
    // the problem is told now and recorded with the next good state.
    let (mut state, parsed) = match SessionState::parse(saved) {
        Ok(state) => (state, true),
        Err(_) => (SessionState::default(), false),
    };
    let mut answer = GateAnswer {
        entry,
        ..GateAnswer::default()
    };
    if let Some(problem) = problem {
        if tell_once(&mut state.gate_problem, &problem) {
            answer.entry = Some(gate_unavailable(&problem));
            answer.log.push(format!(
                "rule-fairy: the gate could not check the written files: {problem}"
            ));
        }
    }
    if let Some(line) = mismatch {
        if tell_once(&mut state.version_problem, &line) {
            answer.log.push(format!("rule-fairy: {line}"));
        }
    }
    if answer.log.is_empty() {
        return answer;
    }
    state.journal.record_problems(now_ms, &answer.log);
    answer.state = parsed.then(|| state.to_json(now_ms));
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_every_time_a_problem_once() {
        let found = gate_answer(
            "",
            GateRun::Found("[rule-fairy gate: 1 finding]".into()),
            None,
            None,
            5,
        );
        assert_eq!(found.entry.as_deref(), Some("[rule-fairy gate: 1 finding]"));
        assert_eq!(found.state, None, "findings record nothing");
        assert_eq!(
            gate_answer("", GateRun::Clean, None, None, 5),
            GateAnswer::default()
        );

        let first = gate_answer(
            "",
            GateRun::Failed("bad.yml:1: broken".into()),
            None,
            None,
            5,
        );
        assert_eq!(
            first.entry.as_deref(),
            Some(gate_unavailable("bad.yml:1: broken").as_str())
        );
        assert_eq!(
            first.log,
            vec!["rule-fairy: the gate could not check the written files: bad.yml:1: broken"]
        );
        let saved = first.state.expect("told is recorded");
        assert_eq!(
            SessionState::parse(&saved).unwrap().gate_problem.as_deref(),
            Some("bad.yml:1: broken")
        );
        let again = gate_answer(
            &saved,
            GateRun::Failed("bad.yml:1: broken".into()),
            None,
            None,
            6,
        );
        assert_eq!(again, GateAnswer::default());
        let other = gate_answer(&saved, GateRun::Failed("other".into()), None, None, 7);
        assert!(other.entry.unwrap().contains("other"));
    }

    #[test]
    fn a_corrupt_state_is_left_for_the_delivery_to_report() {
        let answer = gate_answer("{not json", GateRun::Failed("broken".into()), None, None, 5);
        assert!(answer.entry.is_some());
        assert_eq!(answer.state, None);
    }

    #[test]
    fn a_program_of_another_version_is_told_once_per_session() {
        let told = version_mismatch(PluginHost::Claude, VERSION, "0.0.1", None).unwrap();
        let first = gate_answer("", GateRun::Clean, Some("0.0.1"), None, 5);
        assert_eq!(first.entry, None, "the model is not told");
        assert_eq!(first.log, vec![format!("rule-fairy: {told}")]);
        let saved = first.state.expect("told is recorded");
        let state = SessionState::parse(&saved).unwrap();
        assert_eq!(state.version_problem.as_deref(), Some(told.as_str()));
        assert_eq!(
            state.journal.problems[0].text,
            format!("rule-fairy: {told}")
        );
        // Told once, whatever the check found.
        let found = gate_answer(&saved, GateRun::Found("[f]".into()), Some("0.0.1"), None, 6);
        assert_eq!(
            found,
            GateAnswer {
                entry: Some("[f]".into()),
                ..GateAnswer::default()
            }
        );
        // The same version, or none said (an older program): nothing.
        assert_eq!(
            gate_answer("", GateRun::Clean, Some(VERSION), None, 5),
            GateAnswer::default()
        );
        assert_eq!(
            gate_answer("", GateRun::Clean, None, None, 5),
            GateAnswer::default()
        );
        // Where the program said it runs from is named.
        let at = gate_answer(
            "",
            GateRun::Clean,
            Some("0.0.1"),
            Some("/old/rule-fairy"),
            5,
        );
        assert!(
            at.log[0].contains("the rule-fairy program at /old/rule-fairy is 0.0.1"),
            "{at:?}"
        );
        // With a problem of the check too: both lines, the check's first.
        let both = gate_answer("", GateRun::Failed("broken".into()), Some("0.0.1"), None, 5);
        assert_eq!(both.log.len(), 2, "{both:?}");
        assert!(both.log[0].contains("could not check") && both.log[1].contains("0.0.1"));
        assert!(both.entry.unwrap().contains("broken"));
    }
}
