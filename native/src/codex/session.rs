//! One hook's hold on its session: the state directory prepared, the
//! session locked, its state loaded, the transcript read for metrics; and
//! on close, the state saved and old files cleaned up. Everything between
//! `open` and `close` runs under the lock, so what a hook decides and what
//! it records cannot interleave with another hook of the same session.
//!
//! A hook that cannot record (the state directory is refused or cannot be
//! made, the lock is not free in time) still delivers: it decides against
//! the state as last saved, records nothing, and says so (behaviour §5.1).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use rule_fairy_engine::codex::{Metrics, SessionState};

use super::lock::SessionLock;
use super::note;
use super::session_id::SessionId;
use super::state_dir::StateDir;
use super::transcript_file;

/// The longest a hook waits for its session's lock. Hooks of one session
/// hold it for milliseconds each; a holder that keeps it this long is
/// stopped or stuck.
pub(super) const LOCK_WAIT: Duration = Duration::from_secs(10);

pub(super) struct OpenSession {
    dir: StateDir,
    id: SessionId,
    transcript: Option<PathBuf>,
    pub state: SessionState,
    /// The lock; `None` when the hook delivers without recording.
    lock: Option<SessionLock>,
    /// Why nothing will be recorded, for the person's warning.
    pub unrecorded: Option<String>,
    /// The hook's deadline: reading stops there.
    deadline: Instant,
}

pub(super) use crate::utc::now_ms;

/// The last words of every "delivered without recording" warning.
const UNRECORDED: &str =
    "this event was delivered without recording it, so its rules may be delivered again";

impl OpenSession {
    /// Locks the session of the project at `root` (a real path).
    /// `transcript` is the hook input's `transcript_path`; `deadline` ends
    /// the hook's work (the lock is waited for [`LOCK_WAIT`] at most, and
    /// never past it). `Err` only for a project inside the installed
    /// plugin, where nothing is delivered.
    pub(super) fn open(
        root: &str,
        id: SessionId,
        transcript: Option<&str>,
        deadline: Instant,
    ) -> Result<OpenSession, String> {
        let dir = StateDir::of_project(Path::new(root));
        let plugin_root = plugin_root();
        if let Some(plugin) = &plugin_root {
            refuse_inside_plugin(dir.path(), plugin)?;
        }
        let lock = dir.prepare().and_then(|()| {
            let wait = LOCK_WAIT.min(deadline.saturating_duration_since(Instant::now()));
            dir.lock(&id, Instant::now() + wait).map_err(|e| {
                let file = dir.lock_file(&id);
                match e.kind() {
                    std::io::ErrorKind::TimedOut => format!(
                        "{}: the session's lock was not free within {:.1} s (another hook of this session holds it)",
                        file.display(),
                        wait.as_secs_f64()
                    ),
                    _ => format!("{}: cannot lock the session: {e}", file.display()),
                }
            })
        });
        let (lock, unrecorded) = match lock {
            Ok(lock) => (Some(lock), None),
            Err(problem) => {
                let problem = format!("{problem}; {UNRECORDED}");
                note(&problem);
                (None, Some(problem))
            }
        };
        // Without the lock the state is read as last saved (saves replace
        // the file whole, so it is never half-written); through a refused
        // directory it is not read at all.
        let state = if dir.readable() {
            let loaded = dir.load(&id);
            if let Some(problem) = loaded.note {
                note(&problem);
            }
            loaded.state
        } else {
            SessionState::default()
        };
        if let (Some(plugin), Some(_)) = (&plugin_root, &lock) {
            if let Err(e) = dir.record_plugin_root(plugin) {
                note(&format!(
                    "{}: cannot record plugin-root: {e}",
                    dir.path().display()
                ));
            }
        }
        Ok(OpenSession {
            transcript: transcript.map(PathBuf::from),
            dir,
            id,
            state,
            lock,
            unrecorded,
            deadline,
        })
    }

    /// The transcript's metrics, moving `state`'s scan cursor; `None`
    /// without a readable transcript (a session run with `--ephemeral` has
    /// none).
    pub(super) fn transcript_metrics(&self, state: &mut SessionState) -> Option<Metrics> {
        let path = self.transcript.as_ref()?;
        match transcript_file::scan(path, state.transcript_scan, self.deadline) {
            Ok(scanned) => {
                if scanned.restarted {
                    note(&format!(
                        "{}: the transcript is shorter than before (replaced or truncated); rules will be delivered again",
                        path.display()
                    ));
                    state.transcript_restarted();
                }
                if let Some(skipped) = scanned.skipped {
                    note(&format!(
                        "{}: the transcript grew by {skipped} bytes since it was last read; only its last {} bytes were read, and the rules delivered before count as compacted away",
                        path.display(),
                        transcript_file::READ_CAP
                    ));
                }
                if let Some(left) = scanned.unread {
                    note(&format!(
                        "{}: the hook's time ran out with {left} bytes of the transcript unread; the next event reads them",
                        path.display()
                    ));
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

    /// Saves the state and releases the lock; without the lock, saves
    /// nothing. Old session files are removed after the save, as every save
    /// does. Called only once the delivery was written out whole.
    pub(super) fn close(mut self) -> Result<(), String> {
        if self.lock.is_none() {
            return Ok(());
        }
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
pub(super) fn plugin_root() -> Option<String> {
    ["RULE_FAIRY_PLUGIN_ROOT", "PLUGIN_ROOT"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
}

/// Codex pins its trust in a plugin's hooks to a hash of every file in the
/// plugin's directory: one file written there and every hook of the plugin
/// silently stops running. A session whose project lies inside the
/// installed plugin is therefore refused rather than written to.
pub(super) fn refuse_inside_plugin(state_dir: &Path, plugin_root: &str) -> Result<(), String> {
    let plugin = std::fs::canonicalize(plugin_root).unwrap_or_else(|_| PathBuf::from(plugin_root));
    if state_dir.starts_with(&plugin) {
        return Err(format!(
            "the project is inside the installed plugin ({}); writing session state there would make Codex distrust the plugin's hooks, so nothing was delivered or recorded",
            plugin.display()
        ));
    }
    Ok(())
}
