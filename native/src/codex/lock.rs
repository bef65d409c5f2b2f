//! One exclusive lock per session: every hook reads the state, decides and
//! records under it. Codex starts all hooks of an event at once and runs
//! subagents under the parent's session id; deciding or recording outside
//! the lock loses updates and delivers rules twice.
//!
//! The lock is an operating-system file lock on `<state dir>/locks/<id>.lock`
//! plus an in-process queue. The queue matters where file locks belong to
//! the process rather than to the open file (fcntl-style locks on some
//! platforms): there, two threads of one process would both get the file
//! lock. The lock is not re-entrant.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, OnceLock};

/// Lock files held by threads of this process.
struct Held {
    paths: Mutex<HashSet<PathBuf>>,
    released: Condvar,
}

fn held() -> &'static Held {
    static HELD: OnceLock<Held> = OnceLock::new();
    HELD.get_or_init(|| Held {
        paths: Mutex::new(HashSet::new()),
        released: Condvar::new(),
    })
}

/// Holds the lock until dropped. Lock files are never deleted: removing
/// one while another process waits on it would let two holders in.
pub(super) struct SessionLock {
    path: PathBuf,
    _file: File,
}

impl SessionLock {
    /// Blocks until this thread holds the lock at `path` (created if
    /// missing, with its directory).
    pub(super) fn acquire(path: &Path) -> io::Result<SessionLock> {
        {
            let held = held();
            let mut paths = held
                .paths
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            while paths.contains(path) {
                paths = held
                    .released
                    .wait(paths)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            paths.insert(path.to_path_buf());
        }
        match open_and_lock(path) {
            Ok(file) => Ok(SessionLock {
                path: path.to_path_buf(),
                _file: file,
            }),
            Err(e) => {
                release(path);
                Err(e)
            }
        }
    }
}

fn open_and_lock(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)?;
    file.lock()?;
    Ok(file)
}

fn release(path: &Path) {
    let held = held();
    let mut paths = held
        .paths
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    paths.remove(path);
    held.released.notify_all();
}

impl Drop for SessionLock {
    fn drop(&mut self) {
        // Closing the file (after this) releases the file lock; the queue
        // is released first so a waiting thread then blocks on the file.
        release(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn threads_of_one_process_take_turns() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locks/s.lock");
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (path, inside, most) = (path.clone(), inside.clone(), most.clone());
                std::thread::spawn(move || {
                    let _lock = SessionLock::acquire(&path).unwrap();
                    let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(5));
                    inside.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 1);
        assert!(path.is_file());
    }

    #[test]
    fn another_open_file_waits_for_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.lock");
        let lock = SessionLock::acquire(&path).unwrap();
        // A second open file description, as another process would have.
        let other = File::options().write(true).open(&path).unwrap();
        assert!(matches!(
            other.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
        drop(lock);
        assert!(other.try_lock().is_ok());
    }
}
