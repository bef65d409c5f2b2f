//! The gate at the write: the repository's ast-grep rules checked on the
//! files an edit tool just wrote, each finding handed to the model with the
//! rules. A check the hook cannot run (a rule file that does not parse) does
//! not block every write: it is told once per session, and `gate scan`, the
//! scan of record, fails closed on it.

use rule_fairy_engine::hosts::codex::state::SessionState;
use rule_fairy_engine::matching::project::Project;
use rule_fairy_engine::render::labels;

use super::output::{Event, HookOutput};

/// What the check of the written files found.
pub enum Findings {
    /// No finding, no rules, or a build without the gate.
    Clean,
    /// Each finding as the gate formats it for a model.
    Found(Vec<String>),
    /// The check could not run.
    Failed(String),
}

/// Checks the files a tool wrote (as it named them, relative to the
/// session directory).
#[cfg(feature = "gate")]
pub fn check(project: &Project, session_dir: &str, written: &[String]) -> Findings {
    use std::path::{Path, PathBuf};
    let files: Vec<PathBuf> = written
        .iter()
        .map(|p| Path::new(session_dir).join(p))
        .collect();
    match rule_fairy_gate::check_files(Path::new(&project.root), &files) {
        Ok(found) if found.is_empty() => Findings::Clean,
        Ok(found) => Findings::Found(found.iter().map(|f| f.human()).collect()),
        Err(e) => Findings::Failed(e.to_string()),
    }
}

#[cfg(not(feature = "gate"))]
pub fn check(_project: &Project, _session_dir: &str, _written: &[String]) -> Findings {
    Findings::Clean
}

impl Findings {
    /// Whether there is nothing to say.
    pub fn is_clean(&self) -> bool {
        matches!(self, Findings::Clean)
    }

    /// Adds the findings to the hook's context (after the rules, if any);
    /// a failed check is told once per session, to the model and the person.
    pub fn attach(
        self,
        output: Option<HookOutput>,
        state: &mut SessionState,
        problems: &mut Vec<String>,
    ) -> Option<HookOutput> {
        let text = match self {
            Findings::Clean => return output,
            Findings::Found(found) => labels::gate_findings(&found),
            Findings::Failed(problem) => {
                if !state.tell_gate_problem(&problem) {
                    return output;
                }
                problems.push(format!(
                    "the gate could not check the written files: {problem}"
                ));
                labels::gate_unavailable(&problem)
            }
        };
        Some(match output {
            Some(mut output) => {
                match output.hook_specific_output.as_mut() {
                    Some(specific) => {
                        specific.additional_context =
                            format!("{}\n\n{text}", specific.additional_context)
                    }
                    None => return Some(HookOutput::context(Event::PostToolUse, text)),
                }
                output
            }
            None => HookOutput::context(Event::PostToolUse, text),
        })
    }
}
