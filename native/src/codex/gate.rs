//! The gate at the write: the repository's ast-grep rules checked on the
//! files an edit tool just wrote, each finding handed to the model with the
//! rules. A check the hook cannot run (a rule file that does not parse) does
//! not block every write: the engine tells it once per session, and
//! `gate scan`, the scan of record, fails closed on it.

use rule_fairy_engine::gate_check::GateRun;
use rule_fairy_engine::Project;

/// Checks the files a tool wrote (as it named them, relative to the
/// session directory): the entry carrying every finding, or why the check
/// could not run. A build without the gate finds nothing.
#[cfg(feature = "gate")]
pub(super) fn check(project: &Project, session_dir: &str, written: &[String]) -> GateRun {
    use rule_fairy_engine::gate_check;
    use std::path::{Path, PathBuf};
    let files: Vec<PathBuf> = written
        .iter()
        .map(|p| Path::new(session_dir).join(p))
        .collect();
    match rule_fairy_gate::check_files(Path::new(&project.root), &files) {
        Ok(report) => {
            let found: Vec<String> = report
                .findings
                .iter()
                .map(rule_fairy_gate::Finding::human)
                .collect();
            // A file not judged whole is told with each write, beside the
            // findings, unless `:gate :unchecked` lets it go (behaviour §8.2).
            let unchecked: Vec<String> = report
                .unchecked
                .iter()
                .filter(|u| !u.allowed)
                .map(ToString::to_string)
                .collect();
            gate_check::checked(&found, &unchecked)
        }
        Err(e) => GateRun::Failed(e.to_string()),
    }
}

#[cfg(not(feature = "gate"))]
pub(super) fn check(_project: &Project, _session_dir: &str, _written: &[String]) -> GateRun {
    GateRun::Clean
}
