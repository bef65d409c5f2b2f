//! The native half of the shell check (behaviour §5.4): ask git which files
//! of the working tree differ from the index or are untracked, and keep
//! those whose modification or inode change time is at or after the
//! marker. What the answer means is the engine's (`shell`).

use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rule_fairy_engine::shell::{
    changed_since, project_paths, timing_candidates, toplevel, InstructionDirs,
};
use rule_fairy_engine::Project;

/// Project-relative paths changed at or after `marker_ms`, sorted, of
/// those some rule of `project` could select or that lie below a directory
/// holding an instruction file (the others' times are not read). Outside git, none. A git failure is an error, and the caller then
/// saves no new marker, so the next check covers the same window.
pub(super) fn changed_paths(project: &Project, marker_ms: i64) -> Result<Vec<String>, String> {
    let top = git(&project.root, &["rev-parse", "--show-toplevel"], &[0, 128])?;
    let Some(top) = toplevel(&String::from_utf8_lossy(&top)).map(str::to_string) else {
        return Ok(Vec::new());
    };
    // The listing runs beside `git status`, so it costs no wait of its own.
    let names = project.config.instruction_files().unwrap_or_default();
    let (status, instructions) = std::thread::scope(|scope| {
        let listing = scope.spawn(|| instruction_dirs(project, &names));
        let status = git(
            &project.root,
            &["status", "--porcelain=v1", "-z", "--untracked-files=all"],
            &[0],
        );
        (status, listing.join().unwrap_or_default())
    });
    let status = status?;
    let real_top = std::fs::canonicalize(&top)
        .map_or_else(|_| top.clone(), |p| p.to_string_lossy().into_owned());
    let instructions = instructions.with_porcelain(&status, &names, &real_top, &project.root);
    let candidates = timing_candidates(
        &status,
        &project.index,
        &instructions,
        &real_top,
        &project.root,
    );
    let times = change_times(Path::new(&top), &candidates);
    let changed: Vec<String> = candidates
        .into_iter()
        .zip(times)
        .filter(|(_, time)| time.is_some_and(|changed| changed_since(marker_ms, changed)))
        .map(|(path, _)| path)
        .collect();
    Ok(project_paths(&real_top, &project.root, &changed))
}

/// The directories holding tracked instruction files, as git lists them
/// (behaviour §5.3; the untracked ones come from `git status`): what
/// changed below one is timed too. A listing that fails only leaves them
/// out; the rules' own candidates are still timed.
fn instruction_dirs(project: &Project, names: &[String]) -> InstructionDirs {
    let argv = InstructionDirs::listing_command(names, false);
    let Some((_, args)) = argv.split_first() else {
        return InstructionDirs::default();
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match git(&project.root, &args, &[0]) {
        Ok(listing) => InstructionDirs::from_listing(&listing, names),
        Err(_) => InstructionDirs::default(),
    }
}

/// Below this many paths one thread reads the times: starting threads
/// costs more than it saves.
const PARALLEL_FROM: usize = 2_000;

/// [`change_time_ms`] of each of `paths` (relative to `top`), in order.
/// A large change (a build, a generated tree) is split across the cores:
/// one `lstat` per file is most of the hook's own work (behaviour §5.4).
fn change_times(top: &Path, paths: &[String]) -> Vec<Option<i64>> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if threads < 2 || paths.len() < PARALLEL_FROM {
        return paths.iter().map(|p| change_time_ms(&top.join(p))).collect();
    }
    let chunk = paths.len().div_ceil(threads.min(8));
    std::thread::scope(|scope| {
        let parts: Vec<_> = paths
            .chunks(chunk)
            .map(|part| {
                let reading = scope.spawn(move || {
                    part.iter()
                        .map(|p| change_time_ms(&top.join(p)))
                        .collect::<Vec<_>>()
                });
                (part.len(), reading)
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|(len, reading)| {
                // A thread that panicked read nothing: its files count as
                // gone, and the others keep their places.
                reading.join().unwrap_or_else(|_| vec![None; len])
            })
            .collect()
    })
}

/// The later of a file's modification and inode change times, of the entry
/// itself (a link is not followed). `mv` keeps the modification time; the
/// change time is what shows a move. `None` when the file is gone.
fn change_time_ms(path: &Path) -> Option<i64> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let ms = |secs: i64, nanos: i64| secs * 1000 + nanos / 1_000_000;
    Some(ms(meta.mtime(), meta.mtime_nsec()).max(ms(meta.ctime(), meta.ctime_nsec())))
}

/// Runs git in `dir`, killed when the hook's budget ends: a git that hangs
/// (a huge tree, a stuck file system) fails the check, which then saves
/// no marker, so the next check covers the same window, and the hook still
/// answers and releases the lock in time. `GIT_OPTIONAL_LOCKS=0` keeps `git
/// status` from refreshing the index, so the check never takes a lock the
/// agent's own git commands could trip over.
fn git(dir: &str, args: &[&str], accepted: &[i32]) -> Result<Vec<u8>, String> {
    git_until(dir, args, accepted, super::deadline())
}

fn git_until(
    dir: &str,
    args: &[&str],
    accepted: &[i32],
    deadline: Instant,
) -> Result<Vec<u8>, String> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git {}: {e}", args[0]))?;
    // Both pipes drain on their own threads, so a full pipe never stalls git.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("git {} took longer than the hook's time", args[0]));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("cannot wait for git {}: {e}", args[0])),
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    match status.code() {
        Some(code) if accepted.contains(&code) => Ok(stdout),
        _ => Err(format!(
            "git {} failed ({status}): {}",
            args[0],
            String::from_utf8_lossy(&stderr).trim()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_git_past_the_deadline_is_stopped_and_fails_the_check() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        let out = git_until(
            root,
            &["--version"],
            &[0],
            Instant::now() + Duration::from_secs(30),
        );
        assert!(String::from_utf8_lossy(&out.unwrap()).starts_with("git version"));
        // An alias that sleeps stands for a git that hangs.
        let started = Instant::now();
        let slow = git_until(
            root,
            &["-c", "alias.slow=!sleep 5", "slow"],
            &[0],
            Instant::now() + Duration::from_millis(200),
        );
        assert_eq!(slow.unwrap_err(), "git -c took longer than the hook's time");
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
        let failed = git_until(
            root,
            &["rev-parse", "--show-toplevel"],
            &[0],
            Instant::now() + Duration::from_secs(30),
        );
        assert!(failed.unwrap_err().starts_with("git rev-parse failed"));
    }

    #[test]
    fn times_of_a_large_change_keep_their_places() {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<String> = (0..PARALLEL_FROM + 500)
            .map(|i| format!("d{}/f{i}", i % 7))
            .collect();
        for (i, path) in paths.iter().enumerate() {
            // Every 97th file is gone before its time is read.
            if i % 97 != 0 {
                let file = dir.path().join(path);
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(file, "").unwrap();
            }
        }
        let times = change_times(dir.path(), &paths);
        assert_eq!(times.len(), paths.len());
        for (i, time) in times.iter().enumerate() {
            assert_eq!(time.is_none(), i % 97 == 0, "{}", paths[i]);
        }
    }
}
