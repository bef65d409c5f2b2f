//! A session id, checked before it names any file, by the engine's one
//! policy for both hosts (`hosts::session_id`): the id ends up in
//! `<state dir>/<id>.json` and `<state dir>/locks/<id>.lock`.

use std::fmt;

use rule_fairy_engine::session_id_problem;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SessionId(String);

impl SessionId {
    /// The id, or why it cannot name a file.
    pub(super) fn parse(id: &str) -> Result<SessionId, String> {
        let problem = session_id_problem(id);
        match problem {
            Some(problem) => Err(format!(
                "the hook input's session_id {id:?} {problem}, so it cannot name a state file; nothing was delivered or recorded"
            )),
            None => Ok(SessionId(id.to_string())),
        }
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_that_could_leave_the_state_directory_are_refused() {
        assert!(SessionId::parse("019a2c7e-1b2c-7d3e-8f40-123456789abc").is_ok());
        assert!(SessionId::parse("a.b").is_ok());
        for bad in ["", "../x", "a/b", "a\\b", "..", "a\0b", &"x".repeat(201)] {
            let err = SessionId::parse(bad).unwrap_err();
            assert!(err.contains("session_id"), "{err}");
        }
        assert!(SessionId::parse("../x")
            .unwrap_err()
            .contains("contains a path separator"));
    }
}
