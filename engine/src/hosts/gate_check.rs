//! The gate at the write, for a host that runs `rule-fairy gate check FILE
//! --json` as a process (the Claude Code mod): whether the project keeps
//! gate rules at all, what the check's exit status and findings mean, and
//! whether a check that could not run is worth telling again. The Codex
//! hooks run the gate in process and share the texts and the told-once
//! decision.

use crate::base::paths;
use crate::config::{Config, CONFIG_FILE};
#[cfg(doc)]
use crate::render::labels::gate_finding;
use crate::render::labels::gate_findings;

/// ast-grep's project file, at the project root.
pub const SGCONFIG: &str = "sgconfig.yml";
/// kairoku's rule directory, at the project root.
pub const KAIROKU_RULES: &str = ".kairoku/rules";

/// `rule-fairy gate` exits with this when it could not check: a rule it
/// cannot parse, a language it cannot check (and clap's usage errors, from
/// a program too old to know `gate`).
pub const CANNOT_RUN: i32 = 2;
/// The plugin's launcher exits with this, as a shell does, when it finds
/// no `rule-fairy` program.
pub const PROGRAM_NOT_FOUND: i32 = 127;
/// The line `rule-fairy gate` closes its error output with.
pub const NOTHING_JUDGED: &str = "nothing was judged clean; fix this and run again";
/// How `rule-fairy gate` starts the line for a file it could not judge
/// whole (behaviour §8.2), `could not check fully: <file>: <reason>`; it
/// then exits [`CANNOT_RUN`] after printing every finding it did find.
pub const NOT_FULLY_CHECKED: &str = "could not check fully:";

/// Set by a plugin that runs `rule-fairy gate check --json` as a process
/// (the Claude Code mod) to its own version: a program that knows it then
/// prints [`program_version_line`] first, so the plugin can tell whether
/// the two versions differ (behaviour §10.5). An older program ignores it;
/// an older plugin does not set it, and reads findings only.
pub const PLUGIN_VERSION_VARIABLE: &str = "RULE_FAIRY_PLUGIN_VERSION";

/// The line `rule-fairy gate check --json` prints first when
/// [`PLUGIN_VERSION_VARIABLE`] is set:
/// `{"programVersion":"<version>","programPath":"<where it runs from>"}`,
/// one JSON object the plugin tells apart from a finding by its key.
///
/// ```
/// use rule_fairy_engine::gate_check::program_version_line;
/// assert_eq!(
///     program_version_line("0.2.0", Some("/usr/local/bin/rule-fairy")),
///     r#"{"programPath":"/usr/local/bin/rule-fairy","programVersion":"0.2.0"}"#
/// );
/// assert_eq!(program_version_line("0.2.0", None), r#"{"programVersion":"0.2.0"}"#);
/// ```
pub fn program_version_line(version: &str, path: Option<&str>) -> String {
    let mut line = serde_json::json!({ "programVersion": version });
    if let Some(path) = path {
        line["programPath"] = path.into();
    }
    line.to_string()
}

/// What the agent is told after the files the gate could not judge whole.
pub const UNCHECKED_CONTRACT: &str = "The gate could not judge these files whole, so they are not known to be clean: a rule can miss what follows a syntax error, and a file over the gate's size bound is not read. Fix the syntax error (or split the file); `rule-fairy gate scan` fails until each file is checked fully or listed in `:gate :unchecked` in rule-fairy.edn.";

/// Characters of a problem a host shows, as failed deliveries keep.
const PROBLEM_CHARS: usize = 1_000;

/// The paths whose presence means the project keeps gate rules, absolute:
/// `sgconfig.yml`, `.kairoku/rules`, and the configuration file when it has
/// a `:gate` entry (valid or not: a check then says what is wrong with it).
/// A host checks them before starting a check, so a project without gate
/// rules never runs one.
///
/// ```
/// use rule_fairy_engine::Config;
/// use rule_fairy_engine::gate_check::gate_probes;
/// let config = Config::parse(r#"{:gate {:dirs ["lint/ast"]}}"#).unwrap();
/// assert_eq!(
///     gate_probes("/p", Some(&config)),
///     vec!["/p/sgconfig.yml", "/p/.kairoku/rules", "/p/rule-fairy.edn"]
/// );
/// assert_eq!(gate_probes("/p", Some(&Config::default())).len(), 2);
/// ```
pub fn gate_probes(root: &str, config: Option<&Config>) -> Vec<String> {
    let mut probes = vec![
        paths::join(root, SGCONFIG),
        paths::join(root, KAIROKU_RULES),
    ];
    if config.is_some_and(Config::has_gate) {
        probes.push(paths::join(root, CONFIG_FILE));
    }
    probes
}

/// What one check of the written files came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateRun {
    /// Nothing found.
    Clean,
    /// The context entry carrying every finding ([`gate_findings`]) and
    /// every file that could not be checked whole ([`checked`]); told with
    /// each write, as it concerns the files written.
    Found(String),
    /// The check could not run: why, as the person can act on it.
    Failed(String),
}

/// Reads a finished `rule-fairy gate check --json` (through the plugin's
/// launcher): `exit` is its status, `None` when it did not start or was
/// stopped (then `stderr` says why); `findings` are its lines, each as
/// [`gate_finding`] words it. Findings of any severity are handed back;
/// exit 1 only says one of them is an error.
///
/// Exit [`CANNOT_RUN`] with nothing but [`NOT_FULLY_CHECKED`] lines on
/// standard error is a check that ran: its findings and those files are
/// handed back together, every time, as for the findings alone.
pub fn read_gate_run<S: AsRef<str>>(exit: Option<i32>, findings: &[S], stderr: &str) -> GateRun {
    let problem = problem_of(stderr);
    let said: Vec<&str> = said(stderr).collect();
    let partial = !said.is_empty() && said.iter().all(|l| l.starts_with(NOT_FULLY_CHECKED));
    match exit {
        Some(CANNOT_RUN) if partial => checked(findings, &said),
        Some(0 | 1) if !findings.is_empty() => GateRun::Found(gate_findings(findings)),
        Some(0) => GateRun::Clean,
        // An error exit with nothing to show is no clean result.
        Some(code) => GateRun::Failed(or_exit(problem, code)),
        None if problem.is_empty() => {
            GateRun::Failed("the check did not start or did not finish".to_string())
        }
        None => GateRun::Failed(problem),
    }
}

/// The run of a check that found `findings` (each as [`gate_finding`]
/// words it) and could not judge the files `unchecked` names (each a
/// [`NOT_FULLY_CHECKED`] line): one entry with both, the findings first.
///
/// ```
/// use rule_fairy_engine::gate_check::{checked, GateRun};
/// let none: &[&str] = &[];
/// assert_eq!(checked(none, none), GateRun::Clean);
/// let GateRun::Found(entry) = checked(none, &["could not check fully: a.ts: syntax error at line 3"]) else {
///     panic!()
/// };
/// assert!(entry.starts_with("[rule-fairy gate: could not check fully: a.ts: syntax error at line 3]\n"));
/// ```
pub fn checked<F: AsRef<str>, U: AsRef<str>>(findings: &[F], unchecked: &[U]) -> GateRun {
    if unchecked.is_empty() {
        return if findings.is_empty() {
            GateRun::Clean
        } else {
            GateRun::Found(gate_findings(findings))
        };
    }
    let mut entry = String::new();
    if !findings.is_empty() {
        entry.push_str(&gate_findings(findings));
        entry.push_str("\n\n");
    }
    for line in unchecked {
        // One line each: a file name cannot break out of its label.
        let line: String = line
            .as_ref()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        entry.push_str(&format!("[rule-fairy gate: {line}]\n"));
    }
    entry.push_str(UNCHECKED_CONTRACT);
    GateRun::Found(entry)
}

/// What the program said on standard error, less its `rule-fairy gate: `
/// prefixes and its closing line, cut to [`PROBLEM_CHARS`] characters.
fn problem_of(stderr: &str) -> String {
    let mut problem = String::new();
    for line in said(stderr) {
        if !problem.is_empty() {
            problem.push('\n');
        }
        problem.push_str(line);
    }
    if let Some((at, _)) = problem.char_indices().nth(PROBLEM_CHARS) {
        problem.truncate(at);
        problem.push('…');
    }
    problem
}

/// The lines of standard error that say something, less their
/// `rule-fairy gate: ` prefixes and the closing line.
fn said(stderr: &str) -> impl Iterator<Item = &str> {
    stderr
        .lines()
        .map(|line| {
            let line = line.trim();
            line.strip_prefix("rule-fairy gate: ")
                .or_else(|| line.strip_prefix("rule-fairy: "))
                .unwrap_or(line)
        })
        .filter(|line| !line.is_empty() && *line != NOTHING_JUDGED)
}

fn or_exit(problem: String, code: i32) -> String {
    if problem.is_empty() {
        format!("the check exited with status {code} and said nothing")
    } else {
        problem
    }
}

/// Whether a problem should be told: it differs from the last one told in
/// the session (`told`), which it then becomes. A check that cannot run
/// would otherwise repeat itself after every write.
///
/// ```
/// use rule_fairy_engine::gate_check::tell_once;
/// let mut told = None;
/// assert!(tell_once(&mut told, "bad rule"));
/// assert!(!tell_once(&mut told, "bad rule"));
/// assert!(tell_once(&mut told, "other"));
/// ```
pub fn tell_once(told: &mut Option<String>, problem: &str) -> bool {
    let new = told.as_deref() != Some(problem);
    *told = Some(problem.to_string());
    new
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::render::labels::gate_finding;

    #[test]
    fn findings_become_one_entry_in_the_gate_s_own_form() {
        let finding = gate_finding(
            "error",
            "no-eval",
            "src/a.ts",
            2,
            "Do not call eval.",
            Some("Incident 12: eval ran user input."),
        );
        assert_eq!(
            read_gate_run(Some(1), &[&finding], ""),
            GateRun::Found(gate_findings(&[
                "error[no-eval] src/a.ts:2: Do not call eval.\n  Incident 12: eval ran user input.\n"
            ]))
        );
        // Warnings exit 0 and are still shown.
        let warning = gate_finding(
            "warning",
            "no-eval",
            "src/a.ts",
            2,
            "Do not call eval.",
            None,
        );
        let GateRun::Found(entry) = read_gate_run(Some(0), &[&warning], "") else {
            panic!()
        };
        assert!(entry.contains("warning[no-eval] src/a.ts:2: Do not call eval.\n"));
        assert_eq!(read_gate_run::<&str>(Some(0), &[], ""), GateRun::Clean);
    }

    #[test]
    fn files_not_checked_whole_come_with_the_findings_every_time() {
        let finding = gate_finding("error", "no-eval", "a.ts", 1, "No eval.", None);
        let stderr = "rule-fairy gate: could not check fully: a.ts: syntax error at line 3\n";
        let GateRun::Found(entry) = read_gate_run(Some(CANNOT_RUN), &[&finding], stderr) else {
            panic!()
        };
        assert_eq!(
            entry,
            format!(
                "{}\n\n[rule-fairy gate: could not check fully: a.ts: syntax error at line 3]\n{UNCHECKED_CONTRACT}",
                gate_findings(&[&finding])
            )
        );
        let none: &[&str] = &[];
        let big = "rule-fairy gate: could not check fully: big.ts: too large to parse: 9 bytes\nrule-fairy gate: could not check fully: b.ts: syntax error at line 1\n";
        let GateRun::Found(entry) = read_gate_run(Some(CANNOT_RUN), none, big) else {
            panic!()
        };
        assert!(entry.starts_with("[rule-fairy gate: could not check fully: big.ts: too large to parse: 9 bytes]\n[rule-fairy gate: could not check fully: b.ts: syntax error at line 1]\nThe gate could not judge"));
        // Any other problem beside them is a check that could not run.
        let mixed = format!("{big}rule-fairy gate: a.yml:1: bad\n");
        assert_eq!(
            read_gate_run(Some(CANNOT_RUN), none, &mixed),
            GateRun::Failed(
                "could not check fully: big.ts: too large to parse: 9 bytes\ncould not check fully: b.ts: syntax error at line 1\na.yml:1: bad".into()
            )
        );
        // The lines count only with the gate's own status for them.
        assert!(matches!(
            read_gate_run(Some(1), none, big),
            GateRun::Failed(_)
        ));
        // A name cannot add a line of its own.
        let GateRun::Found(entry) = checked(none, &["could not check fully: a\rb.ts: x"]) else {
            panic!()
        };
        assert!(entry.starts_with("[rule-fairy gate: could not check fully: a b.ts: x]\n"));
    }

    #[test]
    fn a_check_that_could_not_run_says_why() {
        let stderr = "rule-fairy gate: .kairoku/rules/bad.yml:3: did not find expected node content\nrule-fairy gate: nothing was judged clean; fix this and run again\n";
        let none: &[&str] = &[];
        assert_eq!(
            read_gate_run(Some(CANNOT_RUN), none, stderr),
            GateRun::Failed(".kairoku/rules/bad.yml:3: did not find expected node content".into())
        );
        let missing = "rule-fairy: the rule-fairy program was not found. Install it.\n";
        assert_eq!(
            read_gate_run(Some(PROGRAM_NOT_FOUND), none, missing),
            GateRun::Failed("the rule-fairy program was not found. Install it.".into())
        );
        assert_eq!(
            read_gate_run(None, none, "timed out after 30000 ms"),
            GateRun::Failed("timed out after 30000 ms".into())
        );
        assert_eq!(
            read_gate_run(Some(1), none, ""),
            GateRun::Failed("the check exited with status 1 and said nothing".into())
        );
        let long = "x".repeat(5_000);
        let GateRun::Failed(why) = read_gate_run(Some(2), none, &long) else {
            panic!()
        };
        assert_eq!(why.chars().count(), PROBLEM_CHARS + 1);
    }
}
