//! The gate at the write in Claude Code: after an edit, the mod runs
//! `rule-fairy gate check --json` on the written file and hands the run to
//! [`gate_answer`], which says what to attach, what to log and what to
//! save. Findings come every time; a check that could not run is told once
//! per session (until the problem changes) and never holds the write back.

use serde::Serialize;

use crate::hosts::claude::state::SessionState;
use crate::hosts::gate_check::{tell_once, GateRun};
use crate::render::labels::gate_unavailable;

/// What the mod does with one check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct GateAnswer {
    /// The context entry to attach after the edit's rules.
    pub entry: Option<String>,
    /// A line for the transcript.
    pub log: Option<String>,
    /// The session state to save; `None` when it stays as it is.
    pub state: Option<String>,
}

/// The answer to a finished check, given the session's saved state.
pub fn gate_answer(saved: &str, run: GateRun, now_ms: i64) -> GateAnswer {
    let problem = match run {
        GateRun::Clean => return GateAnswer::default(),
        GateRun::Found(entry) => {
            return GateAnswer {
                entry: Some(entry),
                ..GateAnswer::default()
            }
        }
        GateRun::Failed(problem) => problem,
    };
    // A state that does not parse is the delivery's to report and replace;
    // the problem is told now and recorded with the next good state.
    let (mut state, parsed) = match SessionState::parse(saved) {
        Ok(state) => (state, true),
        Err(_) => (SessionState::default(), false),
    };
    if !tell_once(&mut state.gate_problem, &problem) {
        return GateAnswer::default();
    }
    GateAnswer {
        entry: Some(gate_unavailable(&problem)),
        log: Some(format!(
            "rule-fairy: the gate could not check the written files: {problem}"
        )),
        state: parsed.then(|| state.to_json(now_ms)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_every_time_a_problem_once() {
        let found = gate_answer("", GateRun::Found("[rule-fairy gate: 1 finding]".into()), 5);
        assert_eq!(found.entry.as_deref(), Some("[rule-fairy gate: 1 finding]"));
        assert_eq!(found.state, None, "findings record nothing");
        assert_eq!(gate_answer("", GateRun::Clean, 5), GateAnswer::default());

        let first = gate_answer("", GateRun::Failed("bad.yml:1: broken".into()), 5);
        assert_eq!(
            first.entry.as_deref(),
            Some(gate_unavailable("bad.yml:1: broken").as_str())
        );
        assert_eq!(
            first.log.as_deref(),
            Some("rule-fairy: the gate could not check the written files: bad.yml:1: broken")
        );
        let saved = first.state.expect("told is recorded");
        assert_eq!(
            SessionState::parse(&saved).unwrap().gate_problem.as_deref(),
            Some("bad.yml:1: broken")
        );
        let again = gate_answer(&saved, GateRun::Failed("bad.yml:1: broken".into()), 6);
        assert_eq!(again, GateAnswer::default());
        let other = gate_answer(&saved, GateRun::Failed("other".into()), 7);
        assert!(other.entry.unwrap().contains("other"));
    }

    #[test]
    fn a_corrupt_state_is_left_for_the_delivery_to_report() {
        let answer = gate_answer("{not json", GateRun::Failed("broken".into()), 5);
        assert!(answer.entry.is_some());
        assert_eq!(answer.state, None);
    }
}
