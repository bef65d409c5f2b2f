//! Whether a project loaded earlier still stands (behaviour §5.1, "Rule
//! changes"): a host that keeps the loaded project between runs notes
//! what the file system said about every path the load asked of it (each
//! file read, directory listed, path looked up or resolved); later it asks
//! again, one look per path, and this module decides. Any difference, or a
//! path that was not surely settled when the load began, means loading
//! again.

use serde::{Deserialize, Serialize};

/// A time as the file system keeps it: seconds and nanoseconds since the
/// Unix epoch (negative seconds before it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileTime {
    /// Whole seconds.
    pub secs: i64,
    /// Nanoseconds past them.
    pub nanos: u32,
}

/// What one look at a path (links followed) told: enough that a change of
/// content, kind or place shows. `changed` is the inode's change time,
/// which every write and every change of the modification time moves, and
/// which no one can set back; `modified` is the modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// 0 a regular file, 1 a directory, 2 anything else.
    pub kind: u8,
    /// Size in bytes.
    pub len: u64,
    /// The device holding it.
    pub device: u64,
    /// Its inode: a file replaced (renamed over) has another.
    pub inode: u64,
    /// The modification time.
    pub modified: FileTime,
    /// The inode's change time.
    pub changed: FileTime,
}

/// What the file system said about a path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seen {
    /// Nothing there, or it could not be looked at.
    Missing,
    /// Its stamp.
    Stamped(Stamp),
    /// The path with every link resolved (`None`: it could not be).
    Resolved(Option<String>),
}

/// One path the load asked about, and what it was told. The path is owned
/// where the load notes it and may be borrowed where a host reads its
/// kept observations back (both encode the same).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation<P = String> {
    /// The path as the load asked it.
    pub path: P,
    /// What it was told.
    pub seen: Seen,
}

/// Why a kept project is not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stale {
    /// The path changed since the load.
    Changed(String),
    /// The path was stamped no earlier than the load began, so a change
    /// within the clock's resolution would keep its stamp (git's "racily
    /// clean" entries): it is not trusted.
    Racy(String),
}

/// Whether `observations`, made by a load that began at `began` (the file
/// system's own time for a file made just before the load), still hold,
/// `now` telling what the same look says today. The first stale path, or
/// `None` when the kept project may be used.
///
/// A stamp whose modification or change time is not older than `began` is
/// never trusted: the file may have changed again within the same tick,
/// after it was read, leaving the stamp as it was. Such a path makes the
/// host load again (and its next keep, begun later, trusts it).
pub fn stale<P: AsRef<str>>(
    observations: &[Observation<P>],
    began: FileTime,
    now: &mut dyn FnMut(&Observation<P>) -> Seen,
) -> Option<Stale> {
    for observation in observations {
        if let Seen::Stamped(stamp) = &observation.seen {
            if stamp.modified >= began || stamp.changed >= began {
                return Some(Stale::Racy(observation.path.as_ref().to_string()));
            }
        }
        if now(observation) != observation.seen {
            return Some(Stale::Changed(observation.path.as_ref().to_string()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> FileTime {
        FileTime { secs, nanos: 0 }
    }

    fn stamp(len: u64, secs: i64) -> Seen {
        Seen::Stamped(Stamp {
            kind: 0,
            len,
            device: 1,
            inode: 7,
            modified: at(secs),
            changed: at(secs),
        })
    }

    fn seen(path: &str, seen: Seen) -> Observation {
        Observation {
            path: path.to_string(),
            seen,
        }
    }

    #[test]
    fn the_same_answers_keep_the_project() {
        let kept = vec![
            seen("/p/a.mdc", stamp(10, 100)),
            seen("/p/gone", Seen::Missing),
            seen("/p", Seen::Resolved(Some("/real/p".into()))),
        ];
        let mut again = |o: &Observation| o.seen.clone();
        assert_eq!(stale(&kept, at(200), &mut again), None);
    }

    #[test]
    fn any_difference_loads_again() {
        let kept = vec![
            seen("/p/a.mdc", stamp(10, 100)),
            seen("/p/b", Seen::Missing),
        ];
        let mut grown = |o: &Observation| match o.path.as_str() {
            "/p/a.mdc" => stamp(11, 100),
            _ => o.seen.clone(),
        };
        assert_eq!(
            stale(&kept, at(200), &mut grown),
            Some(Stale::Changed("/p/a.mdc".into()))
        );
        let mut added = |o: &Observation| match o.path.as_str() {
            "/p/b" => stamp(1, 150),
            _ => o.seen.clone(),
        };
        assert_eq!(
            stale(&kept, at(200), &mut added),
            Some(Stale::Changed("/p/b".into()))
        );
    }

    #[test]
    fn a_stamp_not_older_than_the_load_is_never_trusted() {
        // Written in the same tick the load began: an edit after the read
        // in that tick would leave the same stamp.
        let kept = vec![seen("/p/a.mdc", stamp(10, 200))];
        let mut same = |o: &Observation| o.seen.clone();
        assert_eq!(
            stale(&kept, at(200), &mut same),
            Some(Stale::Racy("/p/a.mdc".into()))
        );
        let later = FileTime {
            secs: 200,
            nanos: 1,
        };
        assert_eq!(
            stale(&kept, later, &mut same),
            None,
            "a load begun after the stamp trusts it"
        );
    }
}
