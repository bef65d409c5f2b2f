//! What happened, once for every host: the one [`Event`] each host's wire
//! type converts into (the Claude Code mod's request, Codex's hook input,
//! the CLI's flags, a playground case), and the [`Query`] an event is
//! selected and explained with: the event, the session's facts, and the
//! file contents `fileContains` tests.

use serde::Serialize;

use crate::base::contain::{escapes, MAX_PATH_BYTES};
use crate::base::paths;
use crate::matching::facts::Facts;
use crate::rules::discovery::java_order;

/// One event a host reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A prompt as typed.
    Prompt {
        /// The prompt's whole text.
        text: String,
    },
    /// Edited paths, project-relative (behaviour §5.6), in the order the
    /// tool names them.
    Edit {
        /// The paths as reported; [`Event::matched_paths`] normalises them.
        paths: Vec<String>,
    },
    /// Paths a shell command changed, project-relative, in any order (the
    /// selection sorts them, behaviour §2.6).
    Shell {
        /// The paths as reported; [`Event::matched_paths`] normalises,
        /// sorts and dedups them.
        paths: Vec<String>,
    },
    /// Files the agent read (Claude Code's Read tool, a shell command
    /// naming them), project-relative: the requestable rules whose files
    /// they are come with the read (behaviour §9.2).
    Read {
        /// The paths as reported, in the order read.
        paths: Vec<String>,
    },
    /// A session started, or went on after a compaction (Codex's
    /// `SessionStart`): the rules that need no prompt, as an empty prompt
    /// selects them.
    SessionStart {
        /// The session went on after a compaction, so the context lost
        /// what was delivered before.
        compacted: bool,
    },
}

/// What kind of event it is: what labels name (`[rule-fairy error: <kind>
/// delivery failed]`), what a delivery id is made from, and what `explain`
/// prints as the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum EventKind {
    /// [`Event::Prompt`].
    Prompt,
    /// [`Event::Edit`].
    Edit,
    /// [`Event::Shell`].
    Shell,
    /// [`Event::Read`].
    Read,
    /// [`Event::SessionStart`], compacted or not.
    #[serde(rename = "session start")]
    SessionStart,
}

impl EventKind {
    /// The kind as labels name it.
    ///
    /// ```
    /// use rule_fairy_engine::{Event, EventKind};
    /// let compaction = Event::SessionStart { compacted: true };
    /// assert_eq!(compaction.kind().name(), "session start");
    /// assert_eq!(EventKind::Shell.name(), "shell");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Prompt => "prompt",
            EventKind::Edit => "edit",
            EventKind::Shell => "shell",
            EventKind::Read => "read",
            EventKind::SessionStart => "session start",
        }
    }
}

impl Event {
    /// A prompt event.
    pub fn prompt(text: impl Into<String>) -> Event {
        Event::Prompt { text: text.into() }
    }

    /// An edit of `paths`, in the tool's order.
    pub fn edit<S: AsRef<str>>(paths: &[S]) -> Event {
        Event::Edit {
            paths: paths.iter().map(|p| p.as_ref().to_string()).collect(),
        }
    }

    /// A shell command that changed `paths`.
    pub fn shell<S: AsRef<str>>(paths: &[S]) -> Event {
        Event::Shell {
            paths: paths.iter().map(|p| p.as_ref().to_string()).collect(),
        }
    }

    /// A read of `paths`, in the order read.
    pub fn read<S: AsRef<str>>(paths: &[S]) -> Event {
        Event::Read {
            paths: paths.iter().map(|p| p.as_ref().to_string()).collect(),
        }
    }

    /// What kind of event it is.
    pub fn kind(&self) -> EventKind {
        match self {
            Event::Prompt { .. } => EventKind::Prompt,
            Event::Edit { .. } => EventKind::Edit,
            Event::Shell { .. } => EventKind::Shell,
            Event::Read { .. } => EventKind::Read,
            Event::SessionStart { .. } => EventKind::SessionStart,
        }
    }

    /// The prompt text rules are matched against: the prompt, or none for a
    /// session start; `None` for path events.
    pub fn prompt_text(&self) -> Option<&str> {
        match self {
            Event::Prompt { text } => Some(text),
            Event::SessionStart { .. } => Some(""),
            Event::Edit { .. } | Event::Shell { .. } | Event::Read { .. } => None,
        }
    }

    /// The paths the event's rules are matched against, in matching order:
    /// an edit's as the tool names them, a shell change's sorted and each
    /// once (behaviour §2.6), every one normalised for matching. A path
    /// that leaves the project (`../` at its start), or is longer than any
    /// real path ([`MAX_PATH_BYTES`]), is left out: it matches no rule and
    /// is never read (behaviour §0.1). `fileContains` contents
    /// come in this order.
    pub fn matched_paths(&self) -> Vec<String> {
        let mut matched = match self {
            // A read selects by the files' own paths, not by globs.
            Event::Prompt { .. } | Event::SessionStart { .. } | Event::Read { .. } => Vec::new(),
            Event::Edit { paths } => paths
                .iter()
                .map(|p| paths::normalize_for_match(p))
                .collect(),
            Event::Shell { paths } => shell_order(paths),
        };
        matched.retain(|path| matchable(path));
        matched
    }

    /// A read's paths, in the order read, normalised and held to
    /// [`Event::matched_paths`]'s rule; empty for any other event.
    pub(crate) fn read_paths(&self) -> Vec<String> {
        let Event::Read { paths } = self else {
            return Vec::new();
        };
        paths
            .iter()
            .map(|p| paths::normalize_for_match(p))
            .filter(|path| matchable(path))
            .collect()
    }
}

/// Whether a normalised path can name a file of the project: it does not
/// leave it, and it is no longer than a real path.
fn matchable(path: &str) -> bool {
    path.len() <= MAX_PATH_BYTES && !escapes(path)
}

/// Name order (behaviour §0: by UTF-16 code unit), fast for the paths a
/// shell change brings by the thousand: the first byte where the two
/// differ decides when both are ASCII there (UTF-8 and UTF-16 agree on
/// that), and only a difference at a non-ASCII character is compared in
/// UTF-16 code units.
pub(crate) fn name_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let same = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    match (x.get(same), y.get(same)) {
        (Some(p), Some(q)) if p.is_ascii() && q.is_ascii() => p.cmp(q),
        (None, _) | (_, None) => x.len().cmp(&y.len()),
        _ => java_order(a, b),
    }
}

/// The order a shell event's changed paths are matched in: normalised,
/// sorted, each once (behaviour §2.6, shell).
pub(crate) fn shell_order<S: AsRef<str>>(changed: &[S]) -> Vec<String> {
    let mut sorted: Vec<String> = changed
        .iter()
        .map(|p| paths::normalize_for_match(p.as_ref()))
        .collect();
    sorted.sort_by(|a, b| name_order(a, b));
    sorted.dedup();
    sorted
}

/// An event with everything its rules are judged against.
#[derive(Debug, Clone, Copy)]
pub struct Query<'a> {
    /// What happened.
    pub event: &'a Event,
    /// The session's facts for the rules' conditions.
    pub facts: &'a Facts,
    /// Each of [`Event::matched_paths`]'s file texts, in that order, for
    /// `fileContains` (`None` in a slot: it could not be read). Without
    /// them no `fileContains` condition holds.
    pub contents: Option<&'a [Option<String>]>,
}

impl<'a> Query<'a> {
    /// An event with the facts, and no file contents.
    pub fn new(event: &'a Event, facts: &'a Facts) -> Query<'a> {
        Query {
            event,
            facts,
            contents: None,
        }
    }

    /// The same query with file contents for `fileContains`.
    pub fn with_contents(self, contents: Option<&'a [Option<String>]>) -> Query<'a> {
        Query { contents, ..self }
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn name_order_is_java_order() {
        use crate::matching::event::name_order;
        use crate::rules::discovery::java_order;
        let names = [
            "",
            "a",
            "a/b",
            "a.b",
            "a_b",
            "aB",
            "a0",
            "ab",
            "é",
            "e\u{301}",
            "\u{ffff}",
            "\u{10000}",
            "\u{e000}",
            "a\u{10000}x",
            "a\u{e000}",
            "a\u{e000}b",
            "z",
            "Z",
        ];
        for a in names {
            for b in names {
                assert_eq!(name_order(a, b), java_order(a, b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn shell_order_example() {
        use crate::matching::event::shell_order;
        assert_eq!(shell_order(&["b", "./a", "b"]), vec!["a", "b"]);
    }
}
