//! `<project>/.rule-fairy/codex/`: one JSON file per session, the lock
//! files, the `plugin-root` record, and the cleanup of old sessions
//! (behaviour §5.1). The directory ignores itself with a `.gitignore`, so a
//! repository needs no ignore rule for it. Nothing is written, read or
//! deleted through a link: the directories are checked on the way from the
//! project root (`owned_dir`), and the cleanup removes only the files the
//! hooks make, by their names, in this one directory.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use rule_fairy_engine::codex::SessionState;

use super::atomic::{write_atomic, write_swapping, SPARE};
use super::lock::SessionLock;
use super::session_id::SessionId;
use crate::owned_dir;

/// Session files untouched this long are removed: Codex sessions are
/// rarely resumed after that, and a resumed one only gets its rules again.
pub(super) const STATE_TTL: Duration = Duration::from_secs(4 * 60 * 60);

/// The largest session file read: a state holds the delivered rules and
/// the shell check's pending paths, a few megabytes with 100,000 of them.
pub(crate) const STATE_CAP: u64 = 32 * 1024 * 1024;

/// The largest `plugin-root` read (one path and a newline).
const PLUGIN_ROOT_CAP: u64 = 64 * 1024;

/// The directories from the project root to the state directory.
const PARTS: [&str; 2] = [".rule-fairy", "codex"];

pub(super) struct StateDir {
    root: PathBuf,
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
            root: root.to_path_buf(),
            path: PARTS
                .iter()
                .fold(root.to_path_buf(), |p, part| p.join(part)),
        }
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Creates the directory, its `locks/` and its `.gitignore` when
    /// missing. A link (or a file) in place of any directory on the way is
    /// refused, naming it.
    pub(super) fn prepare(&self) -> Result<(), String> {
        owned_dir::prepare(&self.root, &PARTS)?;
        owned_dir::prepare(&self.path, &["locks"])?;
        let ignore = self.path.join(".gitignore");
        match fs::symlink_metadata(&ignore) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => write_atomic(&ignore, b"*\n")
                .map_err(|e| format!("{}: cannot write it: {e}", ignore.display())),
            _ => Ok(()),
        }
    }

    /// Whether the directory can be read: it exists and no part of the way
    /// to it is a link.
    pub(super) fn readable(&self) -> bool {
        matches!(owned_dir::existing(&self.root, &PARTS), Ok(Some(_)))
    }

    /// Takes the session's lock, waiting until `deadline` at most.
    pub(super) fn lock(&self, session: &SessionId, deadline: Instant) -> io::Result<SessionLock> {
        SessionLock::acquire(&self.lock_file(session), deadline)
    }

    pub(super) fn lock_file(&self, session: &SessionId) -> PathBuf {
        self.path.join("locks").join(format!("{session}.lock"))
    }

    fn session_file(&self, session: &SessionId) -> PathBuf {
        self.path.join(format!("{session}.json"))
    }

    /// The session's state; a missing file is a fresh session. A file that
    /// cannot be read or parsed (a link, not a regular file, over
    /// [`STATE_CAP`], not JSON) is replaced by a fresh state on the next
    /// save, with a note: the worst outcome is rules delivered again. The
    /// counters read are checked ([`SessionState::validated`]).
    pub(super) fn load(&self, session: &SessionId) -> Loaded {
        let file = self.session_file(session);
        let problem = match owned_dir::read_capped(&file, STATE_CAP) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Loaded {
                    state: SessionState::default(),
                    note: None,
                }
            }
            Err(e) => e.to_string(),
            Ok(bytes) => match serde_json::from_slice::<SessionState>(&bytes) {
                Ok(state) => {
                    let (state, problem) = state.validated();
                    return Loaded {
                        state,
                        note: problem.map(|p| format!("{}: {p}", file.display())),
                    };
                }
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
        // Under the session's lock: the one writer its spare needs.
        write_swapping(&self.session_file(session), &json)
    }

    /// Removes the session files (`<session id>.json`), their spares
    /// (`<session id>.json.spare`) and the temporary files of atomic
    /// writes (`<name>.<pid>-<nanos>-<n>.tmp`) not modified
    /// for [`STATE_TTL`], in this directory only: never below it, never a
    /// link's target, never a file of another name. Lock files and
    /// `plugin-root` stay. Errors are ignored: another hook may be removing
    /// the same file.
    pub(super) fn clean_up(&self, now: SystemTime) {
        if !self.readable() {
            return;
        }
        let Ok(entries) = fs::read_dir(&self.path) else {
            return;
        };
        for entry in entries.flatten() {
            // The entry's own type: a link is never followed.
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name();
            if !kind.is_file() || !name.to_str().is_some_and(is_ours) {
                continue;
            }
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|modified| now.duration_since(modified).ok())
                .is_some_and(|age| age >= STATE_TTL);
            if old {
                let _ = owned_dir::remove_file(&entry.path());
            }
        }
    }

    /// Records the plugin's installed root in `plugin-root` (one line), for
    /// the project's own review skill to find the plugin's scripts. Written
    /// only when the content differs, so its modification time says when
    /// the plugin moved.
    pub(super) fn record_plugin_root(&self, plugin_root: &str) -> io::Result<()> {
        let file = self.path.join("plugin-root");
        let content = format!("{plugin_root}\n");
        if owned_dir::read_capped(&file, PLUGIN_ROOT_CAP)
            .ok()
            .as_deref()
            == Some(content.as_bytes())
        {
            return Ok(());
        }
        write_atomic(&file, content.as_bytes())
    }
}

/// Whether a file name is one the hooks make and the cleanup may remove:
/// a session file, or an atomic write's temporary file of a name the hooks
/// write.
fn is_ours(name: &str) -> bool {
    if let Some(session) = name.strip_suffix(".json") {
        return SessionId::parse(session).is_ok();
    }
    if let Some(session_file) = name.strip_suffix(SPARE) {
        return is_session_file(session_file);
    }
    let Some((target, unique)) = name
        .strip_suffix(".tmp")
        .and_then(|rest| rest.rsplit_once('.'))
    else {
        return false;
    };
    let numbers: Vec<&str> = unique.split('-').collect();
    let unique_ok = numbers.len() == 3
        && numbers
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    unique_ok && (matches!(target, ".gitignore" | "plugin-root") || is_session_file(target))
}

fn is_session_file(name: &str) -> bool {
    name.strip_suffix(".json")
        .is_some_and(|session| SessionId::parse(session).is_ok())
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
        let tmp = file("old.json.123-4-5.tmp");
        let spare = file("old.json.spare");
        let fresh_spare = file("fresh.json.spare");
        let root_tmp = file("plugin-root.123-4-5.tmp");
        let fresh = file("fresh.json");
        let lock = file("locks/old.lock");
        let root = file("plugin-root");
        // Not the hooks' files: below the directory, or of other names.
        let nested = file("nested/old.json");
        let foreign = file("notes.txt.json.tmp");
        let foreign_spare = file("notes.txt.spare");
        let odd = file("a b.json");
        let far = outside.path().join("old.json");
        fs::write(&far, "{}").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("outside")).unwrap();
        std::os::unix::fs::symlink(&far, dir.path().join("linked.json")).unwrap();
        let hours = Duration::from_secs(5 * 60 * 60);
        for path in [
            &old,
            &nested,
            &tmp,
            &spare,
            &root_tmp,
            &lock,
            &root,
            &far,
            &foreign,
            &foreign_spare,
            &odd,
        ] {
            age(path, hours);
        }
        age(&fresh, STATE_TTL - Duration::from_secs(60));
        age(&fresh_spare, STATE_TTL - Duration::from_secs(60));
        dir.clean_up(SystemTime::now());
        for gone in [&old, &tmp, &spare, &root_tmp] {
            assert!(!gone.exists(), "{}", gone.display());
        }
        for kept in [
            &fresh,
            &fresh_spare,
            &lock,
            &root,
            &far,
            &nested,
            &foreign,
            &foreign_spare,
            &odd,
        ] {
            assert!(kept.exists(), "{}", kept.display());
        }
        assert!(dir.path().join("linked.json").symlink_metadata().is_ok());
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
        assert_eq!(names, vec![".gitignore", "locks", "plugin-root"]);
    }
}
