//! The compiled project cache, `<project>/.rule-fairy/cache/project.bin`
//! (behaviour §5.1, "Rule changes"): the configuration, the rules source,
//! the findings of files that could not be read, the index built over the
//! rules, and the rules, each encoded apart, kept between hook runs so a
//! run whose rules did not change reads one file and looks once at each
//! path the load used, instead of listing, opening and parsing them all.
//! Only the rules a run asks for are read and decoded (a prompt's few),
//! from the file kept open for the rest of the process.
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
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use rule_fairy_engine::freshness::{self, FileTime, Observation, Seen, Stamp};
use rule_fairy_engine::RuleIndex;
use rule_fairy_engine::{Code, Config, FileSource, Finding, Kind, Metadata, Place, Project, Rule};
use rule_fairy_engine::{Decode, KeptRules, RuleSet};
use rule_fairy_engine::{Severity, Span};
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use serde::{Deserialize, Serialize};

use crate::arena;
use crate::owned_dir;
use crate::stdfs::StdFs;
use crate::streamed;

/// The directories from the project root to the cache's.
const PARTS: [&str; 2] = [".rule-fairy", "cache"];
const FILE: &str = "project.bin";
const TEMPORARY: &str = "project.bin.tmp";

/// What starts every cache file: a foreign file is passed over at once.
/// Its number goes up when the kept layout changes (the configuration's
/// values and the rules' sequence items gained their places in 2; in 4 a
/// rule keeps its frontmatter block as text and no empty conditions, and
/// a checksum follows the magic; 5 keeps the built index after the
/// rules; 6 keeps the index first and each rule encoded apart after it),
/// so a build of the same version never misreads another's cache.
const MAGIC: &[u8; 8] = b"RFCACHE6";

/// Where the payload starts: after the magic and the checksum. It starts
/// with the head's length, eight bytes, little-endian.
const PAYLOAD_AT: u64 = MAGIC.len() as u64 + 8;

/// A sum of everything after it, so a cache edited by hand (or damaged
/// on disk) is passed over even where its bytes still decode: a rule's
/// name or terms changed in the cache alone would otherwise be believed
/// while the paths it depends on hold. Against mistakes, not a forger:
/// whoever can write the cache can write the rules.
///
/// Summed [`SUM_PART`] bytes at a time, so a reader reads the file
/// through one buffer of that size, never holding it whole.
struct Checksum(foldhash::quality::FoldHasher<'static>);

const SUM_PART: usize = 256 * 1024;

impl Checksum {
    fn new() -> Checksum {
        use std::hash::BuildHasher;
        Checksum(foldhash::quality::FixedState::default().build_hasher())
    }

    /// Adds the next part: [`SUM_PART`] bytes, or the last ones.
    fn add(&mut self, part: &[u8]) {
        std::hash::Hasher::write(&mut self.0, part);
    }

    fn of(payload: &[u8]) -> [u8; 8] {
        let mut sum = Checksum::new();
        payload.chunks(SUM_PART).for_each(|part| sum.add(part));
        sum.finish(payload.len() as u64)
    }

    /// The sum of a file's bytes from `at` to its `size`.
    fn of_file(file: &File, at: u64, size: u64) -> Option<[u8; 8]> {
        let mut sum = Checksum::new();
        let mut part = vec![0; SUM_PART.min(usize::try_from(size - at).ok()?)];
        let mut next = at;
        while next < size {
            let len = (size - next).min(SUM_PART as u64) as usize;
            file.read_exact_at(&mut part[..len], next).ok()?;
            sum.add(&part[..len]);
            next += len as u64;
        }
        Some(sum.finish(size - at))
    }

    fn finish(mut self, len: u64) -> [u8; 8] {
        std::hash::Hasher::write_u64(&mut self.0, len);
        std::hash::Hasher::finish(&self.0).to_le_bytes()
    }
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

/// The second part: the project as loaded but its rules, its index as
/// built, and where each rule's encoding ends in the third part, the
/// rules encoded one after another in name order.
#[derive(Deserialize)]
struct Body {
    config: Config,
    source: rule_fairy_engine::RulesSource,
    findings: Vec<CachedFinding>,
    index: RuleIndex,
    rule_ends: Vec<u32>,
}

/// [`Body`] as written, borrowing the loaded project (the encoding is the
/// same: a reference encodes as its value); the fields in the same order.
#[derive(Serialize)]
struct BodyWritten<'a> {
    config: &'a Config,
    source: &'a rule_fairy_engine::RulesSource,
    findings: Vec<CachedFinding>,
    index: &'a RuleIndex,
    rule_ends: Vec<u32>,
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
/// project's, and still holds. The file is read through, never whole:
/// a warm run holds the index it decoded, not the file beside it.
fn cached(dir: &Path, root: &str) -> Option<Project> {
    let (file, size) = owned_dir::open_capped(&dir.join(FILE), CAP).ok()?;
    let mut lead = [0; PAYLOAD_AT as usize + 8];
    file.read_exact_at(&mut lead, 0).ok()?;
    let (magic, rest) = lead.split_first_chunk::<8>()?;
    let (sum, head_len) = rest.split_first_chunk::<8>()?;
    if magic != MAGIC || Checksum::of_file(&file, PAYLOAD_AT, size)? != *sum {
        return None;
    }
    let head_at = PAYLOAD_AT + 8;
    let head_len = u64::from_le_bytes(head_len.try_into().ok()?);
    // A length is believed only within the file: nothing is made of the
    // size a damaged one says.
    let body_at = head_at.checked_add(head_len).filter(|&at| at <= size)?;
    let mut head = vec![0; usize::try_from(head_len).ok()?];
    file.read_exact_at(&mut head, head_at).ok()?;
    if !holds(&postcard::from_bytes(&head).ok()?, root) {
        return None;
    }
    drop(head);
    // What is decoded from here on lives until the process ends.
    arena::on(ARENA_PER_BYTE * usize::try_from(size - body_at).ok()?);
    let body = streamed::decode::<Body>(&file, body_at, size);
    arena::off();
    let (body, rules_at) = body?;
    let rules = kept_rules(&body.rule_ends, size - rules_at)?;
    let decode = decode_rules(file, rules_at, body.rule_ends);
    let findings = body.findings.into_iter().map(CachedFinding::finding);
    let rules = RuleSet::kept(KeptRules::new(rules, decode), findings.collect());
    Project::with_index(root, body.config, body.source, rules, body.index)
}

/// Whether a kept head is this version's, this project's, and every path
/// it depends on is as it was.
fn holds(head: &Head<&str>, root: &str) -> bool {
    if head.version != VERSION || head.root != root {
        return false;
    }
    let mut looker = Looker::default();
    let mut look_again = |observation: &Observation<&str>| looker.again(observation);
    freshness::stale(&head.observations, head.began, &mut look_again).is_none()
}

/// How many rules the ends mark, when they rise and end where the rules'
/// bytes do.
fn kept_rules(ends: &[u32], len: u64) -> Option<usize> {
    let rising = ends.windows(2).all(|pair| pair[0] <= pair[1]);
    let last = ends.last().map_or(0, |&end| u64::from(end));
    (rising && last == len).then_some(ends.len())
}

/// The rule at a place, read from the file (kept open for the rest of
/// the process) and decoded: `rules_at` is where the rules start, `ends`
/// where each one's encoding ends after that.
fn decode_rules(file: File, rules_at: u64, ends: Vec<u32>) -> Decode {
    Arc::new(move |place| {
        let end = u64::from(*ends.get(place)?);
        let start = place
            .checked_sub(1)
            .map_or(0, |before| u64::from(ends[before]));
        let mut bytes = vec![0; usize::try_from(end - start).ok()?];
        file.read_exact_at(&mut bytes, rules_at + start).ok()?;
        postcard::from_bytes::<Rule>(&bytes).ok()
    })
}

/// The arena's room for each byte after the cache's head (the body, and
/// the rules, decoded later and outside it): more than a load takes,
/// since room never used costs no memory (its pages are never touched);
/// a load that outgrows it goes on in the base allocator.
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
        let Some((rules, rule_ends)) = encoded_rules(project.rules.all()) else {
            return;
        };
        let body = BodyWritten {
            config: &project.config,
            source: &project.source,
            findings: project
                .rules
                .findings
                .iter()
                .map(CachedFinding::of)
                .collect(),
            index: &project.index,
            rule_ends,
        };
        let (Ok(head), Ok(body)) = (postcard::to_stdvec(&head), postcard::to_stdvec(&body)) else {
            return;
        };
        let mut payload = (head.len() as u64).to_le_bytes().to_vec();
        payload.extend_from_slice(&head);
        payload.extend_from_slice(&body);
        payload.extend_from_slice(&rules);
        let written = self
            .file
            .write_all(MAGIC)
            .and_then(|()| self.file.write_all(&Checksum::of(&payload)))
            .and_then(|()| self.file.write_all(&payload))
            .and_then(|()| fs::rename(self.dir.join(TEMPORARY), self.dir.join(FILE)));
        self.done = written.is_ok();
    }
}

/// The rules encoded one after another, and where each one ends.
fn encoded_rules(rules: &[Rule]) -> Option<(Vec<u8>, Vec<u32>)> {
    let mut bytes = Vec::new();
    let mut ends = Vec::with_capacity(rules.len());
    for rule in rules {
        bytes = postcard::to_extend(rule, bytes).ok()?;
        ends.push(u32::try_from(bytes.len()).ok()?);
    }
    Some((bytes, ends))
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

    /// A project of two rules whose cache was written, and the cache's
    /// directory.
    fn cached_project() -> (tempfile::TempDir, String, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap().to_string();
        fs::create_dir_all(dir.path().join(".cursor/rules")).unwrap();
        fs::write(
            dir.path().join(".cursor/rules/a.mdc"),
            "---\nalwaysApply: true\n---\n# Alpha",
        )
        .unwrap();
        fs::write(
            dir.path().join(".cursor/rules/b.mdc"),
            "---\nkeywords: [deploy]\n---\n# Beta",
        )
        .unwrap();
        // Stamps older than the cache's own write are trusted.
        std::thread::sleep(Duration::from_millis(50));
        load_owned(&root).unwrap();
        let cache = dir.path().join(PARTS.iter().collect::<PathBuf>());
        assert!(cached(&cache, &root).is_some(), "the cache is used");
        (dir, root, cache)
    }

    /// The cache's parts: the head as written, the body decoded, the rules'
    /// bytes.
    fn parts(cache: &Path) -> (Vec<u8>, Body, Vec<u8>) {
        let bytes = fs::read(cache.join(FILE)).unwrap();
        let head_len = u64::from_le_bytes(bytes[16..24].try_into().unwrap()) as usize;
        let head = bytes[24..24 + head_len].to_vec();
        let (body, rules): (Body, &[u8]) =
            postcard::take_from_bytes(&bytes[24 + head_len..]).unwrap();
        (head, body, rules.to_vec())
    }

    /// Writes a cache of these parts, its checksum made good for them.
    fn write(cache: &Path, head_len: u64, head: &[u8], body: &Body, ends: &[u32], rules: &[u8]) {
        let body = BodyWritten {
            config: &body.config,
            source: &body.source,
            findings: Vec::new(),
            index: &body.index,
            rule_ends: ends.to_vec(),
        };
        let mut payload = head_len.to_le_bytes().to_vec();
        payload.extend_from_slice(head);
        payload.extend(postcard::to_stdvec(&body).unwrap());
        payload.extend_from_slice(rules);
        let mut file = MAGIC.to_vec();
        file.extend(Checksum::of(&payload));
        file.extend(payload);
        fs::write(cache.join(FILE), file).unwrap();
    }

    /// Parts that disagree, or a length past the file, are passed over
    /// even where the checksum holds (a cache written by a build with a
    /// mistake, or forged): never believed, never a panic or a huge
    /// allocation.
    #[test]
    fn a_cache_whose_parts_disagree_is_passed_over_even_with_a_good_checksum() {
        let (_dir, root, cache) = cached_project();
        let (head, body, rules) = parts(&cache);
        let ends = body.rule_ends.clone();
        assert_eq!(ends.len(), 2);
        let len = head.len() as u64;
        write(&cache, len, &head, &body, &ends, &rules);
        assert!(
            cached(&cache, &root).is_some(),
            "rewritten as it was, it holds"
        );
        // One rule fewer than the index holds.
        let one = &rules[..ends[0] as usize];
        write(&cache, len, &head, &body, &ends[..1], one);
        assert!(cached(&cache, &root).is_none());
        // Ends that fall, or end short of the rules' bytes.
        write(&cache, len, &head, &body, &[ends[1], ends[0]], &rules);
        assert!(cached(&cache, &root).is_none());
        write(&cache, len, &head, &body, &[ends[0], ends[1] - 1], &rules);
        assert!(cached(&cache, &root).is_none());
        // A head's length past the end of the file.
        write(&cache, u64::MAX / 2, &head, &body, &ends, &rules);
        assert!(cached(&cache, &root).is_none());
    }

    /// A kept rule that no longer decodes is no rule of its name, and the
    /// others are as they were.
    #[test]
    fn a_kept_rule_that_does_not_decode_is_left_out_alone() {
        let (_dir, root, cache) = cached_project();
        let (head, body, mut rules) = parts(&cache);
        let ends = body.rule_ends.clone();
        // The second rule's bytes no encoding of a rule.
        rules[ends[0] as usize..].fill(0xff);
        write(&cache, head.len() as u64, &head, &body, &ends, &rules);
        let project = cached(&cache, &root).expect("the index still holds");
        assert!(project.rule("b.mdc").is_none());
        assert_eq!(
            project.rule("a.mdc").unwrap().document.body.trim(),
            "# Alpha"
        );
    }

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
