//! One Codex hook's decision (behaviour §5.3, §5.4): select the event's
//! rules, decide whether the session must be opened at all, what is due
//! against its records, render Codex's text, and what to record. The hook
//! process gathers (standard input, files, git, the transcript, the lock)
//! through [`Host`], when this decision asks for it, and carries the
//! [`Answer`] out (standard output, the saved state).

use crate::base::error::Error;
use crate::base::fs::FileSource;
use crate::delivery::broken::{broken_entry, broken_summary, BrokenRule};
use crate::delivery::notice::reasons_of;
use crate::delivery::selection::{
    codex_text, read_contents, select, with_unloaded_instructions, Selection,
};
use crate::hosts::codex::state::{Metrics, SessionState};
use crate::hosts::gate_check::GateRun;
use crate::hosts::journal::{chars_of, rule_records};
use crate::hosts::version::{version_mismatch, PluginHost, VERSION};
use crate::matching::event::{Event, EventKind, Query};
use crate::matching::explain::Reason;
use crate::matching::facts::Facts;
use crate::matching::project::Project;
use crate::render::labels;

/// What the decision asks of the hook process while it decides. The
/// process reads, locks and runs git; the decision says whether and when,
/// so every hook gathers in the same order.
pub trait Host {
    /// Tells the person the problems the event touched that do not stop it
    /// (rules left out, invalid globs or patterns reached), and returns
    /// them as the lines of the person's warning.
    fn tell(&mut self, project: &Project, errors: &[Error]) -> Vec<String>;
    /// An error as the person reads it: the file, relative, and the line.
    fn located(&self, project: &Project, error: &Error) -> String;
    /// Locks the session and loads its saved state; `Err` says why it
    /// could not, and the delivery fails with it.
    fn open(&mut self, project: &Project) -> Result<SessionState, String>;
    /// The transcript's metrics now, moving `state`'s scan cursor (and
    /// calling [`SessionState::transcript_restarted`] when it was
    /// replaced); `None` without a readable transcript.
    fn transcript(&mut self, state: &mut SessionState) -> Option<Metrics>;
    /// Milliseconds since the epoch.
    fn now_ms(&mut self) -> i64;
    /// The shell check: the project-relative paths changed at or after
    /// `marker_ms`, sorted (git and the files' times).
    fn changed_since(&mut self, project: &Project, marker_ms: i64) -> Result<Vec<String>, String>;
    /// The session's working directory, project-relative (`""` for the
    /// root): Codex read the instruction files from the checkout's root
    /// down to it, and no deeper (behaviour §5.3). `None` when it is not
    /// inside the project: then no instruction file is delivered.
    fn working_dir(&self, _project: &Project) -> Option<String> {
        None
    }
    /// The version of the plugin that runs this hook, from its manifest
    /// (behaviour §10.5); `None` when no plugin runs it or its manifest
    /// names none. Asked once per session, by the first hook that opens
    /// it.
    fn plugin_version(&mut self) -> Option<String> {
        None
    }
    /// Where the program that runs this hook is, for the version line.
    fn program_path(&self) -> Option<String> {
        None
    }
}

/// The text a delivery puts in the model's context, or why it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivered {
    /// Codex's text for the due rules; the durable ones were recorded as
    /// delivered.
    Context(String),
    /// Rendering failed (a missing import, the budget): the located
    /// problem, for the error entry; nothing was recorded.
    Failed(String),
}

/// What the hook carries out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The delivery failed before anything was decided: tell `detail`, print
    /// its error entry and nothing else. `state`, when the session was
    /// opened, is saved as it is (the shell check's marker stays, so the
    /// next check covers the same window); a failed save is not told.
    Failed {
        /// Why: the located error, or what the lock, the state file or git
        /// reported.
        detail: String,
        /// The session's state, when it was opened before the failure.
        state: Option<SessionState>,
    },
    /// The decision ran through. Print the delivery (or nothing), then the
    /// gate's entry after it, and warn with `problems`; save `state` when
    /// the session was opened, and tell a failed save as one more problem.
    Done {
        /// The delivery; `None` when no rule was due.
        delivered: Option<Delivered>,
        /// The gate's entry for the written files (edits).
        gate: Option<String>,
        /// Lines of the person's warning: problems the event touched that
        /// did not stop it.
        problems: Vec<String>,
        /// The person's line for the delivery (behaviour §10.1), shown
        /// before the problems; `None` when nothing was delivered or
        /// `:notify` is off.
        notice: Option<String>,
        /// The session's state to save; `None` when it was never opened.
        state: Option<SessionState>,
    },
}

impl Answer {
    fn done(problems: Vec<String>) -> Answer {
        Answer::Done {
            delivered: None,
            gate: None,
            problems,
            notice: None,
            state: None,
        }
    }

    fn failed(detail: String) -> Answer {
        Answer::Failed {
            detail,
            state: None,
        }
    }
}

/// Decides one Codex hook. `fs` reads the rules' documents and the files
/// `fileContains` tests; `facts` are the session's; `gate` is the check of
/// the files an edit tool wrote ([`GateRun::Clean`] for other events). A
/// shell event's paths are those the shell check finds under the lock
/// ([`Host::changed_since`]) and the ones still pending, so the event
/// itself carries none.
pub fn decide(
    fs: &dyn FileSource,
    project: &Project,
    event: &Event,
    facts: &Facts,
    gate: GateRun,
    host: &mut dyn Host,
) -> Answer {
    // Only the prompt (which starts the shell check) and a shell command
    // read the shell hook's setting.
    let shell_hook = match event {
        Event::Prompt { .. } | Event::Shell { .. } => match project.config.shell_hook() {
            Ok(hook) => hook.codex,
            Err(e) => return Answer::failed(host.located(project, &e)),
        },
        Event::Edit { .. } | Event::SessionStart { .. } | Event::Read { .. } => false,
    };
    match event {
        Event::Shell { .. } if !shell_hook => Answer::done(Vec::new()),
        Event::Shell { .. } => shell(fs, project, facts, &[], host),
        _ => {
            let selection = selected(fs, project, event, facts, host.working_dir(project));
            deliver_selected(fs, project, event, selection, shell_hook, gate, host)
        }
    }
}

/// Delivers the selection of a non-shell event (or of a shell command's
/// reads): opens the session only when there is something to deliver,
/// record or check.
fn deliver_selected(
    fs: &dyn FileSource,
    project: &Project,
    event: &Event,
    selection: Selected<'_>,
    shell_hook: bool,
    gate: GateRun,
    host: &mut dyn Host,
) -> Answer {
    let problems = host.tell(project, &selection.selection.errors);
    let open = !selection.selection.rules.is_empty()
        || match event {
            Event::Prompt { .. } => shell_hook,
            Event::SessionStart { compacted } => *compacted,
            _ => gate != GateRun::Clean,
        };
    if !open {
        return Answer::Done {
            delivered: reached_entry(project, &selection.selection).map(Delivered::Context),
            gate: None,
            problems,
            notice: None,
            state: None,
        };
    }
    let mut state = match host.open(project) {
        Ok(state) => state,
        Err(e) => return Answer::failed(e),
    };
    let mut problems = problems;
    problems.extend(version_told(&mut state, host));
    if let Event::Prompt { .. } = event {
        // The prompt starts the shell check, so the first command
        // reports only what changed after the session began working.
        if shell_hook {
            let now = host.now_ms();
            state.shell.start(now);
        }
    }
    // The transcript is scanned once per hook: a session start reads
    // it for the compaction and delivers with the same metrics.
    let transcript = host.transcript(&mut state);
    if let Event::SessionStart { compacted: true } = event {
        // No transcript to count it in: remember the compaction
        // here, so every delivered rule is due again.
        if transcript.is_none() {
            state.announce_compaction();
        }
    }
    let now = transcript.unwrap_or_else(|| state.metrics_without_transcript());
    let outcome = deliver_all(
        fs,
        project,
        event.kind(),
        &[&selection],
        &mut state,
        &now,
        host,
    );
    problems.extend(outcome.problem());
    let gate = gate_entry(gate, &mut state, &mut problems);
    finished(project, outcome, gate, problems, state, host)
}

/// The answer of a hook that opened the session: the problems told are
/// recorded in its journal (behaviour §10.2), and the person's line comes
/// with a delivery unless `:notify` is off.
fn finished(
    project: &Project,
    outcome: Outcome,
    gate: Option<String>,
    problems: Vec<String>,
    mut state: SessionState,
    host: &mut dyn Host,
) -> Answer {
    if !problems.is_empty() {
        let now = outcome.at_ms.unwrap_or_else(|| host.now_ms());
        state.journal.record_problems(now, &problems);
    }
    Answer::Done {
        delivered: outcome.delivered,
        gate,
        problems,
        notice: outcome.notice.filter(|_| project.config.notify()),
        state: Some(state),
    }
}

/// Decides a shell command's hook (behaviour §5.3, §9.2): `read` are the
/// project-relative paths the command names (`cat .cursor/rules/x.mdc`);
/// the requestable rules whose files they are come whether or not the
/// shell hook is on, and with it on, beside the rules of what the command
/// changed.
pub fn decide_shell(
    fs: &dyn FileSource,
    project: &Project,
    read: &[String],
    facts: &Facts,
    host: &mut dyn Host,
) -> Answer {
    let shell_hook = match project.config.shell_hook() {
        Ok(hook) => hook.codex,
        Err(e) => return Answer::failed(host.located(project, &e)),
    };
    if shell_hook {
        return shell(fs, project, facts, read, host);
    }
    // The shell hook off: only what the command reads can bring rules, and
    // the selection made to find out is the one delivered.
    if read.is_empty() {
        return Answer::done(Vec::new());
    }
    let event = Event::read(read);
    let selection = selected(fs, project, &event, facts, host.working_dir(project));
    if selection.selection.rules.is_empty() {
        return Answer::done(Vec::new());
    }
    deliver_selected(fs, project, &event, selection, false, GateRun::Clean, host)
}

/// An event's selection, with what it was judged on, so that the reasons
/// of the rules a delivery carries can be found then: most events deliver
/// nothing, and they are not explained.
struct Selected<'a> {
    selection: Selection,
    event: &'a Event,
    facts: &'a Facts,
    contents: Option<Vec<Option<String>>>,
}

impl Selected<'_> {
    /// Each of `delivered` with its reasons, for the journal and the
    /// person's line.
    fn reasons(&self, project: &Project, delivered: &[String]) -> Vec<(String, Vec<Reason>)> {
        let query = Query::new(self.event, self.facts).with_contents(self.contents.as_deref());
        reasons_of(project, &query, &self.selection.trigger, delivered)
    }
}

/// The event's selection, with the contents `fileContains` tests read
/// through `fs`, and the instruction files Codex did not read for its
/// paths when the session works at `working_dir`.
fn selected<'a>(
    fs: &dyn FileSource,
    project: &Project,
    event: &'a Event,
    facts: &'a Facts,
    working_dir: Option<String>,
) -> Selected<'a> {
    let contents = read_contents(fs, project, &event.matched_paths());
    let selection = select(
        project,
        &Query::new(event, facts).with_contents(contents.as_deref()),
    );
    let selection = match working_dir {
        Some(dir) => with_unloaded_instructions(fs, project, selection, event, &dir),
        None => selection,
    };
    Selected {
        selection,
        event,
        facts,
        contents,
    }
}

/// After a shell command with the shell hook on: the paths changed since
/// the last check join the pending ones, under the lock, and their rules
/// are delivered. A path leaves the pending list once its rules reached the
/// agent; a path one of whose rules is broken (an import that fails, too
/// large) stays, so fixing the rule still delivers for the change.
fn shell(
    fs: &dyn FileSource,
    project: &Project,
    facts: &Facts,
    read: &[String],
    host: &mut dyn Host,
) -> Answer {
    let mut state = match host.open(project) {
        Ok(state) => state,
        Err(e) => return Answer::failed(e),
    };
    // Taken before git runs, so a write during the check is seen next time.
    let started = host.now_ms();
    let found = match state.shell.checked_at_ms {
        None => Vec::new(),
        Some(marker) => match host.changed_since(project, marker) {
            Ok(found) => found,
            Err(detail) => {
                return Answer::Failed {
                    detail,
                    state: Some(state),
                }
            }
        },
    };
    let pending = state.shell.record_check(started, &found).to_vec();
    let mut problems: Vec<String> = version_told(&mut state, host).into_iter().collect();
    let working_dir = host.working_dir(project);
    let reads = Event::read(read);
    let requested = selected(fs, project, &reads, facts, working_dir.clone());
    if pending.is_empty() && requested.selection.rules.is_empty() {
        return finished(project, Outcome::default(), None, problems, state, host);
    }
    let changes = Event::shell(&pending);
    let selection = selected(fs, project, &changes, facts, working_dir);
    problems.extend(host.tell(project, &selection.selection.errors));
    let now = host
        .transcript(&mut state)
        .unwrap_or_else(|| state.metrics_without_transcript());
    // The rules the command read, then those of what it changed: one
    // text, rendered whole before anything is recorded.
    let outcome = deliver_all(
        fs,
        project,
        EventKind::Shell,
        &[&requested, &selection],
        &mut state,
        &now,
        host,
    );
    problems.extend(outcome.problem());
    // A path leaves once its rules reached the agent; one whose rule is
    // broken waits for the fix, the others clear (behaviour §5.4).
    if !matches!(outcome.delivered, Some(Delivered::Failed(_))) {
        let left_out: Vec<&str> = outcome.broken.iter().map(|b| b.rule.as_str()).collect();
        state
            .shell
            .clear(&selection.selection.settled_paths(&pending, &left_out));
    }
    finished(project, outcome, None, problems, state, host)
}

/// What [`deliver_all`] gave: the delivery, the due rules it left out as
/// broken, and what the person is told of it.
#[derive(Default)]
struct Outcome {
    delivered: Option<Delivered>,
    broken: Vec<BrokenRule>,
    /// The person's line for what was delivered.
    notice: Option<String>,
    /// When the delivery was recorded, if one was.
    at_ms: Option<i64>,
}

impl Outcome {
    /// The line the person is shown for the broken rules left out (the
    /// invalid globs reached are told with the selection).
    fn problem(&self) -> Option<String> {
        broken_summary(&self.broken)
    }
}

/// Under the lock: renders the selections' due rules, in order (a rule due
/// in an earlier one is not due again in a later one), their texts joined
/// by a blank line, and records the durable ones delivered against the
/// transcript's metrics `now`, and the delivery in the journal. Rendering
/// comes first, so a rule that failed to render is not recorded as
/// delivered; a broken rule is left out and named in the text, and the
/// others are delivered and recorded. No delivery when nothing is due and
/// no broken rule was reached.
fn deliver_all(
    fs: &dyn FileSource,
    project: &Project,
    kind: EventKind,
    selections: &[&Selected<'_>],
    state: &mut SessionState,
    now: &Metrics,
    host: &mut dyn Host,
) -> Outcome {
    let mut texts = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    let mut records = Vec::new();
    let mut broken = Vec::new();
    let mut reasons = Vec::new();
    let mut sizes = Vec::new();
    for selected in selections {
        let selection = &selected.selection;
        let due: Vec<String> = state
            .due_in(selection, Some(now))
            .into_iter()
            .filter(|rule| !taken.contains(rule))
            .collect();
        if due.is_empty() {
            continue;
        }
        match codex_text(fs, project, selection, &due) {
            Ok(text) => {
                texts.push(text.text);
                broken.extend(text.broken);
                reasons.extend(selected.reasons(project, &text.delivered));
                sizes.extend(text.sizes);
                records.push((selection, text.delivered));
            }
            Err(e) => {
                return Outcome {
                    delivered: Some(Delivered::Failed(host.located(project, &e.error))),
                    ..Outcome::default()
                }
            }
        }
        taken.extend(due);
    }
    if texts.is_empty() {
        return Outcome {
            delivered: selections
                .iter()
                .find_map(|selected| reached_entry(project, &selected.selection))
                .map(Delivered::Context),
            broken,
            ..Outcome::default()
        };
    }
    for (selection, delivered) in records {
        state.record_durable(selection, &delivered, Some(now));
    }
    let text = texts.join("\n\n");
    let notice = (!reasons.is_empty()).then(|| labels::delivery_line(&reasons, &[] as &[&str]));
    let at_ms = host.now_ms();
    state.journal.record_delivery(
        at_ms,
        kind,
        rule_records(reasons, &sizes),
        Vec::new(),
        chars_of(&text),
    );
    Outcome {
        delivered: Some(Delivered::Context(text)),
        broken,
        notice,
        at_ms: Some(at_ms),
    }
}

/// The entry naming the invalid globs and patterns the selection reached,
/// for an event that delivers nothing.
fn reached_entry(project: &Project, selection: &Selection) -> Option<String> {
    broken_entry(&selection.reached_broken(project))
}

/// The person's line when the plugin's version is not the program's
/// (behaviour §10.5), asked of the host once per session: the first hook
/// that opens the session reads the manifest, and no later one does.
fn version_told(state: &mut SessionState, host: &mut dyn Host) -> Option<String> {
    if state.version_checked {
        return None;
    }
    state.version_checked = true;
    let plugin = host.plugin_version()?;
    version_mismatch(
        PluginHost::Codex,
        &plugin,
        VERSION,
        host.program_path().as_deref(),
    )
}

/// The gate's entry for the written files; a check that could not run is
/// told once per session, to the model and the person.
fn gate_entry(
    gate: GateRun,
    state: &mut SessionState,
    problems: &mut Vec<String>,
) -> Option<String> {
    match gate {
        GateRun::Clean => None,
        GateRun::Found(entry) => Some(entry),
        GateRun::Failed(problem) => {
            if !state.tell_gate_problem(&problem) {
                return None;
            }
            problems.push(format!(
                "the gate could not check the written files: {problem}"
            ));
            Some(labels::gate_unavailable(&problem))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    /// A session kept in memory: what the decision gathered, in order.
    struct Memory {
        saved: SessionState,
        transcript: Option<Metrics>,
        changed: Vec<String>,
        asked: Vec<&'static str>,
        working_dir: Option<String>,
        plugin: Option<String>,
    }

    impl Memory {
        fn new(saved: SessionState) -> Memory {
            Memory {
                saved,
                transcript: Some(Metrics {
                    size: Some(10),
                    compaction_count: 0,
                }),
                changed: Vec::new(),
                asked: Vec::new(),
                working_dir: None,
                plugin: None,
            }
        }
    }

    impl Host for Memory {
        fn tell(&mut self, _: &Project, errors: &[Error]) -> Vec<String> {
            errors.iter().map(ToString::to_string).collect()
        }
        fn located(&self, _: &Project, error: &Error) -> String {
            error.to_string()
        }
        fn open(&mut self, _: &Project) -> Result<SessionState, String> {
            self.asked.push("open");
            Ok(self.saved.clone())
        }
        fn transcript(&mut self, _: &mut SessionState) -> Option<Metrics> {
            self.asked.push("transcript");
            self.transcript
        }
        fn now_ms(&mut self) -> i64 {
            self.asked.push("clock");
            1_000
        }
        fn changed_since(&mut self, _: &Project, _: i64) -> Result<Vec<String>, String> {
            self.asked.push("git");
            Ok(self.changed.clone())
        }
        fn working_dir(&self, _: &Project) -> Option<String> {
            self.working_dir.clone()
        }
        fn plugin_version(&mut self) -> Option<String> {
            self.asked.push("plugin version");
            self.plugin.clone()
        }
    }

    #[test]
    fn another_plugin_version_is_told_by_the_first_hook_that_opens_the_session() {
        let (fs, project) = project(&[(
            ".cursor/rules/base.mdc",
            "---\nalwaysApply: true\n---\n# Base",
        )]);
        let prompt = Event::prompt("hello");
        let mut host = Memory::new(SessionState::default());
        host.plugin = Some("9.9.9".to_string());
        let Answer::Done {
            problems,
            state: Some(state),
            notice: Some(_),
            ..
        } = run(&fs, &project, &prompt, &mut host)
        else {
            panic!("no delivery");
        };
        let told = version_mismatch(PluginHost::Codex, "9.9.9", VERSION, None).unwrap();
        assert_eq!(problems, vec![told.clone()]);
        assert!(state.version_checked);
        assert_eq!(state.journal.problems[0].text, told);
        assert_eq!(
            host.asked
                .iter()
                .filter(|a| **a == "plugin version")
                .count(),
            1
        );
        // The next hook neither reads the manifest nor tells it again.
        let mut next = Memory::new(state);
        next.plugin = Some("9.9.9".to_string());
        let Answer::Done { problems, .. } = run(&fs, &project, &Event::prompt("again"), &mut next)
        else {
            panic!("failed");
        };
        assert!(problems.is_empty(), "{problems:?}");
        assert!(!next.asked.contains(&"plugin version"), "{:?}", next.asked);
        // The same version, or none known: checked, nothing told.
        for plugin in [Some(VERSION.to_string()), None] {
            let mut host = Memory::new(SessionState::default());
            host.plugin = plugin;
            let Answer::Done {
                problems,
                state: Some(state),
                ..
            } = run(&fs, &project, &prompt, &mut host)
            else {
                panic!("no delivery");
            };
            assert!(problems.is_empty() && state.version_checked, "{problems:?}");
        }
    }

    #[test]
    fn a_hook_that_does_not_open_the_session_does_not_check_the_version() {
        let (fs, project) = project(&[(".cursor/rules/api.mdc", "---\nglobs: src/**\n---\n# API")]);
        let mut host = Memory::new(SessionState::default());
        host.plugin = Some("9.9.9".to_string());
        let answer = run(&fs, &project, &Event::prompt("hello"), &mut host);
        assert!(
            matches!(answer, Answer::Done { state: None, ref problems, .. } if problems.is_empty()),
            "{answer:?}"
        );
        assert!(host.asked.is_empty(), "{:?}", host.asked);
    }

    #[test]
    fn a_command_reading_below_the_working_directory_brings_its_instruction_file_shell_hook_off() {
        let (fs, project) = project(&[
            ("services/billing/AGENTS.md", "Billing instructions."),
            ("services/billing/x.ts", "export {}"),
        ]);
        let mut host = Memory::new(SessionState::default());
        host.working_dir = Some(String::new());
        let read = vec!["services/billing/x.ts".to_string()];
        let Answer::Done {
            delivered: Some(Delivered::Context(text)),
            ..
        } = decide_shell(&fs, &project, &read, &Facts::default(), &mut host)
        else {
            panic!("no delivery");
        };
        assert!(text.starts_with("[rule-fairy injected: instruction file services/billing/AGENTS.md]\n[rule-fairy matched: instruction files of directories below the working directory, which Codex did not read]\n\n# services/billing/AGENTS.md\n\nBilling instructions."), "{text}");
        // Without a known working directory, a read of a plain file is nothing.
        let mut unknown = Memory::new(SessionState::default());
        let answer = decide_shell(&fs, &project, &read, &Facts::default(), &mut unknown);
        assert!(
            matches!(
                answer,
                Answer::Done {
                    delivered: None,
                    ..
                }
            ),
            "{answer:?}"
        );
    }

    #[test]
    fn an_edit_below_the_working_directory_brings_the_instruction_files_codex_did_not_read() {
        let (mut fs, project) = project(&[
            (".cursor/rules/ts.mdc", "---\nglobs: **/*.ts\n---\n# TS"),
            ("AGENTS.md", "Root instructions, which Codex read."),
            ("services/AGENTS.md", "Services instructions."),
            ("services/billing/AGENTS.md", "Billing instructions."),
            ("services/billing/AGENTS.override.md", "Billing override."),
        ]);
        fs.add_file("/p/services/payments/AGENTS.md", vec![b'o', b'k', 0xff]);
        let edit = Event::edit(&["services/billing/src/a.ts"]);
        let mut host = Memory::new(SessionState::default());
        host.working_dir = Some(String::new());
        let Answer::Done {
            delivered: Some(Delivered::Context(text)),
            state: Some(state),
            ..
        } = run(&fs, &project, &edit, &mut host)
        else {
            panic!("no delivery");
        };
        assert!(text.starts_with("[rule-fairy injected: ts.mdc]\n[rule-fairy injected: instruction file services/AGENTS.md]\n[rule-fairy injected: instruction file services/billing/AGENTS.override.md]\n[rule-fairy matched: glob on services/billing/src/a.ts]\n[rule-fairy matched: instruction files of directories below the working directory, which Codex did not read]\n"), "{text}");
        assert!(
            text.contains("# services/billing/AGENTS.override.md\n\nBilling override."),
            "{text}"
        );
        assert!(
            !text.contains("Root instructions") && !text.contains("Billing instructions."),
            "{text}"
        );
        assert!(state
            .injected
            .contains_key("instruction file services/AGENTS.md"));
        // Held: the next edit there brings neither again.
        let mut again = Memory::new(state);
        again.working_dir = Some(String::new());
        let answer = run(
            &fs,
            &project,
            &Event::edit(&["services/billing/b.md"]),
            &mut again,
        );
        assert!(
            matches!(
                answer,
                Answer::Done {
                    delivered: None,
                    ..
                }
            ),
            "{answer:?}"
        );
        // A session working in services/ read services/AGENTS.md itself.
        let mut deeper = Memory::new(SessionState::default());
        deeper.working_dir = Some("services".to_string());
        let Answer::Done {
            delivered: Some(Delivered::Context(text)),
            ..
        } = run(
            &fs,
            &project,
            &Event::edit(&["services/billing/b.md"]),
            &mut deeper,
        )
        else {
            panic!("no delivery");
        };
        assert!(text.starts_with("[rule-fairy injected: instruction file services/billing/AGENTS.override.md]\n[rule-fairy matched: instruction files of directories below"), "{text}");
        // One that is not UTF-8 is a broken entry naming it; nothing else is lost.
        let mut broken = Memory::new(SessionState::default());
        broken.working_dir = Some(String::new());
        let Answer::Done {
            delivered: Some(Delivered::Context(text)),
            ..
        } = run(
            &fs,
            &project,
            &Event::edit(&["services/payments/x.ts"]),
            &mut broken,
        )
        else {
            panic!("no delivery");
        };
        assert!(text.starts_with("[rule-fairy injected: ts.mdc]\n[rule-fairy injected: instruction file services/AGENTS.md]\n"), "{text}");
        assert!(text.contains("[rule-fairy error: 1 broken rule left out: instruction file services/payments/AGENTS.md]\n- services/payments/AGENTS.md:1: "), "{text}");
        // Outside the project, or with no working directory known: none.
        let mut unknown = Memory::new(SessionState::default());
        let Answer::Done {
            delivered: Some(Delivered::Context(text)),
            ..
        } = run(&fs, &project, &edit, &mut unknown)
        else {
            panic!("no delivery");
        };
        assert!(!text.contains("instruction file"), "{text}");
    }

    fn project(files: &[(&str, &str)]) -> (MemoryFs, Project) {
        let fs = MemoryFs::from_files("/p", files.iter().copied());
        let project = Project::load(&fs, "/p").unwrap();
        (fs, project)
    }

    fn run(fs: &MemoryFs, project: &Project, event: &Event, host: &mut Memory) -> Answer {
        decide(fs, project, event, &Facts::default(), GateRun::Clean, host)
    }

    #[test]
    fn a_session_start_scans_the_transcript_once() {
        let (fs, project) = project(&[(
            ".cursor/rules/base.mdc",
            "---\nalwaysApply: true\n---\n# Base",
        )]);
        let mut host = Memory::new(SessionState::default());
        let answer = run(
            &fs,
            &project,
            &Event::SessionStart { compacted: true },
            &mut host,
        );
        assert!(
            matches!(
                answer,
                Answer::Done {
                    delivered: Some(Delivered::Context(_)),
                    ..
                }
            ),
            "{answer:?}"
        );
        assert_eq!(
            host.asked,
            vec!["open", "plugin version", "transcript", "clock"]
        );
    }

    #[test]
    fn nothing_selected_leaves_the_session_closed() {
        let (fs, project) = project(&[(".cursor/rules/ui.mdc", "---\nglobs: src/**\n---\nUI")]);
        let mut host = Memory::new(SessionState::default());
        let answer = run(&fs, &project, &Event::prompt("hi"), &mut host);
        assert_eq!(answer, Answer::done(Vec::new()));
        assert!(host.asked.is_empty(), "{:?}", host.asked);
        // With the shell hook off for Codex, a shell command asks for nothing.
        let shell = run(&fs, &project, &Event::shell::<&str>(&[]), &mut host);
        assert_eq!(shell, Answer::done(Vec::new()));
        assert!(host.asked.is_empty(), "{:?}", host.asked);
    }

    #[test]
    fn a_rule_is_delivered_once_and_recorded() {
        let (fs, project) = project(&[(
            ".cursor/rules/base.mdc",
            "---\nalwaysApply: true\n---\n# Base",
        )]);
        let mut host = Memory::new(SessionState::default());
        let Answer::Done {
            delivered, state, ..
        } = run(&fs, &project, &Event::prompt("hi"), &mut host)
        else {
            panic!("the prompt did not go through");
        };
        let Some(Delivered::Context(text)) = delivered else {
            panic!("{delivered:?}");
        };
        assert!(
            text.starts_with("[rule-fairy injected: base.mdc]\n"),
            "{text}"
        );
        // The clock last, for the journal's record of the delivery.
        assert_eq!(
            host.asked,
            vec!["open", "plugin version", "transcript", "clock"]
        );
        let state = state.expect("the state to save");
        assert!(state.injected.contains_key("base.mdc"));
        let record = &state.journal.deliveries[0];
        assert_eq!((record.at_ms, record.event.as_str()), (1_000, "prompt"));
        assert_eq!(record.rules[0].name, "base.mdc");
        assert_eq!(record.rules[0].reasons, vec![Reason::AlwaysApply]);
        assert_eq!(record.chars, text.encode_utf16().count() as u64);
        let mut again = Memory::new(state);
        let Answer::Done { delivered, .. } = run(&fs, &project, &Event::prompt("hi"), &mut again)
        else {
            panic!("the prompt did not go through");
        };
        assert_eq!(delivered, None);
    }

    #[test]
    fn a_broken_rule_is_named_and_not_recorded() {
        let (fs, project) = project(&[(
            ".cursor/rules/lib.mdc",
            "---\nglobs: lib/**\n---\n@doc/missing.md",
        )]);
        let mut host = Memory::new(SessionState::default());
        let answer = run(&fs, &project, &Event::edit(&["lib/a.ts"]), &mut host);
        let Answer::Done {
            delivered: Some(Delivered::Context(text)),
            problems,
            state: Some(state),
            ..
        } = answer
        else {
            panic!("{answer:?}");
        };
        assert!(
            text.starts_with("[rule-fairy error: 1 broken rule left out: lib.mdc]\n- .cursor/rules/lib.mdc:4: lib.mdc: Rule import does not exist: doc/missing.md\n"),
            "{text}"
        );
        assert_eq!(problems, vec!["1 broken rule left out: .cursor/rules/lib.mdc:4: lib.mdc: Rule import does not exist: doc/missing.md"]);
        assert!(state.injected.is_empty());
    }

    #[test]
    fn a_command_reading_a_requestable_rule_delivers_it_once_hook_on_or_off() {
        for config in ["{}", "{:shell-hook {:codex true}}"] {
            let (fs, project) = project(&[
                ("rule-fairy.edn", config),
                (
                    ".cursor/rules/ask.mdc",
                    "---\ndescription: When releasing\n---\n# Ask\n\n@doc/a.md#one",
                ),
                ("doc/a.md", "# A\n\n## One\n\nImported text.\n"),
            ]);
            let mut saved = SessionState::default();
            saved.shell.start(500);
            let mut host = Memory::new(saved);
            let read = vec![".cursor/rules/ask.mdc".to_string()];
            let answer = decide_shell(&fs, &project, &read, &Facts::default(), &mut host);
            let Answer::Done {
                delivered: Some(Delivered::Context(text)),
                state: Some(state),
                ..
            } = answer
            else {
                panic!("{config}: {answer:?}");
            };
            assert!(text.starts_with("[rule-fairy injected: ask.mdc]\n[rule-fairy matched: requested by reading .cursor/rules/ask.mdc]\n"), "{text}");
            assert!(text.contains("Imported text."), "{text}");
            assert!(state.injected.contains_key("ask.mdc"));
            // Held: the same read again brings nothing.
            let mut again = Memory::new(state);
            let answer = decide_shell(&fs, &project, &read, &Facts::default(), &mut again);
            assert!(
                matches!(
                    answer,
                    Answer::Done {
                        delivered: None,
                        ..
                    }
                ),
                "{answer:?}"
            );
        }
    }

    #[test]
    fn the_shell_check_runs_under_the_lock_and_clears_what_it_delivered() {
        let (fs, project) = project(&[
            ("rule-fairy.edn", "{:shell-hook {:codex true}}"),
            (".cursor/rules/db.mdc", "---\nglobs: db/**\n---\n# DB"),
        ]);
        let mut saved = SessionState::default();
        saved.shell.start(500);
        let mut host = Memory::new(saved);
        host.changed = vec!["db/x.sql".into()];
        let answer = run(&fs, &project, &Event::shell::<&str>(&[]), &mut host);
        assert_eq!(
            host.asked,
            vec![
                "open",
                "clock",
                "git",
                "plugin version",
                "transcript",
                "clock"
            ]
        );
        let Answer::Done {
            delivered: Some(Delivered::Context(text)),
            state: Some(state),
            ..
        } = answer
        else {
            panic!("{answer:?}");
        };
        assert!(text.contains("changed by a shell command"), "{text}");
        assert!(state.shell.pending.is_empty());
        assert_eq!(state.shell.checked_at_ms, Some(1_000));
    }
}
