//! Rule Fairy's engine exported to WebAssembly hosts (the Claude Code mod,
//! the opencode plugin and the browser playground). A thin boundary: each function takes plain
//! strings, bytes or serde values, converts errors to `JsError`, and holds
//! no logic of its own.
//!
//! The TypeScript the hosts see is generated from the Rust types: the
//! engine's `ts` feature derives `tsify::Tsify` on every type that crosses
//! this boundary, which puts its declaration (from its serde shape and doc
//! comments) into `rule_fairy_wasm.d.ts`, and each export names its types
//! with `unchecked_param_type` and `unchecked_return_type`. Declarations
//! only: values still cross through serde-wasm-bindgen, so the `.wasm`
//! carries no code for them.

#[cfg(feature = "playground")]
mod explain_prompt;
#[cfg(feature = "playground")]
pub mod playground;

use rule_fairy_engine::claude::after_compaction;
use rule_fairy_engine::claude::gate_answer;
use rule_fairy_engine::claude::{ClaudeWorkspace, EventRequest, RequestKind, WorkspaceHost};
use rule_fairy_engine::gate_check::read_gate_run;
use rule_fairy_engine::labels::gate_finding;
use rule_fairy_engine::session_id_problem;
use rule_fairy_engine::FrameLimits;
use rule_fairy_engine::Kind;
use rule_fairy_engine::{delivery_failed, failure_summary};
use rule_fairy_engine::{AskKind, Asks, HostEntry, HostKind, HostStat};
use serde::Serialize;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

/// The entry for a delivery that stopped (`how`: `failed`, `threw`,
/// `timed out`) before anything was recorded. The mod writes its own copy
/// when the engine could not load; a test holds the two equal.
#[wasm_bindgen(js_name = deliveryFailed)]
pub fn delivery_failed_js(kind: &str, how: &str, detail: &str) -> String {
    delivery_failed(kind, how, detail)
}

/// `<kind> delivery <how>: <detail>`, the line logged beside
/// [`delivery_failed_js`]'s entry.
#[wasm_bindgen(js_name = failureSummary)]
pub fn failure_summary_js(kind: &str, how: &str, detail: &str) -> String {
    failure_summary(kind, how, detail)
}

/// Why a session id cannot name a state file (`contains a path
/// separator`, ...), or `undefined` when it can: the one policy both hosts
/// use.
#[wasm_bindgen(js_name = sessionIdProblem)]
pub fn session_id_problem_js(id: &str) -> Option<String> {
    session_id_problem(id).map(str::to_string)
}

/// The session state to save after a compaction, or `undefined` when it
/// stays as it is.
#[wasm_bindgen(js_name = stateAfterCompaction)]
pub fn state_after_compaction(saved: &str, now: f64) -> Option<String> {
    after_compaction(saved, now as i64)
}

/// One finding of `rule-fairy gate check --json` as both hosts show it:
/// the fields of its JSON line, in the gate's own words (`note` empty when
/// the rule has none).
#[wasm_bindgen(js_name = gateFinding)]
pub fn gate_finding_js(
    severity: &str,
    rule_id: &str,
    file: &str,
    line: u32,
    message: &str,
    note: &str,
) -> String {
    gate_finding(severity, rule_id, file, line as usize, message, Some(note))
}

/// `{ entry, log, state }` after `rule-fairy gate check --json` ran on a
/// written file: `exit` is its status (`undefined` when it did not start or
/// was stopped, `stderr` then saying why), `findings` its lines as
/// `gateFinding` words them, `programVersion` the version its
/// `{"programVersion": ...}` line said (`undefined` without one) and
/// `programPath` where it said it runs from, `saved`
/// the session state.
#[wasm_bindgen(js_name = gateAnswer, unchecked_return_type = "GateAnswer")]
pub fn gate_answer_js(
    saved: &str,
    exit: Option<i32>,
    #[wasm_bindgen(unchecked_param_type = "string[]")] findings: JsValue,
    stderr: &str,
    program_version: Option<String>,
    program_path: Option<String>,
    now: f64,
) -> Result<JsValue, JsError> {
    // Read as serde reads the event's lists: no second decoder of arrays.
    let texts: Vec<String> = serde_wasm_bindgen::from_value(findings)
        .map_err(|e| JsError::new(&format!("bad gate findings: {e}")))?;
    to_js(&gate_answer(
        saved,
        read_gate_run(exit, &texts, stderr),
        program_version.as_deref(),
        program_path.as_deref(),
        now as i64,
    ))
}

/// The files an apply_patch text adds, updates, deletes or moves to, in
/// order, each once: the opencode plugin delivers each one's rules as an
/// edit's.
#[wasm_bindgen(js_name = applyPatchPaths)]
pub fn apply_patch_paths_js(patch: &str) -> Vec<String> {
    rule_fairy_engine::patch::apply_patch_paths(patch)
}

/// This engine's version, which is the plugin's: the mod names it to the
/// gate check in `RULE_FAIRY_PLUGIN_VERSION` (behaviour §10.5).
#[wasm_bindgen(js_name = engineVersion)]
pub fn engine_version() -> String {
    rule_fairy_engine::version::VERSION.to_string()
}

/// opencode-rules' global rules directory, from the values of
/// `OPENCODE_CONFIG_DIR`, `XDG_CONFIG_HOME` and `HOME` (each `undefined`
/// when unset): the first that applies (behaviour §5.2.4), or `undefined`.
/// Hand it to `Workspace.setGlobalRules`.
#[wasm_bindgen(js_name = opencodeGlobalRules)]
pub fn opencode_global_rules(
    config_dir: Option<String>,
    xdg_config_home: Option<String>,
    home: Option<String>,
) -> Option<String> {
    rule_fairy_engine::opencode_global_rules(
        config_dir.as_deref(),
        xdg_config_home.as_deref(),
        home.as_deref(),
    )
}

/// A project as the Claude Code mod keeps it between events: the files the
/// engine reads, put in by the mod, and the project loaded from them.
#[wasm_bindgen]
pub struct Workspace {
    inner: ClaudeWorkspace,
}

/// An edited file placed: `file` absolute and normalised, `probes` the
/// directories whose `.git` entry would place it.
#[derive(Serialize, Tsify)]
struct EditProbes {
    file: String,
    probes: Vec<String>,
}

// The host's listings and stats are read field by field, as declared by
// the engine's `HostEntry` and `HostStat`: smaller than a serde decoder.
#[wasm_bindgen]
extern "C" {
    /// One entry of `$.fs.list`, read as a `HostEntry`.
    #[wasm_bindgen(typescript_type = "HostEntry")]
    pub type JsEntry;
    #[wasm_bindgen(method, getter, structural)]
    fn name(this: &JsEntry) -> String;
    #[wasm_bindgen(method, getter, structural)]
    fn kind(this: &JsEntry) -> String;
    #[wasm_bindgen(method, getter, structural)]
    fn size(this: &JsEntry) -> Option<f64>;
    #[wasm_bindgen(method, getter, structural, js_name = mtimeMs)]
    fn mtime_ms(this: &JsEntry) -> Option<f64>;
    #[wasm_bindgen(method, getter, structural, js_name = isLink)]
    fn is_link(this: &JsEntry) -> Option<bool>;

    /// `$.fs.stat(path, { resolve: true })`, read as a `HostStat`.
    #[wasm_bindgen(typescript_type = "HostStat")]
    pub type JsStat;
    #[wasm_bindgen(method, getter, structural)]
    fn kind(this: &JsStat) -> String;
    #[wasm_bindgen(method, getter, structural)]
    fn size(this: &JsStat) -> Option<f64>;
    #[wasm_bindgen(method, getter, structural, js_name = mtimeMs)]
    fn mtime_ms(this: &JsStat) -> Option<f64>;
    #[wasm_bindgen(method, getter, structural, js_name = realPath)]
    fn real_path(this: &JsStat) -> Option<String>;
}

fn host_kind(kind: &str) -> HostKind {
    match kind {
        "file" => HostKind::File,
        "dir" => HostKind::Dir,
        _ => HostKind::Other,
    }
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&serializer)
        .map_err(|e| JsError::new(&e.to_string()))
}

#[wasm_bindgen]
impl Workspace {
    /// An empty snapshot of the project at `root` (absolute), whose links
    /// resolved lead to `real_root`.
    #[wasm_bindgen(constructor)]
    pub fn new(root: &str, real_root: &str) -> Workspace {
        Workspace {
            inner: ClaudeWorkspace::new(root, real_root),
        }
    }

    /// Serves the host called `name`, `"Claude Code"` (the default) or
    /// `"opencode"`, from now on: set once, after the constructor. It
    /// decides the rule formats read, whether the global rules directory
    /// is, and which instruction files a delivery adds (behaviour §5.2.4).
    /// Any other name is an error, and the host stays as it was.
    #[wasm_bindgen(js_name = setHost)]
    pub fn set_host(&mut self, name: &str) -> Result<(), JsError> {
        let host = WorkspaceHost::named(name).map_err(|why| JsError::new(&why))?;
        self.inner.set_host(host);
        Ok(())
    }

    /// Reads `dir` (absolute, from `opencodeGlobalRules`) as the global
    /// rules directory when the host is opencode, its rules named from
    /// `home` (shown as `~`); `undefined` reads none. Its listings, stats
    /// and reads come among the refresh's asks, and `watchPaths` names it.
    #[wasm_bindgen(js_name = setGlobalRules)]
    pub fn set_global_rules(&mut self, dir: Option<String>, home: Option<String>) {
        self.inner.set_global_rules(dir.as_deref(), home.as_deref());
    }

    /// Frames of `chars` UTF-16 units, `frames` per delivery (tests).
    #[wasm_bindgen(js_name = setFrameLimits)]
    pub fn set_frame_limits(&mut self, chars: usize, frames: usize) {
        self.inner.set_limits(FrameLimits {
            frame_chars: chars,
            frames_per_delivery: frames,
        });
    }

    /// Begins bringing the configuration and the rules up to date: the
    /// first `Asks` (directories to list, paths to stat with links
    /// resolved, files to read). Answer each with `listed`, `stated`,
    /// `readBytes` or `failed`, then call `nextAsks`, until it asks
    /// nothing. The engine's walk decides every ask (behaviour §1.2).
    #[wasm_bindgen(js_name = startRefresh, unchecked_return_type = "Asks")]
    pub fn start_refresh(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.start_refresh())
    }

    /// `startRefresh` for an event of `kind` at `now` (`$.clock.now()`):
    /// all empty, and the project kept, when Claude Code's watch says no
    /// rule file changed (behaviour §5.2.3).
    #[wasm_bindgen(js_name = startRefreshAt, unchecked_return_type = "Asks")]
    pub fn start_refresh_at(
        &mut self,
        now: f64,
        #[wasm_bindgen(unchecked_param_type = "RequestKind")] kind: JsValue,
    ) -> Result<JsValue, JsError> {
        let kind: RequestKind = serde_wasm_bindgen::from_value(kind)
            .map_err(|e| JsError::new(&format!("bad event kind: {e}")))?;
        to_js(&self.inner.start_refresh_at(now as i64, kind))
    }

    /// The paths to ask Claude Code to watch (`watchPaths` at session
    /// start), each with everything below it.
    #[wasm_bindgen(js_name = watchPaths)]
    pub fn watch_paths(&mut self) -> Vec<String> {
        self.inner.watch_paths()
    }

    /// Whether the document at `path`, checked before, need not be
    /// stat'ed again for this event: nothing below the watch changed.
    #[wasm_bindgen(js_name = documentUnchanged)]
    pub fn document_unchanged(&self, path: &str) -> bool {
        self.inner.document_unchanged(path)
    }

    /// Claude Code began watching the `watchPaths`.
    #[wasm_bindgen(js_name = watchStarted)]
    pub fn watch_started(&mut self) {
        self.inner.watch_started();
    }

    /// Claude Code reported a change below a watched path (`FileChanged`).
    #[wasm_bindgen(js_name = fileChanged)]
    pub fn file_changed(&mut self, path: &str) {
        self.inner.file_changed(path);
    }

    /// The next round's `Asks`, all empty once the rules are up to date.
    #[wasm_bindgen(js_name = nextAsks, unchecked_return_type = "Asks")]
    pub fn next_asks(&mut self) -> Result<JsValue, JsError> {
        to_js::<Asks>(&self.inner.next_asks())
    }

    /// `dir` listed: `$.fs.list`'s entries as they come.
    pub fn listed(&mut self, dir: &str, entries: Vec<JsEntry>) {
        let entries = entries
            .iter()
            .map(|entry| HostEntry {
                name: entry.name(),
                kind: host_kind(&entry.kind()),
                size: entry.size().unwrap_or(0.0),
                mtime_ms: entry.mtime_ms().unwrap_or(0.0),
                is_link: entry.is_link().unwrap_or(false),
            })
            .collect();
        self.inner.listed(dir, entries);
    }

    /// `path` stat'ed with its links resolved: `$.fs.stat(path, { resolve:
    /// true })` as it comes.
    pub fn stated(&mut self, path: &str, stat: &JsStat) {
        self.inner.stated(
            path,
            HostStat {
                kind: host_kind(&stat.kind()),
                size: stat.size().unwrap_or(0.0),
                mtime_ms: stat.mtime_ms().unwrap_or(0.0),
                real_path: stat.real_path(),
            },
        );
    }

    /// `path` read.
    #[wasm_bindgen(js_name = readBytes)]
    pub fn read_bytes(&mut self, path: &str, bytes: &[u8]) {
        self.inner.read_bytes(path, bytes);
    }

    /// What `kind` (`"list"`, `"stat"` or `"read"`) asked of `path`
    /// failed; `reason` is the host's error text (the engine reads
    /// `ENOENT` and `ELOOP` in it).
    pub fn failed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "AskKind")] kind: &str,
        path: &str,
        reason: &str,
    ) {
        let kind = match kind {
            "list" => AskKind::List,
            "stat" => AskKind::Stat,
            _ => AskKind::Read,
        };
        self.inner.failed(kind, path, reason);
    }

    /// The git command `Asks.git` named, run at the root: its exit code
    /// (`-1` when it could not run, `stderr` saying why) and its output.
    #[wasm_bindgen(js_name = gitListed)]
    pub fn git_listed(&mut self, exit_code: i32, stdout: &str, stderr: &str) {
        self.inner.git_listed(exit_code, stdout, stderr);
    }

    /// Puts a document the rules import; the project does not load again.
    #[wasm_bindgen(js_name = putDocument)]
    pub fn put_document(&mut self, path: &str, bytes: &[u8]) {
        self.inner.put_document(path, bytes);
    }

    /// A document of `len` bytes not read, being larger than the host's
    /// read bound (`maxReadBytes`): rendering it names its size.
    #[wasm_bindgen(js_name = putUnreadDocument)]
    pub fn put_unread_document(&mut self, path: &str, len: f64) {
        self.inner.put_unread_document(path, len as u64);
    }

    /// The most bytes a document is read with (the engine's bound).
    #[wasm_bindgen(js_name = maxReadBytes)]
    pub fn max_read_bytes() -> f64 {
        rule_fairy_engine::MAX_READ_BYTES as f64
    }

    /// A symbolic link at `path` leading to the absolute `target`, among
    /// the documents.
    #[wasm_bindgen(js_name = putLink)]
    pub fn put_link(&mut self, path: &str, target: &str) {
        self.inner.put_link(path, target);
    }

    /// Removes the document, link or directory at `path`, and everything
    /// below it.
    pub fn remove(&mut self, path: &str) {
        self.inner.remove(path);
    }

    /// Records that `dir` holds a `.git` entry.
    #[wasm_bindgen(js_name = markCheckout)]
    pub fn mark_checkout(&mut self, dir: &str) {
        self.inner.mark_checkout(dir);
    }

    /// The absolute paths of the documents the rules import; throws when
    /// the project does not load.
    #[wasm_bindgen(js_name = importedDocuments)]
    pub fn imported_documents(&mut self) -> Result<Vec<String>, JsError> {
        self.inner
            .imported_documents()
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// `{ file, probes }`: the edited file absolute and normalised, and the
    /// directories whose `.git` entry places it.
    #[wasm_bindgen(js_name = editProbes, unchecked_return_type = "EditProbes")]
    pub fn edit_probes(&self, file: &str) -> Result<JsValue, JsError> {
        let (file, probes) = self.inner.edit_probes(file);
        to_js(&EditProbes { file, probes })
    }

    /// `{ facts, markers, gate }`: the facts some rule tests, the marker
    /// files project tags come from, and the paths whose presence means the
    /// project keeps gate rules.
    #[wasm_bindgen(unchecked_return_type = "Wants")]
    pub fn wants(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.wants())
    }

    /// The absolute paths of the files whose text `fileContains` would test
    /// for `request` (none when no rule tests contents).
    #[wasm_bindgen(js_name = contentsDue)]
    pub fn contents_due(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "EventRequest")] request: JsValue,
    ) -> Result<Vec<String>, JsError> {
        let request: EventRequest = serde_wasm_bindgen::from_value(request)
            .map_err(|e| JsError::new(&format!("bad event request: {e}")))?;
        Ok(self.inner.contents_due(&request))
    }

    /// Whether subagents get the rules (`:subagents` in `rule-fairy.edn`,
    /// on by default), for the project as last refreshed.
    pub fn subagents(&self) -> bool {
        self.inner.subagents()
    }

    /// Whether a Read of `file` (absolute) may bring a rule (a requestable
    /// rule's file, or a file below a nested folder's always-on rule); the
    /// mod delivers for a read only then.
    #[wasm_bindgen(js_name = readMayDeliver)]
    pub fn read_may_deliver(&self, file: &str) -> bool {
        self.inner.read_may_deliver(file)
    }

    /// Whether the mod may read a file `fileContains` tests, from a stat
    /// with links resolved: its real path, its kind (`"file"`, `"dir"` or
    /// `"other"`) and its size (behaviour §0.1).
    #[wasm_bindgen(js_name = mayRead)]
    pub fn may_read(&self, real_path: &str, kind: &str, size: f64) -> bool {
        let kind = match kind {
            "file" => Kind::File,
            "dir" => Kind::Dir,
            _ => Kind::Other,
        };
        // A size JavaScript cannot state exactly is past any bound.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let size = if size.is_finite() && size >= 0.0 {
            size as u64
        } else {
            u64::MAX
        };
        self.inner.may_read(real_path, kind, size)
    }

    /// `"off"`, `"start"` or `"check"`: whether a shell event runs git.
    #[wasm_bindgen(js_name = shellPlan, unchecked_return_type = "ShellPlan")]
    pub fn shell_plan(&mut self, state: &str) -> Result<JsValue, JsError> {
        to_js(&self.inner.shell_plan(state))
    }

    /// The files of `git status --porcelain=v1 -z --untracked-files=all`
    /// output whose times to read, relative to the checkout's top level
    /// `toplevel` (as git printed it, without the newline): deletions
    /// dropped, and only files some rule could select or that lie below a
    /// directory holding an instruction file, as `instructionsListed` was
    /// last told.
    #[wasm_bindgen(js_name = shellCandidates)]
    pub fn shell_candidates(&mut self, porcelain: &[u8], toplevel: &str) -> Vec<String> {
        self.inner.shell_candidates(porcelain, toplevel)
    }

    /// The git command listing the project's instruction files, to run at
    /// the root: with `untracked` before an edit, without it beside `git
    /// status`; empty when there are none to list.
    #[wasm_bindgen(js_name = instructionListing)]
    pub fn instruction_listing(&mut self, untracked: bool) -> Vec<String> {
        self.inner.instruction_listing(untracked)
    }

    /// Whether an edit must run `instructionListing`'s command first.
    #[wasm_bindgen(js_name = instructionListingDue)]
    pub fn instruction_listing_due(&mut self) -> bool {
        self.inner.instruction_listing_due()
    }

    /// What that command printed, and its exit code (`-1`: it could not
    /// run).
    #[wasm_bindgen(js_name = instructionsListed)]
    pub fn instructions_listed(&mut self, exit_code: i32, stdout: &[u8]) {
        self.inner.instructions_listed(exit_code, stdout);
    }

    /// The absolute paths of the documents a delivery for `request` would
    /// read: those the due rules import, and the instruction files looked
    /// for (and what those import), to make sure of before `decide`; ask
    /// again after making sure, until nothing new is named.
    #[wasm_bindgen(js_name = documentsDue)]
    pub fn documents_due(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "EventRequest")] request: JsValue,
    ) -> Result<Vec<String>, JsError> {
        let request: EventRequest = serde_wasm_bindgen::from_value(request)
            .map_err(|e| JsError::new(&format!("bad event request: {e}")))?;
        Ok(self.inner.documents_due(&request))
    }

    /// Decides one event: `request` is an `EventRequest`, the answer an
    /// `EventResponse` (entries, delivered, deferred, log, state, stateError).
    #[wasm_bindgen(unchecked_return_type = "EventResponse")]
    pub fn decide(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "EventRequest")] request: JsValue,
    ) -> Result<JsValue, JsError> {
        let request: EventRequest = serde_wasm_bindgen::from_value(request)
            .map_err(|e| JsError::new(&format!("bad event request: {e}")))?;
        to_js(&self.inner.decide(&request))
    }
}

#[cfg(test)]
mod tests {
    use rule_fairy_engine::CI_VARIABLES;

    #[test]
    fn the_mod_reads_every_ci_variable_the_engine_names() {
        // `$.env.get` takes only literal names, so the mod spells each one
        // out; a name the engine adds must be added there too.
        let facts = include_str!("../../mod/facts.ts");
        for name in CI_VARIABLES {
            let read = |quote: char| format!("$.env.get({quote}{name}{quote})");
            assert!(
                facts.contains(&read('"')) || facts.contains(&read('\'')),
                "mod/facts.ts does not read {name}"
            );
        }
    }
}
