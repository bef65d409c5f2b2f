//! One diff from a commit to the whole working tree (behaviour §6.1), made
//! through a throwaway index so committed, staged, unstaged and untracked
//! changes appear once each, and rename detection pairs a file deleted
//! outside git with its untracked new name. The real index is never
//! touched.

use std::fs::{File, FileTimes};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::git::Run;

/// Options that keep the output in the shape the bundle reads whatever the
/// user configured: fixed `a/` and `b/` prefixes, no external diff or text
/// conversion, no colour, non-ASCII paths left readable.
const DIFF: &[&str] = &[
    "-c",
    "core.quotepath=false",
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--cached",
    "--find-renames",
];

/// The diff from `base` (a commit or tree) to the working tree of the
/// checkout holding `root`. `relative` limits it to the project directory,
/// with paths relative to it, for a project below its checkout's top.
pub(super) fn patch(root: &Path, base: &str, relative: bool) -> Result<Vec<u8>, String> {
    let index = ScratchIndex::new();
    let env = index.path.to_string_lossy().into_owned();
    let real = Run::git(&["rev-parse", "--git-path", "index"]).text(root)?;
    copy_index(&root.join(real), &index.path)?;
    Run::git(&["add", "--all", "--", ":/", ":(exclude).rule-fairy"])
        .env("GIT_INDEX_FILE", env.clone())
        .output(root)?;
    let mut args: Vec<&str> = DIFF.to_vec();
    args.push(if relative {
        "--relative"
    } else {
        "--no-relative"
    });
    args.push(base);
    Run::git(&args).env("GIT_INDEX_FILE", env).output(root)
}

/// Starts the scratch index as a copy of the real one, so a staged
/// addition stays even when its path is ignored, and git re-reads only the
/// files whose size or time changed (in a large checkout, hashing every
/// file is most of the cost). The copy keeps the original's modification
/// time: git tells a racily clean entry (a file edited within the same
/// clock tick as the index write) by comparing the entry's time with the
/// index file's, and a copy with a fresh time would make git trust such an
/// entry. With the time kept, git reads the copy exactly as it reads the
/// real index. Before the first `git add` there is no index to copy.
fn copy_index(real: &Path, scratch: &Path) -> Result<(), String> {
    let mut file = match File::open(real) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("Cannot read the git index {}: {e}", real.display())),
    };
    let fail = |e: io::Error| format!("Cannot copy the git index {}: {e}", real.display());
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(fail)?;
    // The time of the version read: git replaces the index by renaming a
    // new file over it, so this handle's file never changes.
    let meta = file.metadata().map_err(fail)?;
    std::fs::write(scratch, &bytes).map_err(fail)?;
    let times = FileTimes::new()
        .set_modified(meta.modified().map_err(fail)?)
        .set_accessed(meta.accessed().map_err(fail)?);
    File::options()
        .write(true)
        .open(scratch)
        .and_then(|f| f.set_times(times))
        .map_err(fail)
}

/// A temporary index file, removed with its lock file when dropped.
struct ScratchIndex {
    path: PathBuf,
}

impl ScratchIndex {
    fn new() -> ScratchIndex {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "rule-fairy-index-{}-{nanos}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        ScratchIndex {
            path: std::env::temp_dir().join(name),
        }
    }
}

impl Drop for ScratchIndex {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        let mut lock = self.path.clone().into_os_string();
        lock.push(".lock");
        let _ = std::fs::remove_file(lock);
    }
}
