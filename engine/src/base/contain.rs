//! The containment rule (behaviour §0.1): the one decision on which files
//! the product may read. A file is read only when it is a regular file (a
//! FIFO, a device or a socket is refused without being opened), no larger
//! than [`MAX_READ_BYTES`], and, links followed, inside one of the
//! directories admitted for the purpose: the project, and where a host
//! says so its state directory or the user's own instruction folders.

use std::fmt;

use crate::base::fs::{FileSource, Kind, Metadata};
use crate::base::paths;

/// The most bytes one read takes: the Claude Code mod's host refuses larger
/// answers, so both hosts stop at the same size.
pub const MAX_READ_BYTES: u64 = 4 * 1024 * 1024;

/// The longest path an event may name, in bytes: Linux's `PATH_MAX`. A
/// longer one names no file a tool could have written, matches no rule and
/// is never looked up, so a hostile input of thousands of segments costs
/// nothing.
pub const MAX_PATH_BYTES: usize = 4096;

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Links followed, the file lies outside every admitted directory.
    Outside {
        /// Where the path really leads.
        real: String,
    },
    /// A directory, FIFO, device or socket.
    NotRegular,
    /// Larger than [`MAX_READ_BYTES`].
    TooLarge {
        /// Its size in bytes.
        len: u64,
    },
    /// It could not be looked at or read: missing, unreadable, a link loop.
    Unreadable {
        /// What the file system said.
        reason: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Outside { real } => write!(f, "it leads outside the project (to {real})"),
            Refusal::NotRegular => f.write_str("it is not a regular file"),
            Refusal::TooLarge { len } => write!(
                f,
                "it is too large ({len} bytes; at most {MAX_READ_BYTES} are read)"
            ),
            Refusal::Unreadable { reason } => f.write_str(reason),
        }
    }
}

/// The directories reads may land in, each in its written and its real
/// form (a project reached through a link is admitted either way).
#[derive(Debug, Clone, Default)]
pub struct Containment {
    roots: Vec<String>,
}

impl Containment {
    /// Reads inside `root` (absolute) only.
    pub fn project(fs: &dyn FileSource, root: &str) -> Self {
        Containment::default().with(fs, root)
    }

    /// The same, with `dir` (absolute) admitted too.
    #[must_use]
    pub fn with(mut self, fs: &dyn FileSource, dir: &str) -> Self {
        let lexical = paths::normalize_lexically(dir);
        if let Ok(real) = fs.real_path(&lexical) {
            self.push(real);
        }
        self.push(lexical);
        self
    }

    fn push(&mut self, dir: String) {
        if !self.roots.contains(&dir) {
            self.roots.push(dir);
        }
    }

    /// Whether `real` (absolute, links resolved) lies in an admitted
    /// directory.
    pub fn admits(&self, real: &str) -> bool {
        self.roots
            .iter()
            .any(|root| paths::strip_base(real, root).is_some())
    }

    /// The metadata of a file that may be read: inside, links followed, a
    /// regular file, within the bound. Nothing is opened.
    pub fn check(&self, fs: &dyn FileSource, path: &str) -> Result<Metadata, Refusal> {
        let unreadable = |e: std::io::Error| Refusal::Unreadable {
            reason: e.to_string(),
        };
        let real = fs.real_path(path).map_err(unreadable)?;
        let meta = fs.stat(path).map_err(unreadable)?;
        self.judge(&real, meta.kind, meta.len)?;
        Ok(meta)
    }

    /// The rule itself, for a host that looked at the file on its own: the
    /// real path (links resolved), what it is and its size.
    pub fn judge(&self, real: &str, kind: Kind, len: u64) -> Result<(), Refusal> {
        if !self.admits(real) {
            return Err(Refusal::Outside {
                real: real.to_string(),
            });
        }
        if kind != Kind::File {
            return Err(Refusal::NotRegular);
        }
        if len > MAX_READ_BYTES {
            return Err(Refusal::TooLarge { len });
        }
        Ok(())
    }

    /// The bytes of a file that may be read (see [`Containment::check`]).
    pub fn read(&self, fs: &dyn FileSource, path: &str) -> Result<Vec<u8>, Refusal> {
        self.check(fs, path)?;
        let bytes = fs.read(path).map_err(|e| Refusal::Unreadable {
            reason: e.to_string(),
        })?;
        // A file that grew between the look and the read.
        match u64::try_from(bytes.len()) {
            Ok(len) if len <= MAX_READ_BYTES => Ok(bytes),
            Ok(len) => Err(Refusal::TooLarge { len }),
            Err(_) => Err(Refusal::TooLarge { len: u64::MAX }),
        }
    }
}

/// Whether a path written relative to a directory leaves it: absolute, or
/// climbing above its start once `.` and `..` are collapsed.
pub fn escapes(relative: &str) -> bool {
    if paths::is_absolute(relative) {
        return true;
    }
    let lexical = paths::normalize_lexically(relative);
    lexical == ".." || lexical.starts_with("../")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    fn tree() -> MemoryFs {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/a.md", "a")
            .add_file("/outside/.ssh/id_rsa", "secret")
            .add_link("/p/key.md", "/outside/.ssh/id_rsa")
            .add_link("/p/inner.md", "a.md")
            .add_dir("/p/dir");
        fs
    }

    #[test]
    fn reads_regular_files_inside_the_project_links_included() {
        let fs = tree();
        let inside = Containment::project(&fs, "/p");
        assert_eq!(inside.read(&fs, "/p/a.md").unwrap(), b"a");
        assert_eq!(inside.read(&fs, "/p/inner.md").unwrap(), b"a");
    }

    #[test]
    fn refuses_a_link_that_leaves_the_project() {
        let fs = tree();
        let inside = Containment::project(&fs, "/p");
        assert_eq!(
            inside.read(&fs, "/p/key.md"),
            Err(Refusal::Outside {
                real: "/outside/.ssh/id_rsa".into()
            })
        );
        assert!(inside
            .with(&fs, "/outside/.ssh")
            .read(&fs, "/p/key.md")
            .is_ok());
    }

    #[test]
    fn refuses_what_is_not_a_regular_file_and_what_is_too_large() {
        let mut fs = tree();
        let inside = Containment::project(&fs, "/p");
        assert_eq!(inside.read(&fs, "/p/dir"), Err(Refusal::NotRegular));
        let big = usize::try_from(MAX_READ_BYTES).unwrap() + 1;
        fs.add_file("/p/big.md", vec![b'x'; big]);
        assert_eq!(
            inside.read(&fs, "/p/big.md"),
            Err(Refusal::TooLarge {
                len: MAX_READ_BYTES + 1
            })
        );
        assert!(matches!(
            inside.read(&fs, "/p/missing.md"),
            Err(Refusal::Unreadable { .. })
        ));
    }

    #[test]
    fn a_root_prefix_is_not_a_parent() {
        let mut fs = tree();
        fs.add_file("/p2/x.md", "x");
        assert!(matches!(
            Containment::project(&fs, "/p").read(&fs, "/p2/x.md"),
            Err(Refusal::Outside { .. })
        ));
    }

    #[test]
    fn escaping_relative_paths() {
        for path in ["..", "../x", "/etc/passwd", "src/../../x", "./.."] {
            assert!(escapes(path), "{path}");
        }
        for path in ["x", "..x/y", "a/../b", ".hidden", "a/.."] {
            assert!(!escapes(path), "{path}");
        }
    }
}
