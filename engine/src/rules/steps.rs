//! The rule walk in steps, for a host that reaches its files only
//! asynchronously (the Claude Code mod). There is one walk: the
//! configuration's read and discovery's walk of the rules directories
//! (behaviour §1.1, §1.2). A stepped host runs it over [`HostAnswers`], a
//! [`FileSource`] made of what the host said: where an answer is missing,
//! the walk notes what it needs (list a directory, stat a path with its
//! links resolved, read a file) and goes on with the rest; the host
//! answers every ask of the round at once, and the walk runs again, until
//! it runs through without asking. The native binary runs the same walk
//! over the file system directly.
//!
//! The answers keep what makes a stepped host cheap across events: each
//! refresh asks again, in its first round, for every listing and stat the
//! last walk used, and a file is read again only when its size or time
//! changed since it was read.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::io;

use serde::{Deserialize, Serialize};

use crate::base::contain::MAX_READ_BYTES;
use crate::base::fs::{FileSource, Kind, Metadata};
use crate::base::paths;

/// What the walk asks a host to do with a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum AskKind {
    /// List a directory (links followed): [`HostEntry`]s.
    List,
    /// Stat a path with its links resolved: a [`HostStat`].
    Stat,
    /// Read a regular file's bytes.
    Read,
}

/// One round's asks, each list in path order; all empty when the walk
/// needs nothing more.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Asks {
    /// Directories to list.
    pub list: Vec<String>,
    /// Paths to stat, links resolved, with their real paths.
    pub stat: Vec<String>,
    /// Files to read.
    pub read: Vec<String>,
}

impl Asks {
    /// Whether the walk needs nothing more.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.stat.is_empty() && self.read.is_empty()
    }

    /// Every ask, with its kind.
    pub fn iter(&self) -> impl Iterator<Item = (AskKind, &str)> {
        let kinds = [
            (AskKind::List, &self.list),
            (AskKind::Stat, &self.stat),
            (AskKind::Read, &self.read),
        ];
        kinds
            .into_iter()
            .flat_map(|(kind, paths)| paths.iter().map(move |path| (kind, path.as_str())))
    }
}

/// What a host says a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum HostKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// Anything else: a FIFO, socket or device (or, in a listing, a link).
    Other,
}

impl From<Kind> for HostKind {
    fn from(kind: Kind) -> Self {
        match kind {
            Kind::File => HostKind::File,
            Kind::Dir => HostKind::Dir,
            Kind::Other => HostKind::Other,
        }
    }
}

impl HostKind {
    fn kind(self) -> Kind {
        match self {
            HostKind::File => Kind::File,
            HostKind::Dir => Kind::Dir,
            HostKind::Other => Kind::Other,
        }
    }
}

/// One entry of a directory listing, as the host's listing gives it (the
/// mod passes `$.fs.list`'s entries as they come).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct HostEntry {
    /// The entry's name in its directory.
    pub name: String,
    /// What it is, the link itself not followed.
    pub kind: HostKind,
    /// Its size in bytes.
    #[serde(default)]
    pub size: f64,
    /// Its modification time, in milliseconds since the Unix epoch.
    #[serde(default)]
    pub mtime_ms: f64,
    /// Whether it is a symbolic link: then the walk stats it.
    #[serde(default)]
    pub is_link: bool,
}

/// A path stat'ed with its links resolved (the mod passes `$.fs.stat(path,
/// { resolve: true })` as it comes).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct HostStat {
    /// What it leads to.
    pub kind: HostKind,
    /// Its size in bytes.
    #[serde(default)]
    pub size: f64,
    /// Its modification time, in milliseconds since the Unix epoch.
    #[serde(default)]
    pub mtime_ms: f64,
    /// Where it really is, links resolved; without it the path counts as
    /// leading nowhere.
    #[serde(default)]
    pub real_path: Option<String>,
}

/// Why a host could not answer an ask.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Failure {
    /// Nothing is there.
    Missing(String),
    /// A symbolic link loop.
    Loop,
    /// Anything else, in the host's words.
    Other(String),
}

impl Failure {
    /// The meaning of a host's error text: the engine, not each host,
    /// decides that `ENOENT` is a missing file and `ELOOP` a loop.
    fn from_host(reason: &str) -> Failure {
        let lower = reason.to_lowercase();
        if lower.contains("enoent") || lower.contains("no such file") {
            Failure::Missing(reason.to_string())
        } else if lower.contains("eloop")
            || (lower.contains("too many") && lower.contains("symbolic links"))
        {
            Failure::Loop
        } else {
            Failure::Other(reason.to_string())
        }
    }

    fn to_io(&self) -> io::Error {
        match self {
            Failure::Missing(reason) => io::Error::new(io::ErrorKind::NotFound, reason.clone()),
            Failure::Loop => io::Error::other("too many levels of symbolic links"),
            Failure::Other(reason) => io::Error::other(reason.clone()),
        }
    }
}

/// What a file was when it was read: its size and time.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Stamp {
    size: f64,
    mtime_ms: f64,
}

/// Directory -> its listing, or why there is none.
type Lists = BTreeMap<String, Result<Vec<HostEntry>, Failure>>;
/// Path -> what it leads to, or why nothing.
type Stats = BTreeMap<String, Result<HostStat, Failure>>;

/// The host's answers for one project, kept across refreshes; the walk
/// reads them as a [`FileSource`] and notes what they lack.
#[derive(Debug, Default)]
pub(crate) struct HostAnswers {
    root: String,
    real_root: String,
    lists: Lists,
    stats: Stats,
    failed_reads: BTreeMap<String, Failure>,
    cache: BTreeMap<String, (Stamp, Vec<u8>)>,
    /// The listings and stats of the last refresh that ran through.
    previous: (Lists, Stats),
    /// Whether a file was read since the refresh began.
    read_since: bool,
    asked: RefCell<BTreeSet<(AskKind, String)>>,
    used: RefCell<BTreeSet<(AskKind, String)>>,
}

fn not_yet() -> io::Error {
    io::Error::new(io::ErrorKind::WouldBlock, "not known yet")
}

impl HostAnswers {
    /// No answers yet, for the project at `root` (absolute, normalised),
    /// whose links resolved lead to `real_root`.
    pub(crate) fn new(root: &str, real_root: &str) -> Self {
        HostAnswers {
            root: paths::normalize_lexically(root),
            real_root: paths::normalize_lexically(real_root),
            ..HostAnswers::default()
        }
    }

    /// Begins a refresh: the listings and stats answered before go stale,
    /// and the first round asks for all those the last walk used at once
    /// (none before the first walk: then the walk itself says).
    pub(crate) fn start(&mut self) -> Asks {
        let lists = std::mem::take(&mut self.lists);
        let stats = std::mem::take(&mut self.stats);
        self.previous = (lists, stats);
        self.failed_reads.clear();
        self.read_since = false;
        Asks {
            list: self.previous.0.keys().cloned().collect(),
            stat: self.previous.1.keys().cloned().collect(),
            read: Vec::new(),
        }
    }

    /// The host listed `dir`.
    pub(crate) fn listed(&mut self, dir: &str, mut entries: Vec<HostEntry>) {
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        self.lists.insert(dir.to_string(), Ok(entries));
    }

    /// The host stat'ed `path`, links resolved.
    pub(crate) fn stated(&mut self, path: &str, stat: HostStat) {
        let stat = match stat.real_path {
            Some(_) => Ok(stat),
            None => Err(Failure::Missing(format!("{path} leads nowhere"))),
        };
        self.stats.insert(path.to_string(), stat);
    }

    /// The host read `path`.
    pub(crate) fn read_bytes(&mut self, path: &str, bytes: Vec<u8>) {
        // The stamp the walk saw when it asked: the read is good for as
        // long as the listings say the file is unchanged.
        if let Ok(Some(stamp)) = self.stamp(path) {
            self.cache.insert(path.to_string(), (stamp, bytes));
            self.read_since = true;
        }
    }

    /// The host could not do what `kind` asked of `path`; `reason` in its
    /// own words (`ENOENT: ...`).
    pub(crate) fn failed(&mut self, kind: AskKind, path: &str, reason: &str) {
        let failure = Failure::from_host(reason);
        match kind {
            AskKind::List => {
                self.lists.insert(path.to_string(), Err(failure));
            }
            AskKind::Stat => {
                self.stats.insert(path.to_string(), Err(failure));
            }
            AskKind::Read => {
                self.failed_reads.insert(path.to_string(), failure);
            }
        }
    }

    /// Before the walk runs again over the answers.
    pub(crate) fn replay(&self) {
        self.asked.borrow_mut().clear();
        self.used.borrow_mut().clear();
    }

    /// What the last run of the walk needed and did not have.
    pub(crate) fn asks(&self) -> Asks {
        let mut asks = Asks::default();
        for (kind, path) in self.asked.borrow().iter() {
            match kind {
                AskKind::List => asks.list.push(path.clone()),
                AskKind::Stat => asks.stat.push(path.clone()),
                AskKind::Read => asks.read.push(path.clone()),
            }
        }
        asks
    }

    /// After a walk that ran through: keeps only what it used, for the
    /// next refresh to ask again, and says whether anything differs from
    /// the last refresh (a listing, a stat, or a file read anew).
    pub(crate) fn finish(&mut self) -> bool {
        let used = self.used.borrow().clone();
        let has = |kind: AskKind, path: &String| used.contains(&(kind, path.clone()));
        self.lists.retain(|path, _| has(AskKind::List, path));
        self.stats.retain(|path, _| has(AskKind::Stat, path));
        self.cache.retain(|path, _| has(AskKind::Read, path));
        let changed =
            self.read_since || self.lists != self.previous.0 || self.stats != self.previous.1;
        self.previous = Default::default();
        self.read_since = false;
        changed
    }

    fn ask(&self, kind: AskKind, path: &str) -> io::Error {
        self.asked.borrow_mut().insert((kind, path.to_string()));
        not_yet()
    }

    fn note(&self, kind: AskKind, path: &str) {
        self.used.borrow_mut().insert((kind, path.to_string()));
    }

    fn is_root(&self, path: &str) -> bool {
        paths::normalize_lexically(path) == self.root
    }

    /// The entry `path` has in its directory's listing, when that listing
    /// was answered and the entry is not a link.
    fn entry(&self, path: &str) -> Option<&HostEntry> {
        let dir = paths::parent(path)?;
        let name = paths::file_name(path);
        match self.lists.get(dir) {
            Some(Ok(entries)) => {
                self.note(AskKind::List, dir);
                entries.iter().find(|e| e.name == name && !e.is_link)
            }
            _ => None,
        }
    }

    /// What `path` was when the walk met it: `None` for what is not a
    /// file; asks for a stat when nothing says.
    fn stamp(&self, path: &str) -> io::Result<Option<Stamp>> {
        if let Some(stat) = self.stats.get(path) {
            self.note(AskKind::Stat, path);
            let stat = stat.as_ref().map_err(Failure::to_io)?;
            return Ok((stat.kind == HostKind::File).then_some(Stamp {
                size: stat.size,
                mtime_ms: stat.mtime_ms,
            }));
        }
        match self.entry(path) {
            Some(entry) => Ok((entry.kind == HostKind::File).then_some(Stamp {
                size: entry.size,
                mtime_ms: entry.mtime_ms,
            })),
            None => Err(self.ask(AskKind::Stat, path)),
        }
    }
}

impl FileSource for HostAnswers {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        let Some(stamp) = self.stamp(path)? else {
            return Err(io::Error::other(format!("not a regular file: {path}")));
        };
        self.note(AskKind::Read, path);
        // The bound every read keeps (behaviour §0.1): not even asked for.
        if stamp.size > MAX_READ_BYTES as f64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("larger than {MAX_READ_BYTES} bytes"),
            ));
        }
        if let Some(failure) = self.failed_reads.get(path) {
            return Err(failure.to_io());
        }
        match self.cache.get(path) {
            Some((seen, bytes)) if *seen == stamp => Ok(bytes.clone()),
            _ => Err(self.ask(AskKind::Read, path)),
        }
    }

    fn list(&self, dir: &str) -> io::Result<Vec<String>> {
        Ok(self
            .list_kinds(dir)?
            .into_iter()
            .map(|(name, _)| name)
            .collect())
    }

    fn list_kinds(&self, dir: &str) -> io::Result<Vec<(String, Option<Kind>)>> {
        match self.lists.get(dir) {
            Some(listing) => {
                self.note(AskKind::List, dir);
                let entries = listing.as_ref().map_err(Failure::to_io)?;
                Ok(entries
                    .iter()
                    .map(|e| (e.name.clone(), (!e.is_link).then(|| e.kind.kind())))
                    .collect())
            }
            None => Err(self.ask(AskKind::List, dir)),
        }
    }

    fn stat(&self, path: &str) -> io::Result<Metadata> {
        if self.is_root(path) {
            return Ok(Metadata {
                kind: Kind::Dir,
                len: 0,
                modified_ms: None,
            });
        }
        let (kind, size, mtime_ms) = if let Some(stat) = self.stats.get(path) {
            self.note(AskKind::Stat, path);
            let stat = stat.as_ref().map_err(Failure::to_io)?;
            (stat.kind, stat.size, stat.mtime_ms)
        } else if let Some(entry) = self.entry(path) {
            (entry.kind, entry.size, entry.mtime_ms)
        } else {
            return Err(self.ask(AskKind::Stat, path));
        };
        Ok(Metadata {
            kind: kind.kind(),
            len: size as u64,
            modified_ms: Some(mtime_ms as i64),
        })
    }

    fn real_path(&self, path: &str) -> io::Result<String> {
        if self.is_root(path) {
            return Ok(self.real_root.clone());
        }
        if let Some(stat) = self.stats.get(path) {
            self.note(AskKind::Stat, path);
            let stat = stat.as_ref().map_err(Failure::to_io)?;
            return Ok(stat.real_path.clone().unwrap_or_default());
        }
        match (self.entry(path), paths::parent(path)) {
            (Some(_), Some(dir)) => Ok(paths::join(&self.real_path(dir)?, paths::file_name(path))),
            _ => Err(self.ask(AskKind::Stat, path)),
        }
    }
}

/// Answers every ask from `fs`, as a host would: the synchronous driver of
/// the steps, for tests and for hosts that can read files directly.
pub(crate) fn answer_from(answers: &mut HostAnswers, fs: &dyn FileSource, asks: &Asks) {
    for (kind, path) in asks.iter() {
        let answered = match kind {
            AskKind::List => fs.list_kinds(path).and_then(|entries| {
                let mut listed = Vec::new();
                for (name, kind) in entries {
                    let entry = match kind {
                        Some(kind) => {
                            let meta = fs.stat(&paths::join(path, &name))?;
                            HostEntry {
                                name,
                                kind: kind.into(),
                                size: meta.len as f64,
                                mtime_ms: meta.modified_ms.unwrap_or(0) as f64,
                                is_link: false,
                            }
                        }
                        // The listing could not tell: stat'ed on its own.
                        None => HostEntry {
                            name,
                            kind: HostKind::Other,
                            size: 0.0,
                            mtime_ms: 0.0,
                            is_link: true,
                        },
                    };
                    listed.push(entry);
                }
                answers.listed(path, listed);
                Ok(())
            }),
            AskKind::Stat => fs.stat(path).and_then(|meta| {
                let real = fs.real_path(path)?;
                answers.stated(
                    path,
                    HostStat {
                        kind: meta.kind.into(),
                        size: meta.len as f64,
                        mtime_ms: meta.modified_ms.unwrap_or(0) as f64,
                        real_path: Some(real),
                    },
                );
                Ok(())
            }),
            AskKind::Read => fs.read(path).map(|bytes| answers.read_bytes(path, bytes)),
        };
        if let Err(e) = answered {
            let reason = match e.kind() {
                io::ErrorKind::NotFound => format!("ENOENT: {e}"),
                _ => e.to_string(),
            };
            answers.failed(kind, path, &reason);
        }
    }
}
