//! The Claude Code mod's view of a project: an in-memory snapshot of the
//! files the engine reads (configuration, rule files, the documents they
//! import, where checkouts are), kept by the mod across events and
//! refreshed only where a file changed; the loaded project is cached until
//! a rule or the configuration changes. [`ClaudeWorkspace::decide`] answers
//! one event from it.

use serde::{Deserialize, Serialize};

use crate::base::contain::{Containment, MAX_PATH_BYTES};
use crate::base::error::Error;
use crate::base::fs::{Kind, MemoryFs, Recording};
use crate::base::paths;
use crate::config::formats::GlobalRules;
use crate::config::Config;
use crate::delivery::frames::{delivery_id, FrameLimits};
use crate::delivery::selection::{select, with_instructions_left_out};
use crate::hosts::claude::context::{files_loaded_by_host, rules_in_context};
use crate::hosts::claude::event::{decide, due_in, Circumstances, Outcome};
use crate::hosts::claude::facts::HostFacts;
use crate::hosts::claude::labels::loading_problem;
use crate::hosts::claude::state::SessionState;
use crate::hosts::claude::watch::{self, Watch};
use crate::hosts::failure::{delivery_failed, failure_summary};
use crate::hosts::gate_check::gate_probes;
use crate::hosts::shell::{
    candidate_paths, changed_since, parse_porcelain, project_paths, timing_candidates, toplevel,
    InstructionDirs,
};
use crate::hosts::workspace_host::WorkspaceHost;
use crate::matching::event::{Event, EventKind, Query};
use crate::matching::facts::{project_markers, project_tags, Facts, CI_VARIABLES};
use crate::matching::project::{project_relative_path, Project};
use crate::render::import_paths::imported_documents;
use crate::rules::discovery::{folder_names, list_rule_files, RuleSet};
use crate::rules::instructions;
use crate::rules::nested::may_move_folders;
use crate::rules::steps::{AskKind, Asks, HostAnswers, HostEntry, HostStat};

/// One event as the mod gathered it: the wire form of an [`Event`] and
/// everything the decision reads besides the project.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct EventRequest {
    /// What happened: a prompt, an edit or a shell command.
    pub kind: RequestKind,
    /// Names this event among the session's: the delivery id is made from
    /// it, so it must differ between deliveries (the mod puts the session,
    /// the tool use or prompt, and the time in it).
    pub key: String,
    /// The prompt as typed (prompt events).
    #[serde(default)]
    pub prompt: Option<String>,
    /// The edited or read file, absolute (edit and read events).
    #[serde(default)]
    pub file: Option<String>,
    /// What git said (shell events, when a check was running).
    #[serde(default)]
    pub shell: Option<ShellReport>,
    /// Conversation texts that may hold deliveries.
    #[serde(default)]
    pub context: Vec<String>,
    /// The saved state file's text; empty for a new session.
    #[serde(default)]
    pub state: String,
    /// The state file as a person finds it, for messages.
    #[serde(default)]
    pub state_file: String,
    /// The time of the event, in milliseconds since the Unix epoch.
    pub now: i64,
    /// The facts the mod gathered for rule conditions (`Wants::facts`).
    #[serde(default)]
    pub facts: HostFacts,
    /// The texts of the files [`ClaudeWorkspace::contents_due`] named, in
    /// its order (`None`: it could not be read).
    #[serde(default)]
    pub contents: Vec<Option<String>>,
    /// Whose conversation the delivery is for, when not the main thread's
    /// (behaviour §5.7): the person's line names it (§10.1).
    #[serde(default)]
    pub thread: Option<ThreadRequest>,
}

/// A delivery's thread other than the main one, as the mod names it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum ThreadRequest {
    /// A subagent, by the agent id its tool calls carry.
    Agent {
        /// The agent id.
        id: String,
    },
    /// A subagent about to start, whose task is its first prompt.
    Spawn,
}

impl ThreadRequest {
    /// The thread as the person's line names it.
    fn named(&self) -> String {
        match self {
            ThreadRequest::Agent { id } => format!("subagent {id}"),
            ThreadRequest::Spawn => "new subagent".to_string(),
        }
    }
}

/// The kinds of [`Event`] the mod reports, as it names them on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum RequestKind {
    /// The person's prompt, or a subagent's task.
    Prompt,
    /// An edit tool wrote `file`.
    Edit,
    /// A shell command ran.
    Shell,
    /// The Read tool read `file` (behaviour §9.2).
    Read,
}

impl RequestKind {
    fn kind(self) -> EventKind {
        match self {
            RequestKind::Prompt => EventKind::Prompt,
            RequestKind::Edit => EventKind::Edit,
            RequestKind::Shell => EventKind::Shell,
            RequestKind::Read => EventKind::Read,
        }
    }
}

/// A finished git check: the checkout's top level as `git rev-parse
/// --show-toplevel` printed it, and each changed file's path relative to
/// it with the later of its modification and change times.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ShellReport {
    /// When the check started, before any git call.
    pub started: i64,
    pub toplevel: String,
    #[serde(default)]
    pub changed: Vec<(String, i64)>,
}

/// What the mod does with an event's answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct EventResponse {
    pub entries: Vec<String>,
    /// The frames of the rules on per-turn facts, under a host that sends
    /// them with the turn's model calls only (opencode, behaviour §5.2.4):
    /// never kept in the conversation. Always empty for Claude Code.
    pub per_turn: Vec<String>,
    pub delivered: Vec<String>,
    pub deferred: Vec<String>,
    pub log: Vec<String>,
    /// The state to save; `None` when nothing changed.
    pub state: Option<String>,
    /// Set when the saved state was not a state: why. The mod keeps a copy
    /// of the old text before saving over it.
    pub state_error: Option<String>,
}

/// What the mod gathers before an event is decided, beyond the event.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Wants {
    /// The facts some rule tests ([`RuleIndex::wanted_facts`]); the mod asks the host
    /// for these only.
    pub facts: Vec<String>,
    /// The marker files project tags come from, absolute, when a rule tests
    /// `project`: the mod keeps them in the snapshot as documents.
    pub markers: Vec<String>,
    /// The environment variables that say a run is in CI, when a rule tests
    /// `ci`: the mod reads each and hands their values back in this order.
    pub ci: Vec<&'static str>,
    /// The paths whose presence means the project keeps gate rules
    /// ([`gate_probes`]); the mod checks written files only then.
    pub gate: Vec<String>,
}

/// What a shell event must gather before it is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum ShellPlan {
    /// The shell hook is off for Claude Code: nothing to do.
    Off,
    /// No check is running: the event starts one and finds nothing.
    Start,
    /// Run git and read the changed files' times.
    Check,
}

/// One Claude Code project as the mod keeps it between events: the
/// host's answers about its configuration and rule files, the snapshot of
/// the documents they import, and the project loaded from them.
pub struct ClaudeWorkspace {
    root: String,
    /// Where the root really is (links resolved), for paths git prints.
    real_root: String,
    /// Documents, marker files and checkouts, as the mod puts them in.
    fs: MemoryFs,
    /// The configuration and the rules directories, as the walk asked.
    answers: HostAnswers,
    /// Rounds of the refresh under way.
    rounds: usize,
    project: Option<Result<Project, Error>>,
    limits: FrameLimits,
    /// Where the instruction files are, as git last listed them.
    instruction_dirs: InstructionListing,
    /// Whether Claude Code's file watch lets a refresh be skipped.
    watch: Watch,
    /// The host served: Claude Code unless the host says otherwise.
    host: WorkspaceHost,
    /// The global rules directory the host reads, when it has one.
    global: Option<GlobalRules>,
}

/// What git said of the instruction files' places (behaviour §5.2.2).
#[derive(Debug, Clone, Default)]
enum InstructionListing {
    /// Not asked yet, or asked before an event that may have moved one.
    #[default]
    Unasked,
    Listed(InstructionDirs),
    /// The listing failed (no checkout): any directory may hold one.
    Unavailable,
}

/// How many rounds one refresh may take: a round per directory level
/// (at most [`MAX_DEPTH`](crate::rules::discovery::MAX_DEPTH) below a
/// rules directory), and a few for the configuration, the checkout, git's
/// listing of the nested folders, the links and the reads. A host that
/// keeps answering with more to ask stops here.
const MAX_ROUNDS: usize = 2 * crate::rules::discovery::MAX_DEPTH + 10;

impl ClaudeWorkspace {
    /// An empty snapshot of the project at `root` (absolute, normalised),
    /// whose links resolved lead to `real_root`.
    pub fn new(root: &str, real_root: &str) -> Self {
        let mut fs = MemoryFs::new();
        fs.add_dir(root);
        ClaudeWorkspace {
            root: root.to_string(),
            real_root: real_root.to_string(),
            fs,
            answers: HostAnswers::new(root, real_root),
            rounds: 0,
            project: None,
            limits: FrameLimits::default(),
            instruction_dirs: InstructionListing::Unasked,
            watch: Watch::default(),
            host: WorkspaceHost::default(),
            global: None,
        }
    }

    /// Serves `host` from now on (set once, after [`new`](Self::new)):
    /// which rule formats are read, whether the global rules directory
    /// is, and which instruction files a delivery adds follow it
    /// (behaviour §5.2.4). The project loads again at the next refresh.
    pub fn set_host(&mut self, host: WorkspaceHost) {
        self.host = host;
        self.project = None;
        self.instruction_dirs = InstructionListing::Unasked;
    }

    /// The host served.
    pub fn host(&self) -> WorkspaceHost {
        self.host
    }

    /// Reads `dir` (absolute; see
    /// [`opencode_global_rules`](crate::opencode_global_rules)) as the
    /// global rules directory, its rules named from `home` (behaviour
    /// §5.2.4), when the host reads one; `None`, or a relative `dir`,
    /// reads none. The project loads again at the next refresh.
    pub fn set_global_rules(&mut self, dir: Option<&str>, home: Option<&str>) {
        self.global = dir.and_then(|dir| GlobalRules::new(dir, home));
        self.project = None;
    }

    /// Smaller frames, so tests can exercise splitting and deferral.
    pub fn set_limits(&mut self, limits: FrameLimits) {
        self.limits = limits;
    }

    /// The project root the workspace was made for.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Begins bringing the configuration and the rules up to date
    /// (behaviour §1.1, §1.2): what the host is to list, stat and read
    /// first. The host answers each ask ([`listed`](Self::listed),
    /// [`stated`](Self::stated), [`read_bytes`](Self::read_bytes),
    /// [`failed`](Self::failed)) and calls [`next_asks`](Self::next_asks)
    /// until it answers none.
    pub fn start_refresh(&mut self) -> Asks {
        self.rounds = 0;
        let asks = self.answers.start();
        if asks.is_empty() {
            return self.next_asks();
        }
        asks
    }

    /// [`start_refresh`](Self::start_refresh) for an event of `kind` at
    /// `now`, unless Claude Code's watch says nothing changed (behaviour
    /// §5.2.3): then nothing is asked and the project stays as it is.
    pub fn start_refresh_at(&mut self, now: i64, kind: RequestKind) -> Asks {
        let wrote = matches!(kind, RequestKind::Edit | RequestKind::Shell);
        let skip = self.project.is_some() && self.watch.may_skip(now, wrote);
        self.watch.skipped(skip);
        if skip {
            return Asks::default();
        }
        self.watch.begin(now);
        self.start_refresh()
    }

    /// The paths to ask Claude Code to watch: the outermost of those the
    /// last walk listed or stat'ed and of the documents the rules import
    /// (a watched directory is watched with everything below it). Empty
    /// before the first refresh.
    pub fn watch_paths(&mut self) -> Vec<String> {
        let mut paths = self.answers.answered_paths();
        paths.extend(self.imported_documents().unwrap_or_default());
        paths.sort_unstable();
        paths.dedup();
        watch::outermost(&paths)
    }

    /// Claude Code began watching [`watch_paths`](Self::watch_paths).
    pub fn watch_started(&mut self) {
        let watched = self.watch_paths();
        self.watch.started(watched);
    }

    /// Whether the document at `path`, checked before, need not be
    /// checked again for this event: its refresh was skipped under the
    /// watch, and the watch covers the document (behaviour §5.2.3).
    pub fn document_unchanged(&self, path: &str) -> bool {
        self.watch.unchanged(path)
    }

    /// Claude Code reported that `path`, below a watched path, changed.
    pub fn file_changed(&mut self, _path: &str) {
        self.watch.changed();
    }

    /// Runs the walk again over the answers so far: what it still needs,
    /// or nothing when the rules are up to date (the project loads again
    /// only when something changed).
    pub fn next_asks(&mut self) -> Asks {
        self.rounds += 1;
        self.answers.replay();
        let loaded = self.load_rules();
        let asks = self.answers.asks();
        if !asks.is_empty() && self.rounds < MAX_ROUNDS {
            return asks;
        }
        self.watch.finished();
        if self.answers.finish() || self.project.is_none() {
            self.project = Some(loaded.map(|(config, source, rules)| {
                Project::from_rules(&self.root, config, source, rules)
            }));
        }
        Asks::default()
    }

    /// The host listed `dir` (the entries as `$.fs.list` gives them).
    pub fn listed(&mut self, dir: &str, entries: Vec<HostEntry>) {
        self.answers.listed(dir, entries);
    }

    /// The host stat'ed `path` with its links resolved.
    pub fn stated(&mut self, path: &str, stat: HostStat) {
        self.answers.stated(path, stat);
    }

    /// The host read `path`.
    pub fn read_bytes(&mut self, path: &str, bytes: &[u8]) {
        self.answers.read_bytes(path, bytes.to_vec());
    }

    /// The host could not do what it was asked; `reason` in its words.
    pub fn failed(&mut self, kind: AskKind, path: &str, reason: &str) {
        self.answers.failed(kind, path, reason);
    }

    /// The host ran the git command [`Asks::git`] named, at the root:
    /// its exit code (`-1` when it could not run, `stderr` saying why)
    /// and its output.
    pub fn git_listed(&mut self, exit_code: i32, stdout: &str, stderr: &str) {
        self.answers.git_listed(exit_code, stdout, stderr);
    }

    /// A refresh driven to its end from `fs`, answering every ask at once
    /// (tests, and hosts that read files directly).
    pub fn refresh_from(&mut self, fs: &dyn crate::base::fs::FileSource) {
        let mut asks = self.start_refresh();
        while !asks.is_empty() {
            crate::rules::steps::answer_from(&mut self.answers, fs, &asks);
            asks = self.next_asks();
        }
    }

    /// Puts a document rules import: renders read it, the project does not
    /// load again.
    pub fn put_document(&mut self, path: &str, bytes: &[u8]) {
        self.fs.add_file(path, bytes);
    }

    /// A document of `len` bytes the mod did not read, being larger than
    /// the host reads: rendering it is an error naming its size.
    pub fn put_unread_document(&mut self, path: &str, len: u64) {
        self.fs.add_unread_file(path, len);
    }

    /// A symbolic link at `path` to `target` (absolute), among the
    /// documents.
    pub fn put_link(&mut self, path: &str, target: &str) {
        self.fs.add_link(path, target);
    }

    /// Removes a document, link or directory with everything below it.
    pub fn remove(&mut self, path: &str) {
        self.fs.remove(path);
    }

    /// Records that `dir` holds a `.git` entry, so it is a checkout root.
    pub fn mark_checkout(&mut self, dir: &str) {
        self.fs.add_dir(&paths::join(dir, ".git"));
    }

    /// The project, loaded from the answers once per change.
    pub fn project(&mut self) -> Result<&Project, Error> {
        if self.project.is_none() {
            self.project = Some(self.load_rules().map(|(config, source, rules)| {
                Project::from_rules(&self.root, config, source, rules)
            }));
        }
        match self.project.as_ref().expect("just loaded") {
            Ok(project) => Ok(project),
            Err(error) => Err(error.clone()),
        }
    }

    /// The documents the rules import, absolute: what the snapshot must hold
    /// before a delivery renders.
    pub fn imported_documents(&mut self) -> Result<Vec<String>, Error> {
        let root = self.root.clone();
        Ok(imported_documents(&root, self.project()?.rules.all()))
    }

    /// The entries for problems found while loading the rules.
    pub fn loading_problems(&mut self) -> Vec<String> {
        let root = self.root.clone();
        match self.project() {
            Ok(project) => project
                .rules
                .findings
                .iter()
                .map(|finding| loading_problem(&root, finding))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The edited file made absolute against the root (a tool may name it
    /// relatively) and normalised, and the directories whose `.git` entry
    /// decides its project-relative path (behaviour §5.6): every ancestor of
    /// its directory and of the project root.
    /// A path longer than any real one ([`MAX_PATH_BYTES`]) needs no probe:
    /// it matches nothing.
    pub fn edit_probes(&self, file: &str) -> (String, Vec<String>) {
        let file = paths::normalize_lexically(&paths::join(&self.root, file));
        if file.len() > MAX_PATH_BYTES {
            return (file, Vec::new());
        }
        let mut probes: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for start in [paths::parent(&file), Some(self.root.as_str())] {
            let mut current = start;
            while let Some(dir) = current {
                if seen.insert(dir) {
                    probes.push(dir.to_string());
                }
                current = paths::parent(dir);
            }
        }
        (file, probes)
    }

    /// The files of `git status --porcelain=v1 -z --untracked-files=all`
    /// output whose times the mod reads (relative to the checkout's real
    /// top level): those some rule could select, or below a directory
    /// holding an instruction file (behaviour §5.4, step 4).
    /// A project that does not load has every file timed; the event then
    /// reports why it does not load.
    pub fn shell_candidates(&mut self, porcelain: &[u8], toplevel: &str) -> Vec<String> {
        let host = self.host;
        let real_root = self.real_root.clone();
        let listed = match &self.instruction_dirs {
            InstructionListing::Listed(dirs) => Some(dirs.clone()),
            _ => None,
        };
        let (candidates, listed) = match self.project() {
            Ok(project) => {
                // The untracked instruction files git status names join
                // the tracked ones the listing told.
                let names = listing_names(project, host);
                let listed =
                    listed.map(|dirs| dirs.with_porcelain(porcelain, &names, toplevel, &real_root));
                let dirs = listed.clone().unwrap_or_default();
                let index = &project.index;
                let candidates = timing_candidates(porcelain, index, &dirs, toplevel, &real_root);
                (candidates, listed)
            }
            Err(_) => (candidate_paths(&parse_porcelain(porcelain)), listed),
        };
        if let Some(dirs) = listed {
            self.instruction_dirs = InstructionListing::Listed(dirs);
        }
        candidates
    }

    /// The git command listing the project's instruction files (behaviour
    /// §5.2.2): with `untracked`, those git does not ignore either, as an
    /// edit asks; without, the tracked ones only, as a shell check asks
    /// beside `git status` every time (which names the untracked ones).
    /// None when `:instructions` names none or is bad.
    pub fn instruction_listing(&mut self, untracked: bool) -> Vec<String> {
        let host = self.host;
        match self.project() {
            Ok(project) => {
                InstructionDirs::listing_command(&listing_names(project, host), untracked)
            }
            Err(_) => Vec::new(),
        }
    }

    /// Whether an edit must run [`ClaudeWorkspace::instruction_listing`]
    /// first: git has not been asked yet, or an event since may have added
    /// or removed an instruction file.
    pub fn instruction_listing_due(&mut self) -> bool {
        let host = self.host;
        matches!(self.instruction_dirs, InstructionListing::Unasked)
            && self
                .project()
                .is_ok_and(|project| !listing_names(project, host).is_empty())
    }

    /// What the listing printed, and its exit code (`-1`: it could not
    /// run). A listing that fails (no checkout) leaves every directory to
    /// be looked in, as if each might hold one.
    pub fn instructions_listed(&mut self, exit_code: i32, stdout: &[u8]) {
        let host = self.host;
        let names = match self.project() {
            Ok(project) => listing_names(project, host),
            Err(_) => Vec::new(),
        };
        self.instruction_dirs = match exit_code {
            0 => InstructionListing::Listed(InstructionDirs::from_listing(stdout, &names)),
            _ => InstructionListing::Unavailable,
        };
    }

    /// Whether the instruction file `file` (project-relative) may be
    /// there, as far as git's listing tells.
    fn may_be_instruction(&self, file: &str) -> bool {
        match &self.instruction_dirs {
            InstructionListing::Listed(listed) => listed.lists(file),
            _ => true,
        }
    }

    /// What a shell event needs gathered, given the session's saved state.
    pub fn shell_plan(&mut self, state: &str) -> ShellPlan {
        let on = self
            .project()
            .ok()
            .and_then(|project| project.config.shell_hook().ok())
            .is_none_or(|hook| hook.claude);
        if !on {
            return ShellPlan::Off;
        }
        match SessionState::parse(state) {
            Ok(state) if state.shell.needs_git() => ShellPlan::Check,
            Ok(_) => ShellPlan::Start,
            // A broken state starts afresh; `decide` says so.
            Err(_) => ShellPlan::Start,
        }
    }

    /// Decides one event (behaviour §5.2.2).
    pub fn decide(&mut self, request: &EventRequest) -> EventResponse {
        let (state, state_error) = match SessionState::parse(&request.state) {
            Ok(state) => (state, None),
            Err(why) => (SessionState::default(), Some(why)),
        };
        let mut response = self.decide_with(request, state.clone());
        if let Some(why) = &state_error {
            response
                .entries
                .insert(0, corrupt_state_entry(&request.state_file, why));
            response.log.push(format!(
                "rule-fairy: {} is not a session state ({why}); kept a copy and started afresh",
                request.state_file
            ));
        }
        response.state_error = state_error.clone();
        if response.state.is_none() && state_error.is_some() {
            response.state = Some(state.to_json(request.now));
        }
        response
    }

    /// What the mod gathers besides the event: the facts rules test, the
    /// marker files for project tags, and where gate rules would be.
    pub fn wants(&mut self) -> Wants {
        let root = self.root.clone();
        // A project that does not load is the delivery's to report; its
        // gate is looked for where it is whatever the configuration says.
        let (facts, gate): (Vec<String>, _) = match self.project() {
            Ok(project) => (
                project
                    .index
                    .wanted_facts()
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
                gate_probes(&root, Some(&project.config)),
            ),
            Err(_) => (Vec::new(), gate_probes(&root, None)),
        };
        let wanted = |fact: &str| facts.iter().any(|f| f == fact);
        let mut markers = Vec::new();
        if wanted("project") {
            for name in project_markers() {
                markers.push(paths::join(&root, name));
            }
        }
        let ci = if wanted("ci") {
            CI_VARIABLES.to_vec()
        } else {
            Vec::new()
        };
        Wants {
            facts,
            markers,
            ci,
            gate,
        }
    }

    /// The files whose text `fileContains` would test for `request`,
    /// absolute: the edited file, or the changed files a shell event
    /// delivers for; none when no rule tests contents.
    pub fn contents_due(&mut self, request: &EventRequest) -> Vec<String> {
        let needed = self
            .project()
            .is_ok_and(|project| project.index.needs_contents());
        if !needed {
            return Vec::new();
        }
        let saved = SessionState::parse(&request.state).unwrap_or_default();
        match self.prepare(request, saved) {
            Ok(prepared) => prepared.content_files(&self.root),
            Err(_) => Vec::new(),
        }
    }

    /// The facts the event's rules are tested against: what the mod
    /// gathered, and the project's tags from the markers it put in.
    fn facts(&self, request: &EventRequest) -> Facts {
        let tags = self
            .project
            .as_ref()
            .and_then(|loaded| loaded.as_ref().ok())
            .filter(|project| project.index.wanted_facts().contains(&"project"))
            .map(|_| project_tags(&self.fs, &self.root));
        request.facts.facts(tags)
    }

    /// A read file as the project names it: relative to the root, or to
    /// the root's real path.
    fn read_path(&self, file: &str) -> String {
        let file = paths::normalize_lexically(&paths::join(&self.root, file));
        [&self.root, &self.real_root]
            .iter()
            .find_map(|root| paths::strip_base(&file, root))
            .map_or_else(|| paths::relative_path(&self.root, &file), str::to_string)
    }

    /// Whether a read of `file` may bring a rule: it is the file of a
    /// requestable rule (behaviour §9.2) or lies below a nested folder's
    /// always-on rule (§1.2) of the project as last loaded, or no project
    /// was loaded yet. The mod asks before gathering anything, so the
    /// reads of other files cost one lookup.
    pub fn read_may_deliver(&self, file: &str) -> bool {
        match &self.project {
            Some(Ok(project)) => {
                let path = self.read_path(file);
                !project.index.requests().read(&[&path]).is_empty()
                    || project.index.read_may_reach_below_base(&path)
            }
            _ => true,
        }
    }

    /// Whether subagents get the rules (`:subagents`, behaviour §1.1): on
    /// unless the project as last loaded turns it off. A configuration that
    /// does not load leaves it on, so its error reaches the subagent too.
    pub fn subagents(&self) -> bool {
        match &self.project {
            Some(Ok(project)) => project.config.subagents().unwrap_or(true),
            _ => true,
        }
    }

    /// Whether the mod may read a file for `fileContains` (behaviour
    /// §0.1), from what a stat with links resolved told: a regular file
    /// within the read bound whose real path lies inside the project.
    pub fn may_read(&self, real: &str, kind: Kind, len: u64) -> bool {
        Containment::project(&self.fs, &self.root)
            .with(&self.fs, &self.real_root)
            .judge(&paths::normalize_lexically(real), kind, len)
            .is_ok()
    }

    /// The documents a delivery for `request` would read: those the due
    /// rules import. The mod makes sure of exactly these before deciding,
    /// instead of every document of the rule set on every event.
    pub fn documents_due(&mut self, request: &EventRequest) -> Vec<String> {
        let saved = SessionState::parse(&request.state).unwrap_or_default();
        let Ok(prepared) = self.prepare(request, saved) else {
            return Vec::new();
        };
        let facts = self.facts(request);
        let Some(Ok(project)) = &self.project else {
            return Vec::new();
        };
        let query = query(project, &prepared.event, &facts, &request.contents);
        let looked_at = Recording::new(&self.fs);
        let may_exist = |file: &str| self.may_be_instruction(file);
        let selection = with_instructions_left_out(
            &looked_at,
            project,
            select(project, &query),
            &prepared.event,
            self.host.loading(),
            &may_exist,
        );
        let in_context = self.held_in_context(&request.context);
        let due = due_in(
            &selection,
            &in_context,
            &prepared.state.delivered,
            request.now,
        );
        let mut documents =
            imported_documents(&self.root, due.iter().filter_map(|name| project.rule(name)));
        // The instruction files looked for below the root, and what those
        // found import: the mod makes sure of them and asks again, until
        // the lookup asks for nothing new (behaviour §5.3).
        // One the conversation holds already needs no look: it is not
        // delivered again.
        for file in looked_at.asked() {
            let Some(path) = paths::strip_base(&file, &self.root).filter(|rest| !rest.is_empty())
            else {
                continue;
            };
            let name = instructions::delivered_name(path);
            let held = selection.rules.contains(&name) && !due.contains(&name);
            if !held && !documents.contains(&file) {
                documents.push(file);
            }
        }
        documents
    }

    /// What the conversation holds: the rules of our deliveries, and the
    /// instruction files the host loaded itself, by the names our
    /// deliveries would give them.
    fn held_in_context(&self, texts: &[String]) -> Vec<String> {
        let mut held = rules_in_context(texts);
        held.extend(
            files_loaded_by_host(texts, self.host)
                .iter()
                .map(|file| instructions::delivered_name(&self.read_path(file))),
        );
        held
    }

    /// The event as the engine decides it, the state with the shell check
    /// advanced, and the loading problems to show; or the answer already.
    fn prepare(
        &mut self,
        request: &EventRequest,
        saved: SessionState,
    ) -> Result<Prepared, Box<EventResponse>> {
        let kind = request.kind.kind();
        let failed = |detail: String| {
            let outcome = Outcome {
                entries: vec![delivery_failed(kind.name(), "failed", &detail)],
                log: vec![format!(
                    "rule-fairy: {}",
                    failure_summary(kind.name(), "failed", &detail)
                )],
                ..Outcome::default()
            };
            respond(outcome, None)
        };
        let shell_hook = match self.project() {
            Ok(project) => project.config.shell_hook(),
            Err(error) => return Err(Box::new(failed(error.to_string()))),
        };
        let mut state = saved;
        let mut problems = Vec::new();
        let mut edited_file = None;
        let event = match request.kind {
            RequestKind::Prompt => {
                let found = self.loading_problems();
                // Shown once per session and again when they change: the
                // person saw them, and they stay until a rule is fixed.
                if found != state.problems {
                    state.problems = found.clone();
                    problems = found;
                }
                Event::Prompt {
                    text: request.prompt.clone().unwrap_or_default(),
                }
            }
            RequestKind::Edit => {
                let (file, _) = self.edit_probes(request.file.as_deref().unwrap_or_default());
                let path = project_relative_path(&self.fs, &self.root, &file);
                edited_file = Some(file);
                Event::Edit { paths: vec![path] }
            }
            RequestKind::Read => Event::Read {
                paths: vec![self.read_path(request.file.as_deref().unwrap_or_default())],
            },
            RequestKind::Shell => {
                match shell_hook {
                    Ok(hook) if hook.claude => {}
                    Ok(_) => return Err(Box::default()),
                    Err(error) => return Err(Box::new(failed(error.to_string()))),
                }
                match (&request.shell, state.shell.checked_at_ms) {
                    (Some(report), Some(marker)) => {
                        let found: Vec<String> = report
                            .changed
                            .iter()
                            .filter(|(_, at)| changed_since(marker, *at))
                            .map(|(path, _)| path.clone())
                            .collect();
                        let found = match toplevel(&report.toplevel) {
                            Some(top) => project_paths(top, &self.real_root, &found),
                            None => Vec::new(),
                        };
                        state.shell.record_check(report.started, &found);
                    }
                    // No check was running: this one starts it.
                    _ => {
                        state.shell.start(request.now);
                    }
                }
                Event::Shell {
                    paths: state.shell.pending.clone(),
                }
            }
        };
        Ok(Prepared {
            event,
            edited_file,
            state,
            problems,
        })
    }

    fn decide_with(&mut self, request: &EventRequest, saved: SessionState) -> EventResponse {
        let kind = request.kind.kind();
        let Prepared {
            event,
            state,
            problems,
            ..
        } = match self.prepare(request, saved.clone()) {
            Ok(prepared) => prepared,
            Err(response) => return *response,
        };
        let in_context = self.held_in_context(&request.context);
        let id = delivery_id(kind, &request.key);
        let limits = self.limits;
        let facts = self.facts(request);
        let Some(Ok(project)) = &self.project else {
            unreachable!("loaded above")
        };
        let may_exist = |file: &str| self.may_be_instruction(file);
        let thread = request.thread.as_ref().map(ThreadRequest::named);
        let circumstances = Circumstances {
            delivery_id: &id,
            in_context: &in_context,
            now_ms: request.now,
            limits,
            may_exist_instructions: &may_exist,
            loading: self.host.loading(),
            thread: thread.as_deref(),
            per_turn_apart: self.host.per_turn_apart(),
        };
        let query = query(project, &event, &facts, &request.contents);
        let mut outcome = decide(&self.fs, project, &query, state, circumstances);
        outcome.entries.extend(problems);
        // A rules folder may have come or gone, or what git ignores
        // changed: the next refresh asks git again (behaviour §1.2).
        let folders = folder_names(&project.source);
        if event
            .matched_paths()
            .iter()
            .any(|path| may_move_folders(path, &folders))
        {
            self.answers.forget_folders();
        }
        // An instruction file may have come or gone: the next edit asks
        // git where they are again.
        let names = listing_names(project, self.host);
        if event
            .matched_paths()
            .iter()
            .any(|path| InstructionDirs::names_one(path, &names))
        {
            self.instruction_dirs = InstructionListing::Unasked;
        }
        let changed = outcome.state != saved;
        respond(outcome, changed.then_some(request.now))
    }
}

/// The file names whose places the instruction listing asks of git
/// (behaviour §5.2.2, §5.2.4): the configured ones and those beside them
/// that decide whether the host takes them (the CLAUDE files for Claude
/// Code, `AGENTS.md` and `CLAUDE.md` for opencode); none when
/// `:instructions` names none or is bad, so no listing runs.
fn listing_names(project: &Project, host: WorkspaceHost) -> Vec<String> {
    match project.config.instruction_files() {
        Ok(names) if !names.is_empty() => host.loading().looks_for(&names),
        _ => Vec::new(),
    }
}

impl ClaudeWorkspace {
    /// The walk over the answers: the configuration, where the host reads
    /// rules from, and the rules read; the project is built from them only
    /// when they changed.
    fn load_rules(&self) -> Result<(Config, crate::config::RulesSource, RuleSet), Error> {
        let (answers, root) = (&self.answers, self.root.as_str());
        let config = Config::load(answers, root)?;
        let source = self
            .host
            .rules_source(config.rules_source(root)?, self.global.as_ref());
        let listing = list_rule_files(answers, &source)?;
        let rules = RuleSet::read(answers, listing);
        Ok((config, source, rules))
    }
}

struct Prepared {
    event: Event,
    /// An edit's file, absolute, where its content is read.
    edited_file: Option<String>,
    state: SessionState,
    problems: Vec<String>,
}

impl Prepared {
    /// The files whose text `fileContains` tests for this event, absolute,
    /// in the order of [`Event::matched_paths`]: the edited file, or each
    /// changed path below `root`.
    fn content_files(&self, root: &str) -> Vec<String> {
        match (&self.event, &self.edited_file) {
            (Event::Edit { .. }, Some(file)) => vec![file.clone()],
            (event, _) => event
                .matched_paths()
                .iter()
                .map(|path| paths::join(root, path))
                .collect(),
        }
    }
}

/// The query an event is selected with: the facts, and the contents the
/// mod read for [`ClaudeWorkspace::contents_due`] when some rule tests them.
fn query<'a>(
    project: &Project,
    event: &'a Event,
    facts: &'a Facts,
    contents: &'a [Option<String>],
) -> Query<'a> {
    Query::new(event, facts).with_contents(project.index.needs_contents().then_some(contents))
}

fn respond(outcome: Outcome, save_at: Option<i64>) -> EventResponse {
    EventResponse {
        state: save_at.map(|now| outcome.state.to_json(now)),
        entries: outcome.entries,
        per_turn: outcome.per_turn,
        delivered: outcome.delivered,
        deferred: outcome.deferred,
        log: outcome.log,
        state_error: None,
    }
}

fn corrupt_state_entry(file: &str, why: &str) -> String {
    format!("[rule-fairy error: {file} is not a session state ({why})]\nA copy was kept beside it and the session started afresh; rules the conversation holds are still not repeated.")
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIDGET: &str = "---\nglobs: src/**\npromptAnyOf: widget\n---\n# Widget rule\n\nWidgets.";

    /// A workspace and the files its host answers from: a file put in is
    /// written there, newer than before, and the workspace refreshed, as
    /// the mod refreshes before each event.
    struct Host {
        ws: ClaudeWorkspace,
        files: MemoryFs,
        time: i64,
    }

    impl Host {
        fn put_file(&mut self, path: &str, bytes: &[u8]) {
            self.time += 1;
            self.files.add_file_with_time(path, bytes, self.time);
            self.ws.refresh_from(&self.files);
        }
    }

    impl std::ops::Deref for Host {
        type Target = ClaudeWorkspace;
        fn deref(&self) -> &ClaudeWorkspace {
            &self.ws
        }
    }

    impl std::ops::DerefMut for Host {
        fn deref_mut(&mut self) -> &mut ClaudeWorkspace {
            &mut self.ws
        }
    }

    fn workspace(files: &[(&str, &str)]) -> Host {
        let mut host = Host {
            ws: ClaudeWorkspace::new("/p", "/p"),
            files: MemoryFs::new(),
            time: 0,
        };
        host.files.add_dir("/p");
        for (path, text) in files {
            host.put_file(&format!("/p/{path}"), text.as_bytes());
        }
        host.ws.refresh_from(&host.files);
        host
    }

    fn request(kind: RequestKind, now: i64, state: &str) -> EventRequest {
        EventRequest {
            kind,
            key: format!("{kind:?}-{now}"),
            prompt: None,
            file: None,
            shell: None,
            context: Vec::new(),
            state: state.to_string(),
            state_file: ".rule-fairy/claude/s.json".to_string(),
            now,
            facts: HostFacts::default(),
            contents: Vec::new(),
            thread: None,
        }
    }

    fn prompt(text: &str, now: i64, state: &str) -> EventRequest {
        EventRequest {
            prompt: Some(text.to_string()),
            ..request(RequestKind::Prompt, now, state)
        }
    }

    fn edit(file: &str, now: i64, state: &str) -> EventRequest {
        EventRequest {
            file: Some(file.to_string()),
            ..request(RequestKind::Edit, now, state)
        }
    }

    /// Entries wrapped as Claude Code shows them to the model.
    fn as_reminder(entries: &[String]) -> String {
        format!(
            "<system-reminder>\ntool.call hook additional context: {}\n</system-reminder>",
            entries.join("\n")
        )
    }

    fn saved(response: &EventResponse) -> String {
        response.state.clone().expect("a state to save")
    }

    #[test]
    fn the_conversation_and_the_minute_decide_what_is_due() {
        let mut ws = workspace(&[
            (".cursor/rules/a.mdc", "---\nglobs: src/**\n---\n# A rule"),
            (".cursor/rules/b.mdc", "---\nglobs: src/**\n---\n# B rule"),
        ]);
        let t0 = 1_000_000;
        // Frames of an earlier delivery of a.mdc alone, still in context.
        let mut a_only = workspace(&[(".cursor/rules/a.mdc", "---\nglobs: src/**\n---\n# A rule")]);
        let a_delivery = a_only.decide(&edit("/p/src/x.ts", 1, ""));
        assert_eq!(a_delivery.delivered, vec!["a.mdc"]);

        // behaviour §7.8, 78: frames showing a.mdc; only b.mdc is due.
        let mut at_t0 = edit("/p/src/a.ts", t0, "");
        at_t0.context = vec![as_reminder(&a_delivery.entries)];
        let response = ws.decide(&at_t0);
        assert_eq!(response.delivered, vec!["b.mdc"]);
        assert!(response.entries[0].contains("# B rule"));
        assert!(!response.entries[0].contains("# A rule"));
        let state = saved(&response);
        assert_eq!(
            SessionState::parse(&state).unwrap().delivered,
            [("b.mdc".to_string(), t0)].into()
        );

        // 79: 59 s later, still only a.mdc in the conversation: nothing.
        let mut later = edit("/p/src/a.ts", t0 + 59_000, &state);
        later.context = at_t0.context.clone();
        let response = ws.decide(&later);
        assert!(response.entries.is_empty());
        assert_eq!(response.state, None, "nothing changed, nothing to save");

        // 80: 61 s later with nothing in the conversation (compacted): both.
        let response = ws.decide(&edit("/p/src/a.ts", t0 + 61_000, &state));
        assert_eq!(response.delivered, vec!["a.mdc", "b.mdc"]);
        let delivered = SessionState::parse(&saved(&response)).unwrap().delivered;
        assert_eq!(delivered["a.mdc"], t0 + 61_000);
        assert_eq!(delivered["b.mdc"], t0 + 61_000);
    }

    #[test]
    fn prompts_deliver_always_on_then_keyword_rules() {
        let mut ws = workspace(&[
            (
                ".cursor/rules/base.mdc",
                "---\nalwaysApply: true\n---\n# Base rule",
            ),
            (".cursor/rules/widget.mdc", WIDGET),
        ]);
        // behaviour §7.8, 81.
        let first = ws.decide(&prompt("hello there", 1_000, ""));
        let text = first.entries.join("\n");
        assert!(text.contains("[rule-fairy injected: base.mdc]"));
        assert!(text.contains("[rule-fairy matched: alwaysApply base.mdc]"));
        assert!(!text.contains("keyword"));
        assert!(!text.contains("# Widget rule"));
        let state = saved(&first);
        let second = ws.decide(&prompt("add a widget", 2_000, &state));
        let text = second.entries.join("\n");
        assert!(text.contains("[rule-fairy injected: widget.mdc]"));
        assert!(text.contains("[rule-fairy matched: keyword \"widget\"]"));
        assert!(!text.contains("base.mdc"));
        let state = saved(&second);
        assert!(ws
            .decide(&prompt("hello there", 3_000, &state))
            .entries
            .is_empty());
        // The prompt started the shell check.
        assert_eq!(
            SessionState::parse(&state).unwrap().shell.checked_at_ms,
            Some(1_000)
        );
    }

    /// Drives a refresh from `fs`, returning each round's asks.
    fn rounds(ws: &mut ClaudeWorkspace, fs: &MemoryFs) -> Vec<Asks> {
        let mut rounds = Vec::new();
        let mut asks = ws.start_refresh();
        while !asks.is_empty() {
            crate::rules::steps::answer_from(&mut ws.answers, fs, &asks);
            rounds.push(asks);
            asks = ws.next_asks();
        }
        rounds
    }

    /// [`rounds`] for an event of `kind` at `now`, as the mod refreshes.
    fn rounds_at(
        ws: &mut ClaudeWorkspace,
        fs: &MemoryFs,
        now: i64,
        kind: RequestKind,
    ) -> Vec<Asks> {
        let mut rounds = Vec::new();
        let mut asks = ws.start_refresh_at(now, kind);
        while !asks.is_empty() {
            crate::rules::steps::answer_from(&mut ws.answers, fs, &asks);
            rounds.push(asks);
            asks = ws.next_asks();
        }
        rounds
    }

    fn body_of(ws: &mut ClaudeWorkspace, name: &str) -> String {
        ws.project()
            .unwrap()
            .rules
            .get(name)
            .unwrap()
            .body()
            .to_string()
    }

    #[test]
    fn under_the_watch_a_prompt_asks_nothing_until_a_change_is_reported() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "# A")
            .add_file("/p/.cursor/rules/deep/b.mdc", "# B");
        let mut ws = ClaudeWorkspace::new("/p", "/p");
        // Before the watch, every prompt asks again.
        assert!(!rounds_at(&mut ws, &fs, 1_000, RequestKind::Prompt).is_empty());
        assert!(!rounds_at(&mut ws, &fs, 1_100, RequestKind::Prompt).is_empty());
        let watched = ws.watch_paths();
        assert!(
            watched.contains(&"/p/.cursor/rules".to_string()),
            "{watched:?}"
        );
        assert!(!watched.iter().any(|p| p.starts_with("/p/.cursor/rules/")));
        assert!(!watched.contains(&"/p".to_string()), "{watched:?}");
        ws.watch_started();
        // The first refresh under the watch is full; then nothing is asked.
        assert!(!rounds_at(&mut ws, &fs, 1_200, RequestKind::Prompt).is_empty());
        assert!(rounds_at(&mut ws, &fs, 1_300, RequestKind::Prompt).is_empty());
        assert!(rounds_at(&mut ws, &fs, 1_400, RequestKind::Read).is_empty());
        // A change reported: the next prompt sees the rule as edited,
        // added or deleted.
        fs.add_file_with_time("/p/.cursor/rules/deep/b.mdc", "# B, revised", 5);
        fs.add_file("/p/.cursor/rules/c.mdc", "# C");
        ws.file_changed("/p/.cursor/rules/deep/b.mdc");
        assert!(!rounds_at(&mut ws, &fs, 1_500, RequestKind::Prompt).is_empty());
        assert_eq!(body_of(&mut ws, "deep/b.mdc"), "# B, revised");
        assert_eq!(ws.project().unwrap().rules.names().len(), 3);
        assert!(rounds_at(&mut ws, &fs, 1_600, RequestKind::Prompt).is_empty());
        fs.remove("/p/.cursor/rules/c.mdc");
        ws.file_changed("/p/.cursor/rules/c.mdc");
        rounds_at(&mut ws, &fs, 1_700, RequestKind::Prompt);
        assert_eq!(ws.project().unwrap().rules.names().len(), 2);
    }

    #[test]
    fn a_change_the_watch_missed_is_seen_by_the_next_edit_or_within_the_bound() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "# A");
        let mut ws = ClaudeWorkspace::new("/p", "/p");
        ws.watch_started();
        rounds_at(&mut ws, &fs, 1_000, RequestKind::Prompt);
        fs.add_file_with_time("/p/.cursor/rules/a.mdc", "# A, revised", 5);
        // No change reported: a prompt keeps what it had...
        assert!(rounds_at(&mut ws, &fs, 2_000, RequestKind::Prompt).is_empty());
        assert_eq!(body_of(&mut ws, "a.mdc"), "# A");
        // ...an edit or a shell command, which may have written it, does not.
        assert!(!rounds_at(&mut ws, &fs, 2_100, RequestKind::Edit).is_empty());
        assert_eq!(body_of(&mut ws, "a.mdc"), "# A, revised");
        assert!(!rounds_at(&mut ws, &fs, 2_200, RequestKind::Shell).is_empty());
        // Missed, with no write between: seen once the last full refresh
        // is older than the bound.
        fs.add_file_with_time("/p/.cursor/rules/a.mdc", "# A, third", 6);
        let bound = 2_200 + watch::FULL_REFRESH_MS;
        assert!(rounds_at(&mut ws, &fs, bound - 1, RequestKind::Prompt).is_empty());
        assert!(!rounds_at(&mut ws, &fs, bound, RequestKind::Prompt).is_empty());
        assert_eq!(body_of(&mut ws, "a.mdc"), "# A, third");
    }

    #[test]
    fn the_walk_in_steps_finds_what_the_native_walk_finds() {
        // One walk: the same tree through the host's answers and through
        // the file source directly gives the same rules and findings.
        let mut fs = MemoryFs::new();
        fs.add_file("/p/rule-fairy.edn", "{:formats [:claude :cline]}")
            .add_file("/p/.cursor/rules/a.mdc", "# A")
            .add_file("/p/.cursor/rules/bad.mdc", b"\xff".as_slice())
            .add_file("/p/shared/s.mdc", "# S")
            .add_link("/p/.cursor/rules/shared", "/p/shared")
            .add_link("/p/.cursor/rules/loop", "..")
            .add_link("/p/.cursor/rules/gone.mdc", "/p/nowhere")
            .add_file("/outside/.ssh/id_rsa", "KEY")
            .add_link("/p/.claude/rules/team.md", "../../../outside/.ssh/id_rsa")
            .add_file("/p/.claude/rules/c.md", "# C")
            .add_file("/p/.clinerules", "# Cline");
        let native = Project::load(&fs, "/p").unwrap();
        let mut ws = ClaudeWorkspace::new("/p", "/p");
        ws.refresh_from(&fs);
        let stepped = ws.project().unwrap();
        assert_eq!(stepped.rules.names(), native.rules.names());
        assert_eq!(stepped.rules.findings, native.rules.findings);
        assert_eq!(
            native.rules.names(),
            vec![".clinerules", "a.mdc", "c.md", "shared/s.mdc"]
        );
        assert!(native
            .rules
            .findings
            .iter()
            .any(|f| f.place.file == "/p/.claude/rules/team.md"));
    }

    #[test]
    fn a_refresh_asks_again_in_one_round_and_reads_only_what_changed() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "# A")
            .add_file("/p/.cursor/rules/deep/b.mdc", "# B")
            .add_file("/p/.cursor/rules/deep/er/c.mdc", "# C");
        let mut ws = ClaudeWorkspace::new("/p", "/p");
        let first = rounds(&mut ws, &fs);
        let reads: Vec<&String> = first.iter().flat_map(|r| &r.read).collect();
        assert_eq!(reads.len(), 3, "{first:?}");
        assert_eq!(ws.project().unwrap().rules.names().len(), 3);
        // Nothing changed: everything the last walk used, asked at once;
        // nothing read.
        let again = rounds(&mut ws, &fs);
        assert_eq!(again.len(), 1, "{again:?}");
        assert!(again[0].read.is_empty());
        assert!(again[0]
            .list
            .contains(&"/p/.cursor/rules/deep/er".to_string()));
        // One file changed: it alone is read again.
        fs.add_file_with_time("/p/.cursor/rules/deep/b.mdc", "# B, revised", 5);
        let changed = rounds(&mut ws, &fs);
        let reads: Vec<&String> = changed.iter().flat_map(|r| &r.read).collect();
        assert_eq!(reads, vec!["/p/.cursor/rules/deep/b.mdc"]);
        assert_eq!(
            ws.project()
                .unwrap()
                .rules
                .get("deep/b.mdc")
                .unwrap()
                .body(),
            "# B, revised"
        );
        // A directory gone: its rules leave, and it is not asked again.
        fs.remove("/p/.cursor/rules/deep");
        rounds(&mut ws, &fs);
        assert_eq!(ws.project().unwrap().rules.names(), vec!["a.mdc"]);
        let after = rounds(&mut ws, &fs);
        assert!(after
            .iter()
            .all(|r| r.list.iter().all(|d| !d.contains("deep"))));
    }

    /// A checkout with a root rule and a nested folder with a glob rule
    /// and an always-on rule.
    fn monorepo() -> MemoryFs {
        let mut fs = MemoryFs::new();
        fs.add_dir("/p/.git")
            .add_file(
                "/p/.cursor/rules/base.mdc",
                "---\nalwaysApply: true\n---\n# Base",
            )
            .add_file(
                "/p/packages/web/.cursor/rules/ui.mdc",
                "---\nglobs: src/**\n---\n# Web UI",
            )
            .add_file(
                "/p/packages/web/.cursor/rules/web.mdc",
                "---\nalwaysApply: true\n---\n# Web always",
            )
            .add_file("/p/packages/web/src/a.ts", "")
            .add_file("/outside/rules/o.mdc", "# Outside")
            .add_link("/p/packages/out/.cursor/rules", "/outside/rules")
            .add_link("/p/packages/loop/.cursor/rules", "..");
        fs
    }

    #[test]
    fn nested_folders_are_asked_of_git_once_and_after_an_edit_in_one() {
        let fs = monorepo();
        let mut ws = ClaudeWorkspace::new("/p", "/p");
        let first = rounds(&mut ws, &fs);
        let gits: Vec<&Vec<String>> = first
            .iter()
            .map(|r| &r.git)
            .filter(|g| !g.is_empty())
            .collect();
        assert_eq!(gits.len(), 1, "{first:?}");
        assert_eq!(gits[0][..2], ["git".to_string(), "ls-files".to_string()]);
        // The same rules and findings as the walk over the files directly.
        let native = Project::load(&fs, "/p").unwrap();
        let stepped = ws.project().unwrap();
        assert_eq!(stepped.rules.names(), native.rules.names());
        assert_eq!(stepped.rules.findings, native.rules.findings);
        assert_eq!(
            native.rules.findings.len(),
            2,
            "{:?}",
            native.rules.findings
        );
        assert_eq!(
            native.rules.names(),
            vec![
                "base.mdc",
                "packages/web/.cursor/rules/ui.mdc",
                "packages/web/.cursor/rules/web.mdc"
            ]
        );
        // Later events list the folders again, and ask git nothing.
        let again = rounds(&mut ws, &fs);
        assert_eq!(again.len(), 1, "{again:?}");
        assert!(again[0].git.is_empty());
        assert!(again[0]
            .list
            .contains(&"/p/packages/web/.cursor/rules".to_string()));
        // An edit inside a rules folder: the next refresh asks git again.
        ws.decide(&edit("/p/packages/api/.cursor/rules/new.mdc", 1, ""));
        let after = rounds(&mut ws, &fs);
        assert_eq!(after.iter().filter(|r| !r.git.is_empty()).count(), 1);
    }

    #[test]
    fn a_folder_made_during_the_session_is_found_after_an_edit_in_it() {
        let mut fs = monorepo();
        let mut ws = ClaudeWorkspace::new("/p", "/p");
        ws.refresh_from(&fs);
        ws.decide(&prompt("hello", 1_000, ""));
        fs.add_file(
            "/p/packages/api/.cursor/rules/api.mdc",
            "---\nglobs: **/*\n---\n# Api",
        );
        ws.refresh_from(&fs);
        ws.decide(&edit("/p/packages/api/.cursor/rules/api.mdc", 2_000, ""));
        let asks = rounds(&mut ws, &fs);
        assert_eq!(
            asks.iter().filter(|r| !r.git.is_empty()).count(),
            1,
            "{asks:?}"
        );
        let response = ws.decide(&edit("/p/packages/api/x.ts", 3_000, ""));
        assert_eq!(
            response.delivered,
            vec!["packages/api/.cursor/rules/api.mdc"]
        );
    }

    #[test]
    fn a_nested_folders_rules_come_with_the_first_touch_below_it() {
        let fs = monorepo();
        let mut ws = ClaudeWorkspace::new("/p", "/p");
        ws.refresh_from(&fs);
        let first = ws.decide(&prompt("hello", 1_000, ""));
        let text = first.entries.join("\n");
        assert!(text.contains("[rule-fairy injected: base.mdc]"), "{text}");
        assert!(!text.contains("Web"), "{text}");
        // The same relative path at the root: nothing of the folder.
        let state = saved(&first);
        assert!(ws
            .decide(&edit("/p/src/a.ts", 2_000, &state))
            .entries
            .is_empty());
        let below = ws.decide(&edit("/p/packages/web/src/a.ts", 3_000, &state));
        assert_eq!(
            below.delivered,
            vec![
                "packages/web/.cursor/rules/ui.mdc",
                "packages/web/.cursor/rules/web.mdc"
            ]
        );
        let text = below.entries.join("\n");
        assert!(
            text.contains("[rule-fairy matched: glob on packages/web/src/a.ts]"),
            "{text}"
        );
        // Held: a second touch below the folder brings nothing again.
        let state = saved(&below);
        let second = ws.decide(&edit("/p/packages/web/README.md", 4_000, &state));
        assert!(second.entries.is_empty(), "{:?}", second.entries);
    }

    #[test]
    fn git_that_fails_is_a_warning_and_the_root_rules_still_come() {
        let fs = monorepo();
        let mut ws = ClaudeWorkspace::new("/p", "/p");
        let mut asks = ws.start_refresh();
        while !asks.is_empty() {
            let git = std::mem::take(&mut asks.git);
            crate::rules::steps::answer_from(&mut ws.answers, &fs, &asks);
            if !git.is_empty() {
                ws.git_listed(
                    128,
                    "",
                    "fatal: detected dubious ownership in repository at '/p'\n",
                );
            }
            asks = ws.next_asks();
        }
        assert_eq!(ws.project().unwrap().rules.names(), vec!["base.mdc"]);
        let response = ws.decide(&prompt("hello", 1_000, ""));
        let text = response.entries.join("\n");
        assert!(text.contains("[rule-fairy injected: base.mdc]"), "{text}");
        assert!(
            text.contains("Nested rule folders were not looked for: git ls-files failed (exit 128): fatal: detected dubious ownership"),
            "{text}"
        );
    }

    #[test]
    fn a_rule_linked_outside_the_project_is_never_asked_for_and_is_shown() {
        // issue 20: the link's target is stat'ed (to know where it leads),
        // never read.
        let mut ws = workspace(&[(".claude/rules/ok.md", "# Ok")]);
        ws.files
            .add_file("/outside/.ssh/id_rsa", "PRIVATE KEY")
            .add_link("/p/.claude/rules/team.md", "../../../outside/.ssh/id_rsa");
        ws.put_file("/p/rule-fairy.edn", b"{:formats [:claude]}");
        let files = ws.files.clone();
        let asked = rounds(&mut ws, &files);
        assert!(asked
            .iter()
            .all(|r| r.read.iter().all(|p| !p.contains("team"))));
        let response = ws.decide(&prompt("hi", 1_000, ""));
        let text = response.entries.join("\n");
        assert!(!text.contains("PRIVATE KEY"));
        assert!(text.contains("[rule-fairy injected: ok.md]"), "{text}");
        assert!(
            text.contains(
                "[rule-fairy error: .claude/rules/team.md: Links outside the project, so it is not read as a rule"
            ),
            "{text}"
        );
    }

    #[test]
    fn the_mod_reads_contents_only_inside_the_project() {
        use crate::base::contain::MAX_READ_BYTES;
        let ws = ClaudeWorkspace::new("/p", "/real/p");
        assert!(ws.may_read("/p/src/a.ts", Kind::File, 10));
        assert!(ws.may_read("/real/p/src/a.ts", Kind::File, 10));
        assert!(!ws.may_read("/outside/.ssh/id_rsa", Kind::File, 10));
        assert!(!ws.may_read("/p/../etc/passwd", Kind::File, 10));
        assert!(!ws.may_read("/p/src/pipe", Kind::Other, 0));
        assert!(!ws.may_read("/p/src/big", Kind::File, MAX_READ_BYTES + 1));
    }

    #[test]
    fn edits_match_the_project_relative_path() {
        let mut ws = Host {
            ws: ClaudeWorkspace::new("/w/repo/backend", "/w/repo/backend"),
            files: MemoryFs::new(),
            time: 0,
        };
        ws.put_file(
            "/w/repo/backend/.cursor/rules/widget.mdc",
            WIDGET.as_bytes(),
        );
        ws.mark_checkout("/w/repo");
        let (file, probes) = ws.edit_probes("src/a.clj");
        assert_eq!(file, "/w/repo/backend/src/a.clj");
        assert_eq!(
            probes,
            vec![
                "/w/repo/backend/src",
                "/w/repo/backend",
                "/w/repo",
                "/w",
                "/"
            ]
        );
        let response = ws.decide(&edit("src/a.clj", 1, ""));
        assert!(response.entries[0].contains("[rule-fairy matched: glob on src/a.clj]"));
        // An MCP tool's path that does not exist yet matches all the same.
        let response = ws.decide(&edit("/w/repo/backend/src/b.clj", 100_000, ""));
        assert!(response.entries[0].contains("glob on src/b.clj"));
        assert!(ws
            .decide(&edit("/w/repo/frontend/x.js", 1, ""))
            .entries
            .is_empty());
        // A path longer than any real one (found by the fuzz suite: 50 KB
        // of segments took over 20 s) is probed nowhere and matches nothing.
        let long = "src/".repeat(MAX_PATH_BYTES / 4 + 1) + "a.clj";
        assert_eq!(ws.edit_probes(&long).1, Vec::<String>::new());
        assert!(ws.decide(&edit(&long, 1, "")).entries.is_empty());
    }

    #[test]
    fn a_two_frame_delivery_reads_back_whole() {
        let paragraph = format!("{}\n\n", "word ".repeat(20));
        let body = |name: &str| {
            format!(
                "---\nglobs: src/**\n---\n# {name}\n\n{}",
                paragraph.repeat(120)
            )
        };
        let mut ws = workspace(&[
            (".cursor/rules/alpha.mdc", &body("alpha")),
            (".cursor/rules/beta.mdc", &body("beta")),
            (".cursor/rules/gamma.mdc", &body("gamma")),
        ]);
        ws.set_limits(FrameLimits {
            frame_chars: 9_000,
            frames_per_delivery: 2,
        });
        let first = ws.decide(&edit("/p/src/a.ts", 1_000, ""));
        assert_eq!(first.entries.len(), 2, "{:?}", first.entries);
        assert!(first.entries[1].starts_with("[rule-fairy shard 2/2 "));
        assert_eq!(first.delivered, vec!["alpha.mdc"]);
        assert_eq!(first.deferred, vec!["beta.mdc", "gamma.mdc"]);
        // Both frames in one reminder count as the whole delivery: the
        // next event, within the minute or not, skips what it carried.
        let mut next = edit("/p/src/a.ts", 200_000, &saved(&first));
        next.context = vec![as_reminder(&first.entries)];
        let second = ws.decide(&next);
        assert_eq!(second.delivered, vec!["beta.mdc"]);
    }

    fn shell(changed: &[(&str, i64)], started: i64, state: &str) -> EventRequest {
        EventRequest {
            shell: Some(ShellReport {
                started,
                toplevel: "/p\n".to_string(),
                changed: changed.iter().map(|(p, t)| (p.to_string(), *t)).collect(),
            }),
            ..request(RequestKind::Shell, started, state)
        }
    }

    #[test]
    fn shell_changes_deliver_once_and_clear_the_pending_paths() {
        let mut ws = workspace(&[
            (".cursor/rules/widget.mdc", WIDGET),
            (
                ".cursor/rules/docs.mdc",
                "---\nglobs: docs/**\n---\n# Docs rule",
            ),
        ]);
        assert_eq!(ws.shell_plan(""), ShellPlan::Start);
        let started = saved(&ws.decide(&prompt("go", 10_000, "")));
        assert_eq!(ws.shell_plan(&started), ShellPlan::Check);
        // behaviour §7.12, 125: a file written after the prompt.
        let first = ws.decide(&shell(
            &[("src/a.clj", 11_000), ("old.txt", 5_000)],
            12_000,
            &started,
        ));
        let text = first.entries.join("\n");
        assert!(text.contains("[rule-fairy injected: widget.mdc]"));
        assert!(
            text.contains("[rule-fairy matched: glob on src/a.clj, changed by a shell command]")
        );
        assert!(text.contains("Apply these rules on the next pass"));
        assert!(text.contains("# Widget rule"));
        let state = SessionState::parse(&saved(&first)).unwrap();
        assert!(state.shell.pending.is_empty());
        assert_eq!(state.shell.checked_at_ms, Some(12_000));
        // The next command sees the same file (unchanged since): nothing.
        let second = ws.decide(&shell(&[("src/a.clj", 11_000)], 13_000, &saved(&first)));
        assert!(second.entries.is_empty());
        // A command writing two files: only the new rule, only its path.
        let third = ws.decide(&shell(
            &[("src/c.clj", 14_000), ("docs/x.md", 14_000)],
            15_000,
            &saved(&second),
        ));
        let text = third.entries.join("\n");
        assert!(text.contains("[rule-fairy injected: docs.mdc]"));
        assert!(!text.contains("injected: widget.mdc"));
        assert!(text.contains("glob on docs/x.md, changed by a shell command"));
    }

    /// Answers `documents_due` as the mod does, round after round until it
    /// asks for nothing new: each file put in as the host has it, or
    /// removed when it has none; then decides.
    fn gathered_and_decided(host: &mut Host, request: &EventRequest) -> EventResponse {
        let mut made_sure: Vec<String> = Vec::new();
        for _ in 0..8 {
            let fresh: Vec<String> = host
                .ws
                .documents_due(request)
                .into_iter()
                .filter(|doc| !made_sure.contains(doc))
                .collect();
            if fresh.is_empty() {
                break;
            }
            for doc in fresh {
                let files: &dyn crate::base::fs::FileSource = &host.files;
                match (files.read(&doc), files.try_stat(&doc)) {
                    (Ok(bytes), _) => host.ws.put_document(&doc, &bytes),
                    (Err(_), Some(meta)) if meta.kind == Kind::File => {
                        host.ws.put_unread_document(&doc, meta.len);
                    }
                    _ => host.ws.remove(&doc),
                }
                made_sure.push(doc);
            }
        }
        host.ws.decide(request)
    }

    fn billing() -> Host {
        workspace(&[
            (
                ".cursor/rules/ts.mdc",
                "---\nglobs: services/**/*.ts\n---\n# TS rule",
            ),
            ("CLAUDE.md", "Root, loaded at the start."),
            (
                "services/billing/CLAUDE.md",
                "# Billing\n<!-- maintainers only -->\nSee @notes.md.",
            ),
            ("services/billing/notes.md", "Billing notes."),
            (
                "services/billing/AGENTS.md",
                "Billing agents, under a CLAUDE.md.",
            ),
            ("services/api/AGENTS.md", "API agents."),
        ])
    }

    /// [`workspace`] serving opencode.
    fn for_opencode(mut host: Host) -> Host {
        host.ws.set_host(WorkspaceHost::Opencode);
        host.ws.refresh_from(&host.files);
        host
    }

    #[test]
    fn opencode_reads_its_own_layout_without_formats_claude_code_does_not() {
        // behaviour §5.2.4.
        let files = [
            (".opencode/rules/style.md", "# Style"),
            (".opencode/rules/.draft.md", "# Hidden"),
            (".cursor/rules/ui.mdc", "---\nalwaysApply: true\n---\n# UI"),
        ];
        let mut claude = workspace(&files);
        assert_eq!(claude.host(), WorkspaceHost::ClaudeCode);
        assert_eq!(claude.project().unwrap().rules.names(), vec!["ui.mdc"]);
        let mut opencode = for_opencode(workspace(&files));
        assert_eq!(opencode.host(), WorkspaceHost::Opencode);
        assert_eq!(
            opencode.project().unwrap().rules.names(),
            vec!["style.md", "ui.mdc"]
        );
        // A rule without conditions is always on, as opencode-rules has it.
        let response = opencode.decide(&prompt("hello", 1_000, ""));
        assert_eq!(response.delivered, vec!["style.md", "ui.mdc"]);
        // Back to Claude Code: the configuration's sources only.
        opencode.ws.set_host(WorkspaceHost::ClaudeCode);
        assert_eq!(opencode.project().unwrap().rules.names(), vec!["ui.mdc"]);
    }

    #[test]
    fn opencode_s_global_rules_come_through_the_steps_after_the_project_s() {
        let mut host = for_opencode(workspace(&[(
            ".opencode/rules/style.md",
            "# Project style",
        )]));
        host.files
            .add_file("/h/.config/opencode/rules/style.md", "# Global style")
            .add_file(
                "/h/.config/opencode/rules/ts/types.md",
                "---\nglobs: \"**/*.ts\"\n---\n# Types",
            );
        host.ws
            .set_global_rules(Some("/h/.config/opencode/rules"), Some("/h"));
        // The walk asks for the directory like any other source.
        let mut asked = Vec::new();
        let mut asks = host.ws.start_refresh();
        while !asks.is_empty() {
            asked.extend(asks.list.iter().chain(&asks.stat).cloned());
            crate::rules::steps::answer_from(&mut host.ws.answers, &host.files, &asks);
            asks = host.ws.next_asks();
        }
        assert!(
            asked.contains(&"/h/.config/opencode/rules".to_string()),
            "{asked:?}"
        );
        let global = "~/.config/opencode/rules/style.md";
        assert_eq!(
            host.ws.project().unwrap().rules.names(),
            vec!["style.md", global, "~/.config/opencode/rules/ts/types.md"]
        );
        let watched = host.ws.watch_paths();
        assert!(
            watched.contains(&"/h/.config/opencode/rules".to_string()),
            "{watched:?}"
        );
        let response = host.ws.decide(&prompt("hello", 1_000, ""));
        assert_eq!(response.delivered, vec!["style.md", global]);
        let text = response.entries.join("\n");
        assert!(text.contains("# Global style"), "{text}");
        // Its globs match the project's paths.
        let edited = host.ws.decide(&edit("/p/src/a.ts", 2_000, ""));
        assert_eq!(
            edited.delivered,
            vec!["~/.config/opencode/rules/ts/types.md"]
        );
        // A missing directory is silent; none at all reads none.
        host.ws
            .set_global_rules(Some("/h/.config/opencode/gone"), Some("/h"));
        host.ws.refresh_from(&host.files);
        assert_eq!(host.ws.project().unwrap().rules.names(), vec!["style.md"]);
        assert!(host.ws.loading_problems().is_empty());
        host.ws.set_global_rules(None, None);
        host.ws.refresh_from(&host.files);
        assert_eq!(host.ws.project().unwrap().rules.names(), vec!["style.md"]);
    }

    #[test]
    fn claude_code_reads_no_global_rules_even_when_given_them() {
        let mut host = workspace(&[(".cursor/rules/a.mdc", "# A")]);
        host.files
            .add_file("/h/.config/opencode/rules/style.md", "# Global style");
        host.ws
            .set_global_rules(Some("/h/.config/opencode/rules"), Some("/h"));
        host.ws.refresh_from(&host.files);
        assert_eq!(host.ws.project().unwrap().rules.names(), vec!["a.mdc"]);
    }

    #[test]
    fn opencode_gets_the_first_agents_or_claude_file_below_the_root_after_any_change() {
        // behaviour §5.2.4: its edit tools and shell commands load nothing.
        let mut ws = for_opencode(billing());
        let billing_agents = "instruction file services/billing/AGENTS.md";
        let edited = gathered_and_decided(&mut ws, &edit("/p/services/billing/x.ts", 1, ""));
        assert_eq!(edited.delivered, vec!["ts.mdc", billing_agents]);
        let text = edited.entries.join("\n");
        assert!(text.contains(
            "[rule-fairy matched: instruction files opencode did not load, for services/billing/x.ts]"
        ), "{text}");
        assert!(text.contains("Billing agents, under a CLAUDE.md."));
        assert!(
            !text.contains("# Billing"),
            "the CLAUDE.md beside it is not taken"
        );
        assert!(!text.contains("Root, loaded"));
        // A shell change brings the same, named as a shell change's.
        let started = saved(&ws.decide(&prompt("go", 10_000, "")));
        let changed = gathered_and_decided(
            &mut ws,
            &shell(&[("services/api/run.ts", 11_000)], 12_000, &started),
        );
        assert_eq!(
            changed.delivered,
            vec!["ts.mdc", "instruction file services/api/AGENTS.md"]
        );
        assert!(changed.entries.join("\n").contains(
            "[rule-fairy matched: instruction files opencode did not load, for services/api/run.ts, changed by a shell command]"
        ));
    }

    #[test]
    fn what_opencode_attached_to_a_read_is_not_delivered_again() {
        let mut ws = for_opencode(billing());
        let mut request = edit("/p/services/api/handler.ts", 1, "");
        request.context = vec![
            "<file>\n00001| x\n</file>\n\n<system-reminder>\nInstructions from: /p/services/api/AGENTS.md\nAPI agents.\n</system-reminder>".to_string(),
        ];
        let response = gathered_and_decided(&mut ws, &request);
        assert_eq!(response.delivered, vec!["ts.mdc"]);
    }

    #[test]
    fn opencode_reads_a_claude_file_whole_and_follows_no_imports() {
        let mut ws = for_opencode(workspace(&[
            ("CLAUDE.md", "Root."),
            (
                "lib/CLAUDE.md",
                "# Lib\n<!-- maintainers only -->\nSee @notes.md.",
            ),
            ("lib/notes.md", "Lib notes."),
        ]));
        let response = gathered_and_decided(&mut ws, &edit("/p/lib/x.rs", 1, ""));
        assert_eq!(response.delivered, vec!["instruction file lib/CLAUDE.md"]);
        let text = response.entries.join("\n");
        assert!(
            text.contains("# Lib\n<!-- maintainers only -->\nSee @notes.md."),
            "{text}"
        );
        assert!(!text.contains("Lib notes."));
    }

    #[test]
    fn opencode_s_instruction_listing_names_what_decides_its_choice() {
        let mut ws = for_opencode(workspace(&[
            ("rule-fairy.edn", "{:instructions {:files [\"CLAUDE.md\"]}}"),
            ("a/AGENTS.md", "A agents"),
            ("a/CLAUDE.md", "A claude"),
        ]));
        let listing = ws.instruction_listing(true);
        assert!(
            listing.iter().any(|arg| arg.contains("AGENTS.md")),
            "{listing:?}"
        );
        assert!(
            listing.iter().any(|arg| arg.contains("CLAUDE.md")),
            "{listing:?}"
        );
        // Git lists both: AGENTS.md is the one opencode takes, and it is
        // not configured, so nothing comes.
        ws.instructions_listed(0, b"a/AGENTS.md\0a/CLAUDE.md\0");
        let response = gathered_and_decided(&mut ws, &edit("/p/a/x.ts", 1, ""));
        assert!(response.delivered.is_empty(), "{:?}", response.delivered);
    }

    #[test]
    fn a_shell_change_brings_the_claude_files_claude_code_loads_only_for_its_own_tools() {
        let mut ws = billing();
        let started = saved(&ws.decide(&prompt("go", 10_000, "")));
        let first = gathered_and_decided(
            &mut ws,
            &shell(&[("services/billing/run.ts", 11_000)], 12_000, &started),
        );
        let text = first.entries.join("\n");
        let claude = "instruction file services/billing/CLAUDE.md";
        let notes = "instruction file services/billing/notes.md";
        assert_eq!(first.delivered, vec!["ts.mdc", claude, notes], "{text}");
        assert!(text.contains(
            "[rule-fairy matched: glob on services/billing/run.ts, changed by a shell command]"
        ));
        assert!(text.contains("[rule-fairy matched: instruction files Claude Code did not load, for services/billing/run.ts, changed by a shell command]"));
        // As Claude Code reads it: the comment line gone, the import its
        // own file; the AGENTS.md a CLAUDE.md stands beside is not read.
        assert!(text.contains("# services/billing/CLAUDE.md\n\n# Billing\nSee @notes.md."));
        assert!(text.contains("# services/billing/notes.md\n\nBilling notes."));
        assert!(!text.contains("Billing agents"));
        assert!(!text.contains("Root, loaded"));
        // Recorded: another change there brings nothing again.
        let second = gathered_and_decided(
            &mut ws,
            &shell(
                &[("services/billing/more.ts", 13_000)],
                14_000,
                &saved(&first),
            ),
        );
        assert!(second.delivered.is_empty(), "{:?}", second.delivered);
    }

    #[test]
    fn what_claude_code_loaded_itself_is_not_delivered_again() {
        let mut ws = billing();
        let started = saved(&ws.decide(&prompt("go", 10_000, "")));
        let mut request = shell(&[("services/billing/run.ts", 11_000)], 12_000, &started);
        // The model had read a file there: Claude Code attached the CLAUDE.md.
        request.context = vec![
            "<system-reminder>\nContents of /p/services/billing/CLAUDE.md:\n\n# Billing\n</system-reminder>".to_string(),
        ];
        let response = gathered_and_decided(&mut ws, &request);
        assert_eq!(
            response.delivered,
            vec!["ts.mdc", "instruction file services/billing/notes.md"]
        );
    }

    #[test]
    fn an_edit_brings_the_agents_file_claude_code_never_reads_below_the_root() {
        let mut ws = billing();
        let response = gathered_and_decided(&mut ws, &edit("/p/services/api/handler.ts", 1, ""));
        assert_eq!(
            response.delivered,
            vec!["ts.mdc", "instruction file services/api/AGENTS.md"]
        );
        let text = response.entries.join("\n");
        assert!(text.contains("[rule-fairy matched: glob on services/api/handler.ts]"));
        assert!(text.contains(
            "[rule-fairy matched: instruction files Claude Code did not load, for services/api/handler.ts]"
        ));
        assert!(text.contains("# services/api/AGENTS.md\n\nAPI agents."));
        // Claude Code's own Edit loads the CLAUDE files: none come with it.
        let billing = gathered_and_decided(&mut ws, &edit("/p/services/billing/x.ts", 2, ""));
        assert_eq!(billing.delivered, vec!["ts.mdc"]);
        // A path with no rule still brings its instruction file.
        let readme = gathered_and_decided(&mut ws, &edit("/p/services/api/README", 3, ""));
        assert_eq!(
            readme.delivered,
            vec!["instruction file services/api/AGENTS.md"]
        );
        let text = readme.entries.join("\n");
        assert!(!text.contains("glob on"), "{text}");
        assert!(text.contains("for services/api/README]"), "{text}");
    }

    #[test]
    fn where_git_lists_no_instruction_file_an_edit_looks_nowhere() {
        let mut ws = billing();
        assert!(ws.instruction_listing_due());
        assert_eq!(ws.instruction_listing(true)[..2], ["git", "ls-files"]);
        // git lists the billing files only: services/api is not looked in.
        ws.instructions_listed(
            0,
            b"CLAUDE.md\0services/billing/CLAUDE.md\0services/billing/AGENTS.md\0",
        );
        assert!(!ws.instruction_listing_due());
        let request = edit("/p/services/api/handler.ts", 1, "");
        assert!(
            ws.documents_due(&request).is_empty(),
            "{:?}",
            ws.documents_due(&request)
        );
        assert_eq!(
            gathered_and_decided(&mut ws, &request).delivered,
            vec!["ts.mdc"]
        );
        // Writing an instruction file makes the next edit ask git again.
        ws.decide(&edit("/p/services/api/AGENTS.md", 2, ""));
        assert!(ws.instruction_listing_due());
        // A listing that cannot run (no checkout) looks everywhere.
        ws.instructions_listed(128, b"");
        assert!(!ws.instruction_listing_due());
        let again = gathered_and_decided(&mut ws, &edit("/p/services/api/h.ts", 3, ""));
        assert_eq!(
            again.delivered,
            vec!["ts.mdc", "instruction file services/api/AGENTS.md"]
        );
    }

    #[test]
    fn an_instruction_file_that_cannot_be_read_is_named_and_the_rules_still_come() {
        let mut ws = workspace(&[(
            ".cursor/rules/ts.mdc",
            "---\nglobs: services/**/*.ts\n---\n# TS rule",
        )]);
        ws.files
            .add_file("/p/services/api/AGENTS.md", b"ok\n\xff".as_slice());
        ws.files.add_dir("/p/services/web/AGENTS.md");
        let response = gathered_and_decided(&mut ws, &edit("/p/services/api/x.ts", 1, ""));
        assert_eq!(response.delivered, vec!["ts.mdc"]);
        let text = response.entries.join("\n");
        assert!(text.contains("services/api/AGENTS.md"), "{text}");
        assert!(text.contains("not valid UTF-8"), "{text}");
        // A directory of that name is no instruction file.
        let web = gathered_and_decided(&mut ws, &edit("/p/services/web/x.ts", 2, ""));
        assert_eq!(web.delivered, vec!["ts.mdc"]);
        assert!(!web.entries.join("\n").contains("rule-fairy error"));
        // One larger than the host reads is named with its size.
        ws.files
            .add_unread_file("/p/services/big/AGENTS.md", 5 * 1024 * 1024);
        let big = gathered_and_decided(&mut ws, &edit("/p/services/big/x.ts", 3, ""));
        assert_eq!(big.delivered, vec!["ts.mdc"]);
        let text = big.entries.join("\n");
        assert!(text.contains("services/big/AGENTS.md"), "{text}");
        assert!(text.contains("too large (5242880 bytes"), "{text}");
    }

    #[test]
    fn a_broken_import_keeps_the_paths_pending_until_it_is_fixed() {
        // behaviour §7.12, 127.
        // One command writes two files: the broken rule's path stays, the
        // other path's rule is delivered and the path clears.
        let mut ws = workspace(&[
            (
                ".cursor/rules/lib.mdc",
                "---\nglobs: lib/**\n---\n# Lib\n\n@doc/lib.md",
            ),
            (".cursor/rules/src.mdc", "---\nglobs: src/**\n---\n# Src"),
        ]);
        let started = saved(&ws.decide(&prompt("go", 10_000, "")));
        let failed = ws.decide(&shell(
            &[("lib/x.clj", 11_000), ("src/y.clj", 11_000)],
            12_000,
            &started,
        ));
        assert_eq!(failed.entries.len(), 2, "{:?}", failed.entries);
        assert!(failed.entries[0].contains("[rule-fairy injected: src.mdc]"));
        assert!(!failed.entries[0].contains("injected: lib.mdc"));
        assert!(failed.entries[1].starts_with(
            "[rule-fairy error: 1 broken rule left out: lib.mdc]\n- .cursor/rules/lib.mdc:6: lib.mdc: Rule import does not exist: doc/lib.md\n"
        ));
        assert_eq!(failed.delivered, vec!["src.mdc"]);
        // The person's line for what was delivered, then the problem.
        assert_eq!(failed.log, vec!["Rule Fairy: src.mdc (glob src/**)", "rule-fairy: 1 broken rule left out: .cursor/rules/lib.mdc:6: lib.mdc: Rule import does not exist: doc/lib.md"]);
        let state = saved(&failed);
        let parsed = SessionState::parse(&state).unwrap();
        assert_eq!(parsed.shell.pending, vec!["lib/x.clj"]);
        assert!(parsed.delivered.contains_key("src.mdc"));
        assert!(!parsed.delivered.contains_key("lib.mdc"));
        ws.put_document("/p/doc/lib.md", b"# Lib docs\n\nRead me.");
        let fixed = ws.decide(&shell(&[], 13_000, &state));
        assert!(fixed.entries[0].contains("[rule-fairy injected: lib.mdc]"));
        assert!(fixed.entries[0].contains("glob on lib/x.clj, changed by a shell command"));
        assert!(SessionState::parse(&saved(&fixed))
            .unwrap()
            .shell
            .pending
            .is_empty());
    }

    #[test]
    fn paths_without_due_rules_leave_the_pending_list() {
        let mut ws = workspace(&[(".cursor/rules/widget.mdc", WIDGET)]);
        let started = saved(&ws.decide(&prompt("go", 10_000, "")));
        let response = ws.decide(&shell(&[("README.md", 11_000)], 12_000, &started));
        assert!(response.entries.is_empty());
        assert!(SessionState::parse(&saved(&response))
            .unwrap()
            .shell
            .pending
            .is_empty());
    }

    #[test]
    fn the_shell_hook_switched_off_does_nothing() {
        let mut ws = workspace(&[
            (".cursor/rules/widget.mdc", WIDGET),
            ("rule-fairy.edn", "{:shell-hook {:claude false}}"),
        ]);
        assert_eq!(ws.shell_plan(""), ShellPlan::Off);
        let response = ws.decide(&prompt("go", 10_000, ""));
        assert_eq!(response.state, None, "the prompt started no shell check");
        assert_eq!(
            ws.decide(&shell(&[("src/a.clj", 11_000)], 12_000, "")),
            EventResponse::default()
        );
    }

    #[test]
    fn a_corrupt_state_is_reported_and_replaced() {
        let mut ws = workspace(&[(".cursor/rules/widget.mdc", WIDGET)]);
        let response = ws.decide(&edit("/p/src/a.ts", 5_000, "{\"delivered\": 3"));
        assert!(response.entries[0]
            .starts_with("[rule-fairy error: .rule-fairy/claude/s.json is not a session state ("));
        assert!(response.entries[1].contains("[rule-fairy injected: widget.mdc]"));
        assert!(response.state_error.is_some());
        let state = SessionState::parse(&saved(&response)).unwrap();
        assert_eq!(state.delivered["widget.mdc"], 5_000);
    }

    #[test]
    fn a_subagent_s_delivery_line_names_it() {
        let mut host = workspace(&[(".cursor/rules/w.mdc", WIDGET)]);
        let mut request = prompt("a widget", 1_000, "");
        request.thread = Some(ThreadRequest::Agent { id: "a1b2".into() });
        let answer = host.decide(&request);
        assert_eq!(
            answer.log,
            vec!["Rule Fairy (subagent a1b2): w.mdc (keyword \"widget\")"]
        );
        request.thread = Some(ThreadRequest::Spawn);
        let answer = host.decide(&request);
        assert_eq!(
            answer.log,
            vec!["Rule Fairy (new subagent): w.mdc (keyword \"widget\")"]
        );
    }

    #[test]
    fn loading_problems_show_on_the_first_prompt_and_when_they_change() {
        let mut ws = workspace(&[(".cursor/rules/widget.mdc", WIDGET)]);
        ws.put_file(
            "/p/.cursor/rules/bad.mdc",
            b"---\nalwaysApply: true\n---\n\xff\xfe",
        );
        let first = ws.decide(&prompt("a widget", 1_000, ""));
        let problem = first.entries.last().unwrap();
        assert!(
            problem.starts_with("[rule-fairy error: .cursor/rules/bad.mdc:4: "),
            "{problem}"
        );
        assert!(first.delivered.contains(&"widget.mdc".to_string()));
        let again = ws.decide(&prompt("a widget", 100_000, &saved(&first)));
        assert!(again.entries.iter().all(|e| !e.contains("bad.mdc")));
        ws.put_file(
            "/p/.cursor/rules/bad.mdc",
            b"---\nalwaysApply: true\n---\n# Fixed",
        );
        let fixed = ws.decide(&prompt("hello", 200_000, &saved(&again)));
        assert!(fixed.delivered.contains(&"bad.mdc".to_string()));
    }

    #[test]
    fn a_broken_configuration_fails_every_event_visibly() {
        let mut ws = workspace(&[("rule-fairy.edn", "{:rule 1}")]);
        let response = ws.decide(&prompt("go", 1, ""));
        assert_eq!(
            response.entries,
            vec!["[rule-fairy error: prompt delivery failed]\n/p/rule-fairy.edn:1: Unknown keys in rule-fairy.edn: :rule (did you mean :rules?)\nNo matched rules were injected or marked as injected."]
        );
        assert_eq!(response.state, None);
        ws.put_file("/p/rule-fairy.edn", b"{}");
        assert!(ws.decide(&prompt("go", 2, "")).entries.is_empty());
    }

    #[test]
    fn only_the_documents_of_due_rules_are_needed() {
        let mut ws = workspace(&[
            (
                ".cursor/rules/a.mdc",
                "---\nglobs: src/**\n---\n# A\n\n@doc/a.md",
            ),
            (
                ".cursor/rules/b.mdc",
                "---\nglobs: src/**\n---\n# B\n\n@doc/b.md#x",
            ),
            (
                ".cursor/rules/c.mdc",
                "---\nglobs: lib/**\n---\n# C\n\n@doc/c.md",
            ),
        ]);
        // Beside the imports, the instruction files src/ might hold
        // (behaviour §5.3).
        let looked_for = [
            "/p/src/CLAUDE.md",
            "/p/src/.claude/CLAUDE.md",
            "/p/src/CLAUDE.local.md",
            "/p/src/AGENTS.override.md",
            "/p/src/AGENTS.md",
        ];
        let mut request = edit("/p/src/x.ts", 100_000, r#"{"delivered":{"a.mdc":90000}}"#);
        assert_eq!(
            ws.documents_due(&request),
            [&["/p/doc/b.md"][..], &looked_for].concat()
        );
        request.now = 200_000;
        assert_eq!(
            ws.documents_due(&request),
            [&["/p/doc/a.md", "/p/doc/b.md"][..], &looked_for].concat()
        );
        assert!(ws.documents_due(&prompt("nothing", 1, "")).is_empty());
    }

    fn with_facts(mut request: EventRequest, facts: &str) -> EventRequest {
        request.facts = serde_json::from_str(facts).unwrap();
        request
    }

    #[test]
    fn an_ephemeral_rule_comes_every_time_and_is_never_recorded() {
        let mut ws = workspace(&[
            (
                ".cursor/rules/base.mdc",
                "---\nalwaysApply: true\n---\n# Base",
            ),
            (
                ".cursor/rules/opus.mdc",
                "---\nmodel: [claude-opus-5-5]\n---\n# Opus",
            ),
        ]);
        let opus = r#"{"model": "claude-opus-5-5"}"#;
        let first = ws.decide(&with_facts(prompt("hi", 1_000, ""), opus));
        assert_eq!(first.delivered, vec!["base.mdc", "opus.mdc"]);
        let state = saved(&first);
        assert_eq!(
            SessionState::parse(&state)
                .unwrap()
                .delivered
                .keys()
                .collect::<Vec<_>>(),
            vec!["base.mdc"]
        );
        // Both still in the conversation, within the minute: only the
        // ephemeral rule comes again.
        let mut second = with_facts(prompt("more", 2_000, &state), opus);
        second.context = vec![as_reminder(&first.entries)];
        let again = ws.decide(&second);
        assert_eq!(again.delivered, vec!["opus.mdc"]);
        // Another model: the rule does not hold, so it does not come.
        let other = ws.decide(&with_facts(
            prompt("more", 3_000, &state),
            r#"{"model": "x"}"#,
        ));
        assert!(other.delivered.is_empty());
        // No model known: a condition on it does not hold.
        assert!(ws
            .decide(&prompt("more", 4_000, &state))
            .delivered
            .is_empty());
    }

    #[test]
    fn under_opencode_an_ephemeral_rule_comes_apart_for_the_turn() {
        let files = [
            (
                ".cursor/rules/base.mdc",
                "---\nalwaysApply: true\n---\n# Base",
            ),
            (
                ".cursor/rules/build.mdc",
                "---\nagent: [build]\n---\n# Build",
            ),
        ];
        let build = r#"{"agent": "build"}"#;
        let mut ws = workspace(&files);
        ws.set_host(WorkspaceHost::Opencode);
        let first = ws.decide(&with_facts(prompt("hi", 1_000, ""), build));
        assert_eq!(first.delivered, vec!["base.mdc", "build.mdc"]);
        let kept = first.entries.join("\n");
        let turn = first.per_turn.join("\n");
        assert!(
            kept.contains("# Base") && !kept.contains("# Build"),
            "{kept}"
        );
        assert!(
            turn.contains("# Build") && !turn.contains("# Base"),
            "{turn}"
        );
        // Frames of their own: the turn's never names a kept frame's id.
        let header = |text: &str| text.lines().next().unwrap_or("").to_string();
        assert_ne!(header(&kept), header(&turn));
        // Only the durable rule is recorded, and the person's line names both.
        let state = saved(&first);
        let recorded = SessionState::parse(&state).unwrap().delivered;
        assert_eq!(recorded.keys().collect::<Vec<_>>(), vec!["base.mdc"]);
        assert!(first.log[0].contains("base.mdc") && first.log[0].contains("build.mdc"));
        // Only per-turn rules due: no kept entry at all.
        let mut second = with_facts(prompt("more", 2_000, &state), build);
        second.context = first.entries.clone();
        let again = ws.decide(&second);
        assert_eq!(again.delivered, vec!["build.mdc"]);
        assert!(again.entries.is_empty(), "{:?}", again.entries);
        assert_eq!(again.per_turn.len(), 1);
        // Claude Code carries both in its entries, as before.
        let mut claude = workspace(&files);
        let both = claude.decide(&with_facts(prompt("hi", 1_000, ""), build));
        assert!(both.per_turn.is_empty());
        assert!(both.entries.join("\n").contains("# Build"));
    }

    #[test]
    fn facts_the_mod_gathered_reach_the_conditions() {
        let mut ws = workspace(&[
            (".cursor/rules/mac.mdc", "---\nos: darwin\n---\n# Mac"),
            (".cursor/rules/ci.mdc", "---\nci: true\n---\n# CI"),
            (".cursor/rules/node.mdc", "---\nproject: node\n---\n# Node"),
            (
                ".cursor/rules/feature.mdc",
                "---\nbranch: feature/*\n---\n# Feature",
            ),
            (".cursor/rules/plan.mdc", "---\ncommand: /plan\n---\n# Plan"),
            (
                ".cursor/rules/mcp.mdc",
                "---\ntools: [mcp__docs__query]\n---\n# MCP",
            ),
        ]);
        let wants = ws.wants();
        assert_eq!(wants.facts, vec!["ci", "branch", "os", "tools", "project"]);
        assert!(wants.markers.contains(&"/p/package.json".to_string()));
        assert_eq!(wants.ci, CI_VARIABLES);
        ws.put_document("/p/package.json", b"{}");
        let response = ws.decide(&with_facts(
            prompt("go", 1_000, ""),
            r#"{"platform": "macos", "ciEnv": ["1"], "branch": "feature/a\n",
                "tools": ["Edit", "mcp__docs__query"], "command": "plan"}"#,
        ));
        assert_eq!(
            response.delivered,
            vec![
                "ci.mdc",
                "feature.mdc",
                "mac.mdc",
                "mcp.mdc",
                "node.mdc",
                "plan.mdc"
            ]
        );
        let none = ws.decide(&with_facts(
            prompt("go", 1_000, ""),
            r#"{"platform": "linux", "ciEnv": [null], "branch": "main\n", "tools": ["Edit"]}"#,
        ));
        // node.mdc is durable and its marker is still there.
        assert_eq!(none.delivered, vec!["node.mdc"]);
        // The prompt's first word is the command when the host names none.
        let typed = ws.decide(&prompt("/plan the work", 1_000, ""));
        assert!(typed.delivered.contains(&"plan.mdc".to_string()));
    }

    #[test]
    fn file_contains_reads_the_text_the_mod_gathered() {
        let mut ws = workspace(&[(
            ".cursor/rules/drop.mdc",
            "---\nfileContains: DROP TABLE\n---\n# Drops",
        )]);
        let mut request = edit("/p/db/m.sql", 1_000, "");
        assert_eq!(ws.contents_due(&request), vec!["/p/db/m.sql"]);
        assert!(
            ws.decide(&request).delivered.is_empty(),
            "no text, no match"
        );
        request.contents = vec![Some("DROP TABLE users;".into())];
        let response = ws.decide(&request);
        assert_eq!(response.delivered, vec!["drop.mdc"]);
        assert!(
            response.entries[0].contains("# Drops"),
            "{:?}",
            response.entries
        );
        // A shell change: the pending path's text, under the project root.
        let started = saved(&ws.decide(&prompt("go", 10_000, "")));
        let mut changed = shell(&[("db/n.sql", 11_000)], 12_000, &started);
        assert_eq!(ws.contents_due(&changed), vec!["/p/db/n.sql"]);
        changed.contents = vec![Some("drop table x; DROP TABLE y;".into())];
        assert_eq!(ws.decide(&changed).delivered, vec!["drop.mdc"]);
        // No rule tests contents: nothing to read.
        let mut plain = workspace(&[(".cursor/rules/widget.mdc", WIDGET)]);
        assert!(plain.contents_due(&edit("/p/src/a.ts", 1, "")).is_empty());
        assert!(plain.wants().facts.is_empty());
    }

    #[test]
    fn gate_probes_follow_the_configuration() {
        let mut ws = workspace(&[("rule-fairy.edn", "{:gate {:dirs [\"lint\"]}}")]);
        assert_eq!(
            ws.wants().gate,
            vec!["/p/sgconfig.yml", "/p/.kairoku/rules", "/p/rule-fairy.edn"]
        );
        ws.put_file("/p/rule-fairy.edn", b"{}");
        assert_eq!(
            ws.wants().gate,
            vec!["/p/sgconfig.yml", "/p/.kairoku/rules"]
        );
    }

    #[test]
    fn imported_documents_are_listed_for_the_snapshot() {
        let mut ws = workspace(&[(
            ".cursor/rules/lib.mdc",
            "# Lib\n\n@doc/lib.md#usage\n@doc/other.md",
        )]);
        assert_eq!(
            ws.imported_documents().unwrap(),
            vec!["/p/doc/lib.md", "/p/doc/other.md"]
        );
    }
}
