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
//! changed since it was read. Where nested rules folders are (behaviour
//! §1.2) is asked of git once, and again only when an event may have
//! moved one ([`HostAnswers::forget_folders`]): listing the whole tree on
//! every event would cost more than everything else a delivery does.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io;

use serde::{Deserialize, Serialize};

use crate::base::contain::MAX_READ_BYTES;
use crate::base::fs::{FileSource, Kind, Metadata};
use crate::base::paths;
use crate::rules::nested;

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
    /// A git command to run at the project root, its output handed back
    /// whole (where the nested rules folders are); empty when none.
    pub git: Vec<String>,
}

impl Asks {
    /// Whether the walk needs nothing more.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.stat.is_empty() && self.read.is_empty() && self.git.is_empty()
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

/// What the host said about one path: one map of these, so the walk's
/// bookkeeping costs the WebAssembly build one map type.
#[derive(Debug, Default, PartialEq)]
struct Slot {
    /// Its listing, or why there is none.
    list: Option<Result<Vec<HostEntry>, Failure>>,
    /// What it leads to, or why nothing.
    stat: Option<Result<HostStat, Failure>>,
    /// Its bytes and what the file was when read, or why it was not.
    read: Option<Result<(Stamp, Vec<u8>), Failure>>,
}

impl Slot {
    fn is_empty(&self) -> bool {
        self.list.is_none() && self.stat.is_none() && self.read.is_none()
    }
}

/// Where git says the nested rules folders are, for the folder names it
/// was asked about; or why it could not say.
#[derive(Debug, Clone, PartialEq)]
struct Folders {
    names: Vec<String>,
    /// The paths git listed.
    found: Result<Vec<String>, String>,
}

/// The host's answers for one project, kept across refreshes; the walk
/// reads them as a [`FileSource`] and notes what they lack.
#[derive(Debug, Default)]
pub(crate) struct HostAnswers {
    root: String,
    real_root: String,
    slots: BTreeMap<String, Slot>,
    /// Git's answer on the nested folders, kept until forgotten.
    folders: Option<Folders>,
    /// The folder names the last run of the walk asked git about.
    folders_asked: RefCell<Option<Vec<String>>>,
    /// The listings and stats of the last refresh that ran through.
    previous: BTreeMap<String, Slot>,
    /// Whether a file was read since the refresh began.
    read_since: bool,
    asked: RefCell<Vec<(AskKind, String)>>,
    used: RefCell<Vec<(AskKind, String)>>,
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

    fn slot(&mut self, path: &str) -> &mut Slot {
        self.slots.entry(path.to_string()).or_default()
    }

    /// Begins a refresh: the listings and stats answered before go stale,
    /// and the first round asks for all those the last walk used at once
    /// (none before the first walk: then the walk itself says).
    pub(crate) fn start(&mut self) -> Asks {
        let mut asks = Asks::default();
        self.previous.clear();
        for (path, slot) in &mut self.slots {
            let before = Slot {
                list: slot.list.take(),
                stat: slot.stat.take(),
                read: None,
            };
            // Reads stay, to be checked against the new listings; a failed
            // one is asked again.
            if matches!(slot.read, Some(Err(_))) {
                slot.read = None;
            }
            if before.list.is_some() {
                asks.list.push(path.clone());
            }
            if before.stat.is_some() {
                asks.stat.push(path.clone());
            }
            if !before.is_empty() {
                self.previous.insert(path.clone(), before);
            }
        }
        self.slots.retain(|_, slot| !slot.is_empty());
        self.read_since = false;
        asks
    }

    /// The host listed `dir`.
    pub(crate) fn listed(&mut self, dir: &str, entries: Vec<HostEntry>) {
        // Kept in the host's order (the walk sorts what it lists): a host
        // that changed its order only makes the project load again.
        self.slot(dir).list = Some(Ok(entries));
    }

    /// The host stat'ed `path`, links resolved.
    pub(crate) fn stated(&mut self, path: &str, stat: HostStat) {
        let stat = match stat.real_path {
            Some(_) => Ok(stat),
            None => Err(Failure::Missing(format!("{path} leads nowhere"))),
        };
        self.slot(path).stat = Some(stat);
    }

    /// The host read `path`.
    pub(crate) fn read_bytes(&mut self, path: &str, bytes: Vec<u8>) {
        // The stamp the walk saw when it asked: the read is good for as
        // long as the listings say the file is unchanged.
        if let Ok(Some(stamp)) = self.stamp(path) {
            self.slot(path).read = Some(Ok((stamp, bytes)));
            self.read_since = true;
        }
    }

    /// The host could not do what `kind` asked of `path`; `reason` in its
    /// own words (`ENOENT: ...`).
    pub(crate) fn failed(&mut self, kind: AskKind, path: &str, reason: &str) {
        let failure = Failure::from_host(reason);
        let slot = self.slot(path);
        match kind {
            AskKind::List => slot.list = Some(Err(failure)),
            AskKind::Stat => slot.stat = Some(Err(failure)),
            AskKind::Read => slot.read = Some(Err(failure)),
        }
    }

    /// The host ran [`Asks::git`]: its exit code (`-1` when it could not
    /// run at all, `stderr` saying why) and what it printed.
    pub(crate) fn git_listed(&mut self, exit_code: i32, stdout: &str, stderr: &str) {
        let Some(names) = self.folders_asked.borrow_mut().take() else {
            return;
        };
        let found = match exit_code {
            0 => Ok(stdout
                .split('\0')
                .filter(|path| !path.is_empty())
                .map(str::to_string)
                .collect()),
            -1 => Err(format!("git could not run: {}", stderr.trim())),
            code => Err(format!(
                "git ls-files failed (exit {code}): {}",
                stderr.trim()
            )),
        };
        if differs(&self.folders, &names, &found) {
            self.read_since = true;
        }
        self.folders = Some(Folders { names, found });
    }

    /// Makes the next refresh ask git again where the nested folders are.
    pub(crate) fn forget_folders(&mut self) {
        self.folders = None;
    }

    /// Every path the last walk listed or stat'ed, sorted: what a change
    /// to would change the walk.
    pub(crate) fn answered_paths(&self) -> Vec<String> {
        self.slots
            .iter()
            .filter(|(_, slot)| slot.list.is_some() || slot.stat.is_some())
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// Before the walk runs again over the answers.
    pub(crate) fn replay(&self) {
        self.asked.borrow_mut().clear();
        self.used.borrow_mut().clear();
        self.folders_asked.borrow_mut().take();
    }

    /// What the last run of the walk needed and did not have.
    pub(crate) fn asks(&self) -> Asks {
        let mut asked = self.asked.borrow().clone();
        asked.sort_unstable();
        asked.dedup();
        let mut asks = Asks::default();
        for (kind, path) in asked {
            match kind {
                AskKind::List => asks.list.push(path),
                AskKind::Stat => asks.stat.push(path),
                AskKind::Read => asks.read.push(path),
            }
        }
        if let Some(names) = self.folders_asked.borrow().as_deref() {
            asks.git = nested::git_arguments(names);
        }
        asks
    }

    /// After a walk that ran through: keeps only what it used, for the
    /// next refresh to ask again, and says whether anything differs from
    /// the last refresh (a listing, a stat, or a file read anew).
    pub(crate) fn finish(&mut self) -> bool {
        let mut used = self.used.borrow().clone();
        used.sort_unstable();
        used.dedup();
        let has = |kind: AskKind, path: &String| {
            used.binary_search_by(|(k, p)| (*k, p.as_str()).cmp(&(kind, path.as_str())))
                .is_ok()
        };
        for (path, slot) in &mut self.slots {
            if !has(AskKind::List, path) {
                slot.list = None;
            }
            if !has(AskKind::Stat, path) {
                slot.stat = None;
            }
            if !has(AskKind::Read, path) {
                slot.read = None;
            }
        }
        self.slots.retain(|_, slot| !slot.is_empty());
        let shape = |slots: &BTreeMap<String, Slot>| {
            slots
                .iter()
                .filter(|(_, slot)| slot.list.is_some() || slot.stat.is_some())
                .map(|(path, slot)| (path.clone(), slot.list.clone(), slot.stat.clone()))
                .collect::<Vec<_>>()
        };
        let changed = self.read_since || shape(&self.slots) != shape(&self.previous);
        self.previous.clear();
        self.read_since = false;
        changed
    }

    fn ask(&self, kind: AskKind, path: &str) -> io::Error {
        self.asked.borrow_mut().push((kind, path.to_string()));
        not_yet()
    }

    fn note(&self, kind: AskKind, path: &str) {
        self.used.borrow_mut().push((kind, path.to_string()));
    }

    fn is_root(&self, path: &str) -> bool {
        paths::normalize_lexically(path) == self.root
    }

    fn list_of(&self, dir: &str) -> Option<&Result<Vec<HostEntry>, Failure>> {
        self.slots.get(dir).and_then(|slot| slot.list.as_ref())
    }

    fn stat_of(&self, path: &str) -> Option<&Result<HostStat, Failure>> {
        self.slots.get(path).and_then(|slot| slot.stat.as_ref())
    }

    /// The entry `path` has in its directory's listing, when that listing
    /// was answered and the entry is not a link.
    fn entry(&self, path: &str) -> Option<&HostEntry> {
        let dir = paths::parent(path)?;
        let name = paths::file_name(path);
        match self.list_of(dir) {
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
        if let Some(stat) = self.stat_of(path) {
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

/// Whether git's new answer differs from the one it replaces, so the
/// project loads again.
fn differs(
    before: &Option<Folders>,
    names: &[String],
    found: &Result<Vec<String>, String>,
) -> bool {
    before
        .as_ref()
        .is_none_or(|before| before.names != names || before.found != *found)
}

impl FileSource for HostAnswers {
    fn find_folders(&self, _root: &str, folders: &[String]) -> Option<io::Result<Vec<String>>> {
        match &self.folders {
            Some(answer) if answer.names == folders => {
                Some(answer.found.clone().map_err(io::Error::other))
            }
            _ => {
                *self.folders_asked.borrow_mut() = Some(folders.to_vec());
                Some(Err(not_yet()))
            }
        }
    }

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
        match self.slots.get(path).and_then(|slot| slot.read.as_ref()) {
            Some(Err(failure)) => Err(failure.to_io()),
            Some(Ok((seen, bytes))) if *seen == stamp => Ok(bytes.clone()),
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
        match self.list_of(dir) {
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
        let (kind, size, mtime_ms) = if let Some(stat) = self.stat_of(path) {
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
        if let Some(stat) = self.stat_of(path) {
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
/// the steps, for tests and for hosts that can read files directly. Git's
/// listing is played by the file source's finder.
pub(crate) fn answer_from(answers: &mut HostAnswers, fs: &dyn FileSource, asks: &Asks) {
    if !asks.git.is_empty() {
        let names = answers.folders_asked.borrow().clone().unwrap_or_default();
        let root = answers.root.clone();
        match fs.find_folders(&root, &names) {
            Some(Ok(listing)) => answers.git_listed(0, &listing.join("\0"), ""),
            Some(Err(e)) => answers.git_listed(128, "", &e.to_string()),
            None => answers.git_listed(0, "", ""),
        }
    }
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
