//! The engine's only window on files: read, list, stat and resolve. The
//! native binary implements it over `std::fs`; the WebAssembly engine and
//! the tests use [`MemoryFs`].

use std::collections::BTreeMap;
use std::io;

use crate::base::paths;

/// What a path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// Anything else, such as a socket or a device.
    Other,
}

/// What `stat` reports, links followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metadata {
    /// What the path names.
    pub kind: Kind,
    /// Size in bytes; 0 for a directory in [`MemoryFs`].
    pub len: u64,
    /// Modification time in milliseconds since the Unix epoch, when known.
    pub modified_ms: Option<i64>,
}

/// Read-only access to files by `/`-separated path. Errors are
/// [`io::Error`]s, whose text the engine's messages quote as the reason.
pub trait FileSource {
    /// The bytes of a regular file (links followed).
    fn read(&self, path: &str) -> io::Result<Vec<u8>>;
    /// The names of a directory's entries, in no particular order.
    fn list(&self, dir: &str) -> io::Result<Vec<String>>;
    /// A directory's entries with their kinds where the listing itself
    /// tells them (a link's kind is `None`: it must be resolved), so a walk
    /// need not ask for each file's metadata.
    fn list_kinds(&self, dir: &str) -> io::Result<Vec<(String, Option<Kind>)>> {
        Ok(self
            .list(dir)?
            .into_iter()
            .map(|name| (name, None))
            .collect())
    }

    /// Paths below `root`, project-relative, among which the engine finds
    /// the nested rules folders (behaviour §1.2) named by `folders`
    /// (`/`-separated, like `.cursor/rules`): a folder itself, or any path
    /// inside one, as git lists the tree (links not followed, what git
    /// ignores left out). A source may list more than that. `None` when
    /// this source cannot tell: then no nested folder is read.
    fn find_folders(&self, _root: &str, _folders: &[String]) -> Option<io::Result<Vec<String>>> {
        None
    }

    /// Metadata with links followed; `NotFound` when nothing is there.
    fn stat(&self, path: &str) -> io::Result<Metadata>;
    /// The path with every link resolved, absolute and normalised.
    fn real_path(&self, path: &str) -> io::Result<String>;

    /// Metadata, or `None` when the path does not exist or cannot be read.
    fn try_stat(&self, path: &str) -> Option<Metadata> {
        self.stat(path).ok()
    }

    /// Whether the path, links followed, is a regular file.
    fn is_file(&self, path: &str) -> bool {
        matches!(self.try_stat(path), Some(m) if m.kind == Kind::File)
    }

    /// Whether the path, links followed, is a directory.
    fn is_dir(&self, path: &str) -> bool {
        matches!(self.try_stat(path), Some(m) if m.kind == Kind::Dir)
    }

    /// Whether the path, links followed, names anything.
    fn exists(&self, path: &str) -> bool {
        self.try_stat(path).is_some()
    }
}

/// A [`FileSource`] that notes every path whose metadata, real path or
/// bytes were asked of it: what a lookup over a host's partial copy needs the host to
/// make sure of, found by running the lookup itself.
pub(crate) struct Recording<'a> {
    inner: &'a dyn FileSource,
    asked: std::cell::RefCell<Vec<String>>,
}

impl<'a> Recording<'a> {
    pub(crate) fn new(inner: &'a dyn FileSource) -> Self {
        Recording {
            inner,
            asked: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// The paths asked, each once, in the order first asked.
    pub(crate) fn asked(self) -> Vec<String> {
        self.asked.into_inner()
    }

    fn note(&self, path: &str) {
        let mut asked = self.asked.borrow_mut();
        if !asked.iter().any(|p| p == path) {
            asked.push(path.to_string());
        }
    }
}

impl FileSource for Recording<'_> {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.note(path);
        self.inner.read(path)
    }

    fn list(&self, dir: &str) -> io::Result<Vec<String>> {
        self.inner.list(dir)
    }

    fn stat(&self, path: &str) -> io::Result<Metadata> {
        self.note(path);
        self.inner.stat(path)
    }

    fn real_path(&self, path: &str) -> io::Result<String> {
        self.note(path);
        self.inner.real_path(path)
    }
}

#[derive(Debug, Clone)]
enum Node {
    File {
        bytes: Vec<u8>,
        modified_ms: i64,
    },
    /// A regular file too large to have been read: its size only.
    Unread {
        len: u64,
    },
    Dir,
    Link(String),
}

/// An in-memory tree of files, directories and symbolic links, addressed by
/// absolute paths. Parent directories are created on insertion.
///
/// ```
/// use rule_fairy_engine::{FileSource, MemoryFs};
/// let mut fs = MemoryFs::new();
/// fs.add_file("/p/.cursor/rules/a.mdc", "# A");
/// assert_eq!(fs.read("/p/.cursor/rules/a.mdc").unwrap(), b"# A");
/// assert_eq!(fs.list("/p/.cursor/rules").unwrap(), vec!["a.mdc".to_string()]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct MemoryFs {
    nodes: BTreeMap<String, Node>,
}

/// How many links one resolution may follow before it is a loop (Linux's limit).
const MAX_LINK_HOPS: usize = 40;

impl MemoryFs {
    /// A tree holding only the root directory `/`.
    pub fn new() -> Self {
        let mut fs = MemoryFs::default();
        fs.nodes.insert("/".to_string(), Node::Dir);
        fs
    }

    /// A tree holding `files` (relative paths to contents) under `root`.
    pub fn from_files<P: AsRef<str>, C: AsRef<[u8]>>(
        root: &str,
        files: impl IntoIterator<Item = (P, C)>,
    ) -> Self {
        let mut fs = MemoryFs::new();
        fs.add_dir(root);
        for (path, content) in files {
            fs.add_file(&paths::join(root, path.as_ref()), content);
        }
        fs
    }

    /// A file at `path` holding `content`, modified at time 0.
    pub fn add_file(&mut self, path: &str, content: impl AsRef<[u8]>) -> &mut Self {
        self.add_file_with_time(path, content, 0)
    }

    /// A file as [`add_file`](MemoryFs::add_file) makes it, modified at
    /// `modified_ms` (milliseconds since the Unix epoch).
    pub fn add_file_with_time(
        &mut self,
        path: &str,
        content: impl AsRef<[u8]>,
        modified_ms: i64,
    ) -> &mut Self {
        let path = paths::normalize_lexically(path);
        self.add_parents(&path);
        self.nodes.insert(
            path,
            Node::File {
                bytes: content.as_ref().to_vec(),
                modified_ms,
            },
        );
        self
    }

    /// A regular file at `path` of `len` bytes whose bytes were not read
    /// (a host stops at its read bound): it stats as a file of that size,
    /// and a read of it fails.
    pub fn add_unread_file(&mut self, path: &str, len: u64) -> &mut Self {
        let path = paths::normalize_lexically(path);
        self.add_parents(&path);
        self.nodes.insert(path, Node::Unread { len });
        self
    }

    /// A directory at `path`.
    pub fn add_dir(&mut self, path: &str) -> &mut Self {
        let path = paths::normalize_lexically(path);
        self.add_parents(&path);
        self.nodes.insert(path, Node::Dir);
        self
    }

    /// A symbolic link at `path` pointing at `target` (absolute, or relative
    /// to the link's directory).
    pub fn add_link(&mut self, path: &str, target: &str) -> &mut Self {
        let path = paths::normalize_lexically(path);
        self.add_parents(&path);
        self.nodes.insert(path, Node::Link(target.to_string()));
        self
    }

    /// Removes `path` and, for a directory, everything under it. A link
    /// itself is removed, not its target.
    pub fn remove(&mut self, path: &str) -> &mut Self {
        let path = paths::normalize_lexically(path);
        let prefix = format!("{path}/");
        self.nodes
            .retain(|key, _| key != &path && !key.starts_with(&prefix));
        self
    }

    fn add_parents(&mut self, path: &str) {
        let mut current = paths::parent(path);
        while let Some(dir) = current {
            self.nodes.entry(dir.to_string()).or_insert(Node::Dir);
            current = paths::parent(dir);
        }
    }

    /// Follows links in every segment; the result names a node or nothing.
    fn resolve(&self, path: &str) -> io::Result<String> {
        let path = paths::normalize_lexically(&absolute(path));
        let mut resolved = String::from("/");
        let mut pending: Vec<String> = segments(&path);
        pending.reverse();
        let mut hops = 0;
        while let Some(segment) = pending.pop() {
            let candidate = paths::normalize_lexically(&paths::join(&resolved, &segment));
            match self.nodes.get(&candidate) {
                Some(Node::Link(target)) => {
                    hops += 1;
                    if hops > MAX_LINK_HOPS {
                        return Err(io::Error::other(format!(
                            "too many levels of symbolic links: {path}"
                        )));
                    }
                    let target = if paths::is_absolute(target) {
                        target.clone()
                    } else {
                        paths::join(&resolved, target)
                    };
                    let mut more = segments(&paths::normalize_lexically(&target));
                    more.reverse();
                    resolved = "/".to_string();
                    pending.extend(more);
                }
                Some(_) => resolved = candidate,
                None => {
                    return Err(io::Error::new(
                        io::ErrorKind::NotFound,
                        format!("no such file or directory: {path}"),
                    ))
                }
            }
        }
        Ok(resolved)
    }
}

fn absolute(path: &str) -> String {
    if paths::is_absolute(path) {
        path.to_string()
    } else {
        paths::join("/", path)
    }
}

fn segments(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

impl FileSource for MemoryFs {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        match self.nodes.get(&self.resolve(path)?) {
            Some(Node::File { bytes, .. }) => Ok(bytes.clone()),
            _ => Err(io::Error::other(format!("not a file: {path}"))),
        }
    }

    fn list(&self, dir: &str) -> io::Result<Vec<String>> {
        let real = self.resolve(dir)?;
        if !matches!(self.nodes.get(&real), Some(Node::Dir)) {
            return Err(io::Error::other(format!("not a directory: {dir}")));
        }
        let prefix = if real == "/" {
            real.clone()
        } else {
            format!("{real}/")
        };
        Ok(self
            .nodes
            .range(prefix.clone()..)
            .take_while(|(key, _)| key.starts_with(&prefix))
            .filter_map(|(key, _)| {
                let rest = &key[prefix.len()..];
                (!rest.is_empty() && !rest.contains('/')).then(|| rest.to_string())
            })
            .collect())
    }

    fn stat(&self, path: &str) -> io::Result<Metadata> {
        let real = self.resolve(path)?;
        Ok(match self.nodes.get(&real) {
            Some(Node::File { bytes, modified_ms }) => Metadata {
                kind: Kind::File,
                len: bytes.len() as u64,
                modified_ms: Some(*modified_ms),
            },
            Some(Node::Unread { len }) => Metadata {
                kind: Kind::File,
                len: *len,
                modified_ms: None,
            },
            Some(Node::Dir) => Metadata {
                kind: Kind::Dir,
                len: 0,
                modified_ms: None,
            },
            _ => Metadata {
                kind: Kind::Other,
                len: 0,
                modified_ms: None,
            },
        })
    }

    fn real_path(&self, path: &str) -> io::Result<String> {
        self.resolve(path)
    }

    /// Every file, directory and link below `root`, as an in-memory tree
    /// holds them (it knows no `.gitignore`).
    fn find_folders(&self, root: &str, _folders: &[String]) -> Option<io::Result<Vec<String>>> {
        let prefix = format!(
            "{}/",
            paths::normalize_lexically(root).trim_end_matches('/')
        );
        Some(Ok(self
            .nodes
            .range(prefix.clone()..)
            .take_while(|(key, _)| key.starts_with(&prefix))
            .map(|(key, _)| key[prefix.len()..].to_string())
            .collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_resolve_and_loops_fail() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/doc/guide.md", "# G");
        fs.add_link("/p/doc/link.md", "guide.md");
        fs.add_link("/p/loop", "/p/loop2");
        fs.add_link("/p/loop2", "loop");
        assert_eq!(fs.read("/p/doc/link.md").unwrap(), b"# G");
        assert_eq!(fs.real_path("/p/doc/link.md").unwrap(), "/p/doc/guide.md");
        assert!(fs.stat("/p/loop").is_err());
        assert!(fs.stat("/p/missing").is_err());
        assert!(fs.is_dir("/p/doc"));
        let mut names = fs.list("/p").unwrap();
        names.sort();
        assert_eq!(names, vec!["doc", "loop", "loop2"]);
    }
}
