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
//!
//! Waiting is bounded (behaviour §5.1, "Lock"): a holder that is stopped
//! or hangs must not stall every later hook of the session, so a hook that
//! cannot get the lock by its deadline goes on without it (and records
//! nothing).

use std::collections::HashSet;
use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

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
    /// Waits until this thread holds the lock at `path` (created if
    /// missing; its directory must exist), or until `deadline`: then the
    /// error is of kind [`io::ErrorKind::TimedOut`].
    pub(super) fn acquire(path: &Path, deadline: Instant) -> io::Result<SessionLock> {
        {
            let held = held();
            let mut paths = held
                .paths
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            while paths.contains(path) {
                let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                    return Err(timed_out());
                };
                paths = held
                    .released
                    .wait_timeout(paths, left)
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .0;
            }
            paths.insert(path.to_path_buf());
        }
        match open_and_lock(path, deadline) {
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

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "another hook holds the lock")
}

/// Opens the lock file, never through a link (`O_NOFOLLOW`), and takes
/// its lock, trying again with growing pauses (1 ms to 50 ms) until
/// `deadline`.
fn open_and_lock(path: &Path, deadline: Instant) -> io::Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("the lock file is not a regular file"));
    }
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::Error(e)) => return Err(e),
            Err(TryLockError::WouldBlock) => {}
        }
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            return Err(timed_out());
        };
        std::thread::sleep(pause.min(left));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
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

    fn later() -> Instant {
        Instant::now() + Duration::from_secs(30)
    }

    #[test]
    fn threads_of_one_process_take_turns() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("locks")).unwrap();
        let path = dir.path().join("locks/s.lock");
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (path, inside, most) = (path.clone(), inside.clone(), most.clone());
                std::thread::spawn(move || {
                    let _lock = SessionLock::acquire(&path, later()).unwrap();
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
        let lock = SessionLock::acquire(&path, later()).unwrap();
        // A second open file description, as another process would have.
        let other = File::options().write(true).open(&path).unwrap();
        assert!(matches!(
            other.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
        drop(lock);
        assert!(other.try_lock().is_ok());
    }

    #[test]
    fn a_held_lock_times_out_at_the_deadline_and_a_link_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.lock");
        let other = File::create(&path).unwrap();
        other.lock().unwrap();
        let started = Instant::now();
        let waited = SessionLock::acquire(&path, Instant::now() + Duration::from_millis(200));
        assert_eq!(waited.err().unwrap().kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(10));
        drop(other);
        // The queue was left free: the lock is there once released.
        drop(SessionLock::acquire(&path, later()).unwrap());
        let target = dir.path().join("target");
        std::fs::write(&target, "keep").unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join("link.lock")).unwrap();
        assert!(SessionLock::acquire(&dir.path().join("link.lock"), later()).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    }
}
