//! The compiled project cache, `<project>/.rule-fairy/cache/project.bin`
//! (behaviour §5.1, "Rule changes"): the configuration, the rules source
//! and the rules read (with the findings of files that could not be), kept
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
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rule_fairy_engine::freshness::{self, FileTime, Observation, Seen, Stamp};
use rule_fairy_engine::{Code, Config, FileSource, Finding, Kind, Metadata, Place, Project, Rule};
use rule_fairy_engine::{Severity, Span};
use serde::{Deserialize, Serialize};

use crate::owned_dir;
use crate::stdfs::StdFs;

/// The directories from the project root to the cache's.
const PARTS: [&str; 2] = [".rule-fairy", "cache"];
const FILE: &str = "project.bin";
const TEMPORARY: &str = "project.bin.tmp";

/// What starts every cache file: a foreign file is passed over at once.
/// Its number goes up when the kept layout changes (the configuration's
/// values and the rules' sequence items gained their places in 2), so a build of the same version
/// never misreads another's cache.
const MAGIC: &[u8; 8] = b"RFCACHE4";

/// The program's version: a cache is never trusted across versions.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The largest cache read: well above 10,000 rules' text.
const CAP: u64 = 256 * 1024 * 1024;

/// A temporary file older than this was left by a hook that died while
/// writing (a hook's whole budget is 30 seconds): it is removed.
const ABANDONED: Duration = Duration::from_secs(60);

/// The cache's first part after [`MAGIC`]: what says whether it holds,
/// read and checked before the rules are decoded at all.
#[derive(Serialize, Deserialize)]
struct Head {
    version: String,
    root: String,
    /// When the load began, by the file system's clock.
    began: FileTime,
    observations: Vec<Observation>,
}

/// The second part: the project as loaded.
#[derive(Deserialize)]
struct Body {
    config: Config,
    source: rule_fairy_engine::RulesSource,
    rules: Vec<Rule>,
    findings: Vec<CachedFinding>,
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
    let bytes = owned_dir::read_capped(&dir.join(FILE), CAP).ok()?;
    let payload = bytes.strip_prefix(MAGIC.as_slice())?;
    let (head, rest): (Head, &[u8]) = postcard::take_from_bytes(payload).ok()?;
    if head.version != VERSION || head.root != root {
        return None;
    }
    if freshness::stale(&head.observations, head.began, &mut look_again).is_some() {
        return None;
    }
    drop(head);
    let body: Body = postcard::from_bytes(rest).ok()?;
    // The file's bytes are not needed past here: freed before the index
    // is built, they are not part of the peak.
    drop(bytes);
    let rules = rule_fairy_engine::RuleSet {
        rules: body.rules,
        findings: body
            .findings
            .into_iter()
            .map(CachedFinding::finding)
            .collect(),
    };
    Some(Project::from_rules(root, body.config, body.source, rules))
}

/// What the same look as `observation`'s says now.
fn look_again(observation: &Observation) -> Seen {
    match observation.seen {
        Seen::Resolved(_) => resolved(&observation.path),
        _ => stamped(Path::new(&observation.path)),
    }
}

fn resolved(path: &str) -> Seen {
    Seen::Resolved(StdFs.real_path(path).ok())
}

fn stamped(path: &Path) -> Seen {
    match fs::metadata(path) {
        Ok(meta) => Seen::Stamped(stamp_of(&meta)),
        Err(_) => Seen::Missing,
    }
}

fn time(secs: i64, nanos: i64) -> FileTime {
    FileTime {
        secs,
        nanos: nanos.clamp(0, 999_999_999) as u32,
    }
}

fn stamp_of(meta: &fs::Metadata) -> Stamp {
    Stamp {
        kind: match (meta.is_file(), meta.is_dir()) {
            (true, _) => 0,
            (_, true) => 1,
            _ => 2,
        },
        len: meta.len(),
        device: meta.dev(),
        inode: meta.ino(),
        modified: time(meta.mtime(), meta.mtime_nsec()),
        changed: time(meta.ctime(), meta.ctime_nsec()),
    }
}

/// The real file system, noting each path's answer for the cache.
#[derive(Default)]
struct Recorder {
    observations: RefCell<Vec<Observation>>,
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
        self.note(path, Seen::Resolved(real.as_ref().ok().cloned()));
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
        };
        let (Ok(head), Ok(body)) = (postcard::to_stdvec(&head), postcard::to_stdvec(&body)) else {
            return;
        };
        let written = self
            .file
            .write_all(MAGIC)
            .and_then(|()| self.file.write_all(&head))
            .and_then(|()| self.file.write_all(&body))
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
