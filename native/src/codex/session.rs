//! One hook's hold on its session: the state directory prepared, the
//! session locked, its state loaded, the transcript read for metrics; and
//! on close, the state saved and old files cleaned up. Everything between
//! `open` and `close` runs under the lock, so what a hook decides and what
//! it records cannot interleave with another hook of the same session.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rule_fairy_engine::codex::{Metrics, SessionState};

use super::lock::SessionLock;
use super::note;
use super::session_id::SessionId;
use super::state_dir::StateDir;
use super::transcript_file;

pub(super) struct OpenSession {
    dir: StateDir,
    id: SessionId,
    transcript: Option<PathBuf>,
    pub state: SessionState,
    _lock: SessionLock,
}

/// Milliseconds since the epoch.
pub(super) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl OpenSession {
    /// Locks the session of the project at `root` (a real path).
    /// `transcript` is the hook input's `transcript_path`.
    pub(super) fn open(
        root: &str,
        id: SessionId,
        transcript: Option<&str>,
    ) -> Result<OpenSession, String> {
        let dir = StateDir::of_project(Path::new(root));
        let plugin_root = plugin_root();
        if let Some(plugin) = &plugin_root {
            refuse_inside_plugin(dir.path(), plugin)?;
        }
        let failed =
            |what: &str, e: std::io::Error| format!("{}: cannot {what}: {e}", dir.path().display());
        dir.prepare()
            .map_err(|e| failed("create the state directory", e))?;
        let lock = dir.lock(&id).map_err(|e| failed("lock the session", e))?;
        let loaded = dir.load(&id);
        if let Some(problem) = loaded.note {
            note(&problem);
        }
        if let Some(plugin) = &plugin_root {
            if let Err(e) = dir.record_plugin_root(plugin) {
                note(&failed("record plugin-root", e));
            }
        }
        Ok(OpenSession {
            transcript: transcript.map(PathBuf::from),
            dir,
            id,
            state: loaded.state,
            _lock: lock,
        })
    }

    /// The transcript's metrics, moving `state`'s scan cursor; `None`
    /// without a readable transcript (a session run with `--ephemeral` has
    /// none).
    pub(super) fn transcript_metrics(&self, state: &mut SessionState) -> Option<Metrics> {
        let path = self.transcript.as_ref()?;
        match transcript_file::scan(path, state.transcript_scan) {
            Ok(scanned) => {
                if scanned.restarted {
                    note(&format!(
                        "{}: the transcript is shorter than before (replaced or truncated); rules will be delivered again",
                        path.display()
                    ));
                    state.transcript_restarted();
                }
                state.transcript_scan = scanned.cursor;
                Some(Metrics {
                    size: Some(scanned.size),
                    compaction_count: scanned.cursor.compaction_count,
                })
            }
            Err(e) => {
                note(&format!(
                    "{}: cannot read the transcript ({e}); compactions are not counted for this event",
                    path.display()
                ));
                None
            }
        }
    }

    /// Saves the state and releases the lock. Old session files are
    /// removed after the save, as every save does.
    pub(super) fn close(mut self) -> Result<(), String> {
        self.state.saved_at_ms = Some(now_ms());
        let saved = self.dir.save(&self.id, &self.state).map_err(|e| {
            format!(
                "{}: cannot save the session state: {e}",
                self.dir.path().display()
            )
        });
        self.dir.clean_up(SystemTime::now());
        saved
    }
}

/// The plugin's installed root, from the launcher or from Codex.
fn plugin_root() -> Option<String> {
    ["RULE_FAIRY_PLUGIN_ROOT", "PLUGIN_ROOT"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
}

/// Codex pins its trust in a plugin's hooks to a hash of every file in the
/// plugin's directory: one file written there and every hook of the plugin
/// silently stops running. A session whose project lies inside the
/// installed plugin is therefore refused rather than written to.
fn refuse_inside_plugin(state_dir: &Path, plugin_root: &str) -> Result<(), String> {
    let plugin = std::fs::canonicalize(plugin_root).unwrap_or_else(|_| PathBuf::from(plugin_root));
    if state_dir.starts_with(&plugin) {
        return Err(format!(
            "the project is inside the installed plugin ({}); writing session state there would make Codex distrust the plugin's hooks, so nothing was delivered or recorded",
            plugin.display()
        ));
    }
    Ok(())
}
