//! `<project>/.rule-fairy/codex/`: one JSON file per session, the lock
//! files, the `plugin-root` record, and the cleanup of old sessions
//! (behaviour §5.1). The directory ignores itself with a `.gitignore`, so a
//! repository needs no ignore rule for it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rule_fairy_engine::codex::SessionState;

use super::atomic::write_atomic;
use super::lock::SessionLock;
use super::session_id::SessionId;

/// Session files untouched this long are removed: Codex sessions are
/// rarely resumed after that, and a resumed one only gets its rules again.
pub(super) const STATE_TTL: Duration = Duration::from_secs(4 * 60 * 60);

pub(super) struct StateDir {
    path: PathBuf,
}

/// A session's state as read, and a note for standard error when the file
/// could not be used.
pub(super) struct Loaded {
    pub state: SessionState,
    pub note: Option<String>,
}

impl StateDir {
    pub(super) fn of_project(root: &Path) -> StateDir {
        StateDir {
            path: root.join(".rule-fairy").join("codex"),
        }
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Creates the directory and its `.gitignore` when missing.
    pub(super) fn prepare(&self) -> io::Result<()> {
        fs::create_dir_all(&self.path)?;
        let ignore = self.path.join(".gitignore");
        if !ignore.exists() {
            write_atomic(&ignore, b"*\n")?;
        }
        Ok(())
    }

    pub(super) fn lock(&self, session: &SessionId) -> io::Result<SessionLock> {
        SessionLock::acquire(&self.path.join("locks").join(format!("{session}.lock")))
    }

    fn session_file(&self, session: &SessionId) -> PathBuf {
        self.path.join(format!("{session}.json"))
    }

    /// The session's state; a missing file is a fresh session. A file that
    /// cannot be read or parsed is replaced by a fresh state on the next
    /// save, with a note: the worst outcome is rules delivered again.
    pub(super) fn load(&self, session: &SessionId) -> Loaded {
        let file = self.session_file(session);
        let problem = match fs::read(&file) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Loaded {
                    state: SessionState::default(),
                    note: None,
                }
            }
            Err(e) => e.to_string(),
            Ok(bytes) => match serde_json::from_slice(&bytes) {
                Ok(state) => return Loaded { state, note: None },
                Err(e) => format!("not a session state ({e})"),
            },
        };
        Loaded {
            state: SessionState::default(),
            note: Some(format!(
                "{}: {problem}; starting this session's record afresh, so rules delivered before may be delivered again",
                file.display()
            )),
        }
    }

    pub(super) fn save(&self, session: &SessionId, state: &SessionState) -> io::Result<()> {
        let json = serde_json::to_vec(state).expect("session states serialise");
        write_atomic(&self.session_file(session), &json)
    }

    /// Removes session and temporary files not modified for [`STATE_TTL`],
    /// anywhere below the directory, without following links out of it.
    /// Lock files and `plugin-root` stay. Errors are ignored: another hook
    /// may be removing the same file.
    pub(super) fn clean_up(&self, now: SystemTime) {
        remove_old(&self.path, now);
    }

    /// Records the plugin's installed root in `plugin-root` (one line), for
    /// the project's own review skill to find the plugin's scripts. Written
    /// only when the content differs, so its modification time says when
    /// the plugin moved.
    pub(super) fn record_plugin_root(&self, plugin_root: &str) -> io::Result<()> {
        let file = self.path.join("plugin-root");
        let content = format!("{plugin_root}\n");
        if fs::read(&file).ok().as_deref() == Some(content.as_bytes()) {
            return Ok(());
        }
        write_atomic(&file, content.as_bytes())
    }
}

fn remove_old(dir: &Path, now: SystemTime) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        // The entry's own type: a link is never followed.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            remove_old(&path, now);
            continue;
        }
        let removable = path
            .extension()
            .is_some_and(|ext| ext == "json" || ext == "tmp");
        if !kind.is_file() || !removable {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age >= STATE_TTL);
        if old {
            let _ = fs::remove_file(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::FileTimes;

    fn age(path: &Path, by: Duration) {
        let when = SystemTime::now() - by;
        fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_times(FileTimes::new().set_modified(when))
            .unwrap();
    }

    fn session(id: &str) -> SessionId {
        SessionId::parse(id).unwrap()
    }

    #[test]
    fn a_fresh_session_saves_reloads_and_ignores_itself() {
        let project = tempfile::tempdir().unwrap();
        let dir = StateDir::of_project(project.path());
        dir.prepare().unwrap();
        let s = session("s1");
        let loaded = dir.load(&s);
        assert_eq!(loaded.state, SessionState::default());
        assert!(loaded.note.is_none());
        let mut state = SessionState::default();
        state.record(&["a.mdc"], None);
        dir.save(&s, &state).unwrap();
        assert_eq!(dir.load(&s).state, state);
        assert_eq!(
            fs::read_to_string(project.path().join(".rule-fairy/codex/.gitignore")).unwrap(),
            "*\n"
        );
        assert!(!project.path().join(".rule-fairy/.gitignore").exists());
    }

    #[test]
    fn a_corrupt_file_reads_as_fresh_with_a_note() {
        let project = tempfile::tempdir().unwrap();
        let dir = StateDir::of_project(project.path());
        dir.prepare().unwrap();
        fs::write(dir.path().join("s1.json"), "{\"injected\": [").unwrap();
        let loaded = dir.load(&session("s1"));
        assert_eq!(loaded.state, SessionState::default());
        let note = loaded.note.unwrap();
        assert!(note.contains("s1.json: not a session state"), "{note}");
        assert!(note.contains("line 1"), "{note}");
    }

    #[test]
    fn cleanup_removes_only_old_session_and_temporary_files() {
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let dir = StateDir::of_project(project.path());
        dir.prepare().unwrap();
        let file = |rel: &str| {
            let path = dir.path().join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, "{}").unwrap();
            path
        };
        let old = file("old.json");
        let nested = file("nested/old.json");
        let tmp = file("old.json.123-4-5.tmp");
        let fresh = file("fresh.json");
        let lock = file("locks/old.lock");
        let root = file("plugin-root");
        let far = outside.path().join("old.json");
        fs::write(&far, "{}").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("outside")).unwrap();
        let hours = Duration::from_secs(5 * 60 * 60);
        for path in [&old, &nested, &tmp, &lock, &root, &far] {
            age(path, hours);
        }
        age(&fresh, STATE_TTL - Duration::from_secs(60));
        dir.clean_up(SystemTime::now());
        for gone in [&old, &nested, &tmp] {
            assert!(!gone.exists(), "{}", gone.display());
        }
        for kept in [&fresh, &lock, &root, &far] {
            assert!(kept.exists(), "{}", kept.display());
        }
    }

    #[test]
    fn plugin_root_is_written_only_when_it_changes() {
        let project = tempfile::tempdir().unwrap();
        let dir = StateDir::of_project(project.path());
        dir.prepare().unwrap();
        let file = dir.path().join("plugin-root");
        dir.record_plugin_root("/plugins/rule-fairy/0.1.0").unwrap();
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            "/plugins/rule-fairy/0.1.0\n"
        );
        age(&file, Duration::from_secs(60));
        let before = fs::metadata(&file).unwrap().modified().unwrap();
        dir.record_plugin_root("/plugins/rule-fairy/0.1.0").unwrap();
        assert_eq!(fs::metadata(&file).unwrap().modified().unwrap(), before);
        dir.record_plugin_root("/plugins/rule-fairy/0.2.0").unwrap();
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            "/plugins/rule-fairy/0.2.0\n"
        );
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, vec![".gitignore", "plugin-root"]);
    }
}
