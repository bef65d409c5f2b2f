//! The compiled project cache, `<project>/.rule-fairy/cache/project.bin`
//! (behaviour §5.1, "Rule changes"): the configuration, the rules source,
//! the rules read (with the findings of files that could not be) and the
//! index built over them, kept
//! between hook runs so a run whose rules did not change reads one file
//! and looks once at each path the load used, instead of listing, opening
//! and parsing them all.
//!
//! The load runs through [`Recorder`], which notes what the file system
//! said about every path asked (each file read, directory listed, path
//! looked up or resolved, and the directories and `.gitignore` files of
//! the nested folders' search); the engine's `freshness::stale` decides
//! whether those answers still hold. A cache that cannot be used (corrupt,
//! truncated, from another version or project, a directory, a FIFO, a
//! link) is passed over silently and the project loaded again.
//!
//! Writing: the temporary file is made with an exclusive create before the
//! load begins. Its creation is the lock (a hook that finds it there loads
//! without writing) and its time, the file system's own clock, is when the
//! load began: a path stamped no earlier is never trusted (git's racily
//! clean entries). It is renamed into place once written whole. Nothing
//! is written inside the installed plugin, as for the Codex state.

use std::cell::RefCell;
use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rule_fairy_engine::freshness::{self, FileTime, Observation, Seen, Stamp};
use rule_fairy_engine::RuleIndex;
use rule_fairy_engine::{Code, Config, FileSource, Finding, Kind, Metadata, Place, Project, Rule};
use rule_fairy_engine::{Severity, Span};
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use serde::{Deserialize, Serialize};

use crate::arena;
use crate::owned_dir;
use crate::stdfs::StdFs;

/// The directories from the project root to the cache's.
const PARTS: [&str; 2] = [".rule-fairy", "cache"];
const FILE: &str = "project.bin";
const TEMPORARY: &str = "project.bin.tmp";

/// What starts every cache file: a foreign file is passed over at once.
/// Its number goes up when the kept layout changes (the configuration's
/// values and the rules' sequence items gained their places in 2; in 4 a
/// rule keeps its frontmatter block as text and no empty conditions, and
/// a checksum follows the magic; 5 keeps the built index after the
/// rules), so a build of the same version never misreads another's cache.
const MAGIC: &[u8; 8] = b"RFCACHE5";

/// A sum of everything after it, so a cache edited by hand (or damaged
/// on disk) is passed over even where its bytes still decode: a rule's
/// name or terms changed in the cache alone would otherwise be believed
/// while the paths it depends on hold. Against mistakes, not a forger:
/// whoever can write the cache can write the rules.
fn checksum(payload: &[u8]) -> [u8; 8] {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::default()
        .hash_one(payload)
        .to_le_bytes()
}

/// The program's version: a cache is never trusted across versions.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The largest cache read: well above 10,000 rules' text.
const CAP: u64 = 256 * 1024 * 1024;

/// A temporary file older than this was left by a hook that died while
/// writing (a hook's whole budget is 30 seconds): it is removed.
const ABANDONED: Duration = Duration::from_secs(60);

/// The cache's first part after [`MAGIC`]: what says whether it holds,
/// read and checked before the rules are decoded at all. Written from the
/// load's own strings, read back borrowing them from the cache's bytes
/// (one allocation for 10,000 paths instead of one each).
#[derive(Serialize, Deserialize)]
struct Head<S> {
    version: S,
    root: S,
    /// When the load began, by the file system's clock.
    began: FileTime,
    observations: Vec<Observation<S>>,
}

/// The second part: the project as loaded, and its index as built.
#[derive(Deserialize)]
struct Body {
    config: Config,
    source: rule_fairy_engine::RulesSource,
    rules: Vec<Rule>,
    findings: Vec<CachedFinding>,
    index: RuleIndex,
}

/// [`Body`] as written, borrowing the loaded project instead of copying
/// its rules (the encoding is the same: a reference encodes as its value,
/// a slice as a sequence); the fields in the same order.
#[derive(Serialize)]
struct BodyWritten<'a> {
    config: &'a Config,
    source: &'a rule_fairy_engine::RulesSource,
    rules: &'a [Rule],
    findings: Vec<CachedFinding>,
    index: &'a RuleIndex,
}

/// A finding as kept (the engine's `Finding` serializes flat, for JSON).
#[derive(Serialize, Deserialize)]
struct CachedFinding {
    error: bool,
    code: Code,
    file: String,
    line: Option<usize>,
    span: Option<(usize, usize)>,
    message: String,
    hint: Option<String>,
}

impl CachedFinding {
    fn of(finding: &Finding) -> Self {
        CachedFinding {
            error: finding.severity == Severity::Error,
            code: finding.code,
            file: finding.place.file.clone(),
            line: finding.place.line,
            span: finding.span.map(|s| (s.column, s.end_column)),
            message: finding.message.clone(),
            hint: finding.hint.clone(),
        }
    }

    fn finding(self) -> Finding {
        let place = match self.line {
            Some(line) => Place::line(&self.file, line),
            None => Place::file(&self.file),
        };
        let finding = match self.error {
            true => Finding::error(self.code, place, self.message),
            false => Finding::warning(self.code, place, self.message),
        };
        let finding = finding.with_span(
            self.span
                .map(|(column, end_column)| Span { column, end_column }),
        );
        match self.hint {
            Some(hint) => finding.with_hint(hint),
            None => finding,
        }
    }
}

/// The project at `root`: from the cache when every path it depends on
/// is as it was, else loaded (and the cache written, when no other hook is
/// writing it). Errors are the load's own; the cache adds none.
///
/// For a process that ends after using it (a hook, `explain`): the project
/// is never freed. Freeing 10,000 rules' allocations one by one took more
/// time than loading them from the cache.
pub(crate) fn load(root: &str) -> rule_fairy_engine::Result<&'static Project> {
    load_owned(root).map(|project| &*Box::leak(Box::new(project)))
}

fn load_owned(root: &str) -> rule_fairy_engine::Result<Project> {
    let dir = owned_dir::existing(Path::new(root), &PARTS).ok().flatten();
    if let Some(project) = dir.as_deref().and_then(|dir| cached(dir, root)) {
        return Ok(project);
    }
    let writer = Writer::start(root);
    let recorder = Recorder::default();
    let project = Project::load(&recorder, root)?;
    if let Some(writer) = writer {
        writer.finish(&project, recorder.observations.into_inner());
    }
    Ok(project)
}

/// The kept project, when the cache is readable, this version's, this
/// project's, and still holds.
fn cached(dir: &Path, root: &str) -> Option<Project> {
    let bytes = owned_dir::map_capped(&dir.join(FILE), CAP).ok()?;
    let (sum, payload) = bytes.strip_prefix(MAGIC.as_slice())?.split_first_chunk()?;
    if *sum != checksum(payload) {
        return None;
    }
    let (head, rest): (Head<&str>, &[u8]) = postcard::take_from_bytes(payload).ok()?;
    if head.version != VERSION || head.root != root {
        return None;
    }
    let mut looker = Looker::default();
    let mut look_again = |observation: &Observation<&str>| looker.again(observation);
    if freshness::stale(&head.observations, head.began, &mut look_again).is_some() {
        return None;
    }
    drop(head);
    // What is decoded and built from here on lives until the process ends.
    arena::on(ARENA_PER_BYTE * rest.len());
    let body = postcard::from_bytes::<Body>(rest).ok();
    // The file's bytes are not needed past here: the index was decoded
    // with the rules, not built again.
    drop(bytes);
    let project = body.and_then(|body| {
        let rules = rule_fairy_engine::RuleSet {
            rules: body.rules,
            findings: body
                .findings
                .into_iter()
                .map(CachedFinding::finding)
                .collect(),
        };
        Project::with_index(root, body.config, body.source, rules, body.index)
    });
    arena::off();
    project
}

/// The arena's room for each byte of a cache's body: a warm 10,000-rule
/// load takes about 1.6 of it. Room never used costs no memory (its pages
/// are never touched), and a load that outgrows it goes on in the base
/// allocator.
const ARENA_PER_BYTE: usize = 3;

/// Looks at kept paths again, each from its parent directory, opened once
/// for the paths in it that come one after another (a load notes a
/// directory's files together): resolving every component of a long path
/// again for each of 10,000 rule files was about a third of a warm run.
#[derive(Default)]
struct Looker {
    /// The last parent opened, `None` beside it when it could not be.
    dir: Option<(PathBuf, Option<OwnedFd>)>,
}

impl Looker {
    /// What the same look as `observation`'s says now.
    fn again(&mut self, observation: &Observation<&str>) -> Seen {
        match observation.seen {
            Seen::Resolved(_) => resolved(observation.path),
            _ => self.stamped(Path::new(observation.path)),
        }
    }

    fn stamped(&mut self, path: &Path) -> Seen {
        let Some((parent, name)) = parent_and_name(path) else {
            return stamped(path);
        };
        // Compared as bytes: comparing paths parses their components.
        let same = |dir: &PathBuf| dir.as_os_str().as_bytes() == parent.as_os_str().as_bytes();
        if !self.dir.as_ref().is_some_and(|(dir, _)| same(dir)) {
            // Never blocks: a FIFO in a directory's place is refused.
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NONBLOCK | OFlags::CLOEXEC;
            let opened = rustix::fs::open(parent, flags, Mode::empty()).ok();
            self.dir = Some((parent.to_path_buf(), opened));
        }
        match &self.dir {
            // Links followed, as `stamped` follows them.
            Some((_, Some(dir))) => seen(rustix::fs::statat(dir, name, AtFlags::empty())),
            // A directory that cannot be opened (gone, or searchable but
            // not readable): the whole path is looked at.
            _ => stamped(path),
        }
    }
}

/// A path's parent directory and last name, when it has both as written
/// (not a name `.` or `..`, nor a slash at the end, which a look from the
/// parent would read otherwise). Split at the last slash, byte by byte:
/// the path's components are never parsed, which cost more than the look.
fn parent_and_name(path: &Path) -> Option<(&Path, &OsStr)> {
    let written = path.as_os_str().as_bytes();
    let slash = written.iter().rposition(|&b| b == b'/')?;
    let (parent, name) = (&written[..slash.max(1)], &written[slash + 1..]);
    if name.is_empty() || name == b"." || name == b".." {
        return None;
    }
    Some((
        Path::new(OsStr::from_bytes(parent)),
        OsStr::from_bytes(name),
    ))
}

fn resolved(path: &str) -> Seen {
    Seen::Resolved(StdFs.real_path(path).ok())
}

/// A path's stamp, links followed.
fn stamped(path: &Path) -> Seen {
    seen(rustix::fs::stat(path))
}

fn seen(stat: rustix::io::Result<rustix::fs::Stat>) -> Seen {
    match stat {
        Ok(stat) => Seen::Stamped(stamp_of(&stat)),
        Err(_) => Seen::Missing,
    }
}

fn time(secs: i64, nanos: i64) -> FileTime {
    FileTime {
        secs,
        nanos: nanos.clamp(0, 999_999_999) as u32,
    }
}

// The fields' integer types differ between systems (a Linux device is a
// u64, a macOS one an i32): every cast is needed somewhere.
#[allow(clippy::unnecessary_cast)]
fn stamp_of(stat: &rustix::fs::Stat) -> Stamp {
    let kind = FileType::from_raw_mode(stat.st_mode);
    Stamp {
        kind: match kind {
            FileType::RegularFile => 0,
            FileType::Directory => 1,
            _ => 2,
        },
        len: stat.st_size as u64,
        device: stat.st_dev as u64,
        inode: stat.st_ino as u64,
        modified: time(stat.st_mtime as i64, stat.st_mtime_nsec as i64),
        changed: time(stat.st_ctime as i64, stat.st_ctime_nsec as i64),
    }
}

/// The real file system, noting each path's answer for the cache.
#[derive(Default)]
struct Recorder {
    observations: RefCell<Vec<Observation>>,
    /// Each path resolved so far and what it resolved to: a load resolves
    /// the root and its rules directories several times, and one look
    /// again at each is enough.
    resolved: RefCell<std::collections::HashMap<String, Option<String>>>,
}

impl Recorder {
    fn note(&self, path: &str, seen: Seen) {
        self.observations.borrow_mut().push(Observation {
            path: path.to_string(),
            seen,
        });
    }

    fn note_stamp(&self, path: &Path) {
        let seen = stamped(path);
        self.note(&path.to_string_lossy(), seen);
    }
}

impl FileSource for Recorder {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        // Stamped before the read: an edit after it moves the stamp.
        self.note_stamp(Path::new(path));
        StdFs.read(path)
    }

    fn list(&self, dir: &str) -> io::Result<Vec<String>> {
        self.note_stamp(Path::new(dir));
        StdFs.list(dir)
    }

    fn list_kinds(&self, dir: &str) -> io::Result<Vec<(String, Option<Kind>)>> {
        self.note_stamp(Path::new(dir));
        StdFs.list_kinds(dir)
    }

    fn find_folders(&self, root: &str, folders: &[String]) -> Option<io::Result<Vec<String>>> {
        // Rule Fairy's own directory changes with every hook and holds
        // nothing git lists (it ignores itself): it is not watched.
        let own = Path::new(root).join(PARTS[0]);
        let found = crate::nested_folders::find_traced(root, folders, &mut |path| {
            if !path.starts_with(&own) {
                self.note_stamp(path);
            }
        });
        for file in ignore_files(Path::new(root)) {
            self.note_stamp(&file);
        }
        Some(found)
    }

    fn stat(&self, path: &str) -> io::Result<Metadata> {
        let found = StdFs.stat(path);
        self.note_stamp(Path::new(path));
        found
    }

    fn real_path(&self, path: &str) -> io::Result<String> {
        let real = StdFs.real_path(path);
        let answer = real.as_ref().ok().cloned();
        let mut resolved = self.resolved.borrow_mut();
        if resolved.get(path) != Some(&answer) {
            resolved.insert(path.to_string(), answer.clone());
            self.note(path, Seen::Resolved(answer));
        }
        real
    }
}

/// The ignore files above the project that git (and the search) reads:
/// each ancestor's `.gitignore` up to the checkout, its
/// `.git/info/exclude`, and the user's global excludes file at its usual
/// place.
fn ignore_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in root.ancestors().skip(1) {
        files.push(dir.join(".gitignore"));
        if dir.join(".git").exists() {
            break;
        }
    }
    for dir in root.ancestors() {
        if dir.join(".git").exists() {
            files.push(dir.join(".git/info/exclude"));
            break;
        }
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".config")));
    if let Some(config) = config {
        files.push(config.join("git/ignore"));
    }
    files
}

/// The one hook writing the cache: it holds the temporary file.
struct Writer {
    dir: PathBuf,
    file: File,
    began: FileTime,
    done: bool,
}

impl Writer {
    /// Makes the temporary file, or `None` when another hook is writing
    /// (or nothing may be written here).
    fn start(root: &str) -> Option<Writer> {
        if crate::codex::inside_plugin(Path::new(root)) {
            return None;
        }
        let dir = owned_dir::prepare(Path::new(root), &PARTS).ok()?;
        let ignore = dir.join(".gitignore");
        if fs::symlink_metadata(&ignore).is_err() {
            owned_dir::write_file(&ignore, b"*\n").ok()?;
        }
        let temporary = dir.join(TEMPORARY);
        let file = match create_new(&temporary) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                remove_if_abandoned(&temporary);
                return None;
            }
            Err(_) => return None,
        };
        let meta = file.metadata().ok()?;
        Some(Writer {
            began: time(meta.mtime(), meta.mtime_nsec()),
            dir,
            file,
            done: false,
        })
    }

    /// Writes the cache whole and renames it into place; a failure leaves
    /// no cache, and is no failure of the hook.
    fn finish(mut self, project: &Project, observations: Vec<Observation>) {
        let head = Head {
            version: VERSION.to_string(),
            root: project.root.clone(),
            began: self.began,
            observations,
        };
        let body = BodyWritten {
            config: &project.config,
            source: &project.source,
            rules: &project.rules.rules,
            findings: project
                .rules
                .findings
                .iter()
                .map(CachedFinding::of)
                .collect(),
            index: &project.index,
        };
        let (Ok(head), Ok(body)) = (postcard::to_stdvec(&head), postcard::to_stdvec(&body)) else {
            return;
        };
        let mut payload = head;
        payload.extend_from_slice(&body);
        let written = self
            .file
            .write_all(MAGIC)
            .and_then(|()| self.file.write_all(&checksum(&payload)))
            .and_then(|()| self.file.write_all(&payload))
            .and_then(|()| fs::rename(self.dir.join(TEMPORARY), self.dir.join(FILE)));
        self.done = written.is_ok();
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        if !self.done {
            let _ = owned_dir::remove_file(&self.dir.join(TEMPORARY));
        }
    }
}

fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

/// Removes a temporary file a hook that died left, so the cache is
/// written again at a later run.
fn remove_if_abandoned(path: &Path) {
    let old = fs::symlink_metadata(path)
        .ok()
        .and_then(|meta| meta.modified().ok())
        .and_then(|modified| SystemTime::now().duration_since(modified).ok())
        .is_some_and(|age| age > ABANDONED);
    if old {
        let _ = owned_dir::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A look from the parent directory says what a look at the whole
    /// path says: for files, directories, links, missing paths and paths
    /// a parent cannot answer for (`.`, `..`, a trailing slash).
    #[test]
    fn a_look_from_the_parent_is_a_look_at_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir(root.join("d")).unwrap();
        fs::write(root.join("d/a.mdc"), "a").unwrap();
        fs::write(root.join("b.mdc"), "bb").unwrap();
        std::os::unix::fs::symlink("d/a.mdc", root.join("link.mdc")).unwrap();
        let mut looker = Looker::default();
        for rel in [
            "d/a.mdc",
            "d",
            "b.mdc",
            "link.mdc",
            "gone.mdc",
            "gone/a.mdc",
            "d/.",
            "d/..",
            "d/",
            "b.mdc/x",
            "b.mdc/.",
            "b.mdc/",
            "d/a.mdc",
        ] {
            let path = root.join(rel);
            let whole = stamped(&path);
            assert_eq!(looker.stamped(&path), whole, "{rel}");
            let by_std = fs::metadata(&path).map(|m| (m.len(), m.ino(), m.mtime_nsec()));
            match (whole, by_std) {
                (Seen::Stamped(s), Ok((len, ino, nanos))) => {
                    assert_eq!(
                        (s.len, s.inode, s.modified.nanos as i64),
                        (len, ino, nanos),
                        "{rel}"
                    );
                }
                (Seen::Missing, Err(_)) => {}
                (whole, by_std) => panic!("{rel}: {whole:?} beside {by_std:?}"),
            }
        }
        assert_eq!(parent_and_name(Path::new("d/.")), None);
        assert_eq!(
            parent_and_name(Path::new("a.mdc")),
            None,
            "no parent written"
        );
    }
}
