//! Whether a refresh may be skipped because Claude Code watches the rule
//! files (behaviour §5.2.3). The mod asks Claude Code at session start to
//! watch the paths the last walk used and passes on each change it
//! reports; while nothing changed, a prompt makes no file calls at all.
//! A change reported late or missed (a watcher that died, a path it could
//! not watch) is bounded by a full refresh at least every
//! [`FULL_REFRESH_MS`], and an edit or a shell command, which may have
//! written a rule just now, always refreshes fully.

use crate::base::paths;

/// How old the last full refresh may be before one runs again whatever
/// the watch says.
pub(crate) const FULL_REFRESH_MS: i64 = 60_000;

#[derive(Debug, Default)]
pub(crate) struct Watch {
    /// Claude Code watches the paths the workspace named.
    on: bool,
    /// A change was reported since the last full refresh began, or none
    /// ran since the watch began.
    stale: bool,
    /// When the refresh under way began, when it is a full one.
    began: Option<i64>,
    /// When the last full refresh that ran through began.
    last_full: Option<i64>,
    /// The paths Claude Code watches, each with everything below it.
    watched: Vec<String>,
    /// The last refresh was skipped: nothing changed below the watched
    /// paths, documents included, since the last full one.
    skipped: bool,
}

impl Watch {
    /// Claude Code began watching: the next refresh is full, so what
    /// changed before the watch began is seen.
    pub(crate) fn started(&mut self, watched: Vec<String>) {
        self.on = true;
        self.stale = true;
        self.watched = watched;
    }

    /// Claude Code reported a change below a watched path.
    pub(crate) fn changed(&mut self) {
        self.stale = true;
    }

    /// Whether a refresh at `now` may be skipped; `wrote` when the event
    /// may have written a file itself (an edit, a shell command).
    pub(crate) fn may_skip(&self, now: i64, wrote: bool) -> bool {
        let fresh = self
            .last_full
            .is_some_and(|last| (0..FULL_REFRESH_MS).contains(&(now - last)));
        self.on && !self.stale && !wrote && fresh
    }

    /// Whether this event's refresh was skipped, as [`may_skip`](Self::may_skip) said.
    pub(crate) fn skipped(&mut self, skipped: bool) {
        self.skipped = skipped;
    }

    /// Whether `path`, seen before, cannot have changed since: this
    /// event's refresh was skipped and the watch covers the path.
    pub(crate) fn unchanged(&self, path: &str) -> bool {
        self.skipped
            && self
                .watched
                .iter()
                .any(|outer| paths::strip_base(path, outer).is_some())
    }

    /// A full refresh begins at `now`: changes reported from here on make
    /// the next one full again.
    pub(crate) fn begin(&mut self, now: i64) {
        self.stale = false;
        self.began = Some(now);
    }

    /// The refresh under way ran through.
    pub(crate) fn finished(&mut self) {
        if let Some(began) = self.began.take() {
            self.last_full = Some(began);
        }
    }
}

/// The paths to watch: each of `used` not below another (Claude Code
/// watches a directory with everything below it). `used` is sorted.
pub(crate) fn outermost(used: &[String]) -> Vec<String> {
    let mut kept: Vec<String> = Vec::new();
    for path in used {
        let inside = kept
            .last()
            .is_some_and(|outer| paths::strip_base(path, outer).is_some());
        if !inside {
            kept.push(path.clone());
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_skipped_before_the_watch_and_its_first_full_refresh() {
        let mut watch = Watch::default();
        assert!(!watch.may_skip(0, false));
        watch.started(Vec::new());
        assert!(!watch.may_skip(0, false));
        watch.begin(10);
        watch.finished();
        assert!(watch.may_skip(20, false));
    }

    #[test]
    fn a_change_reported_during_a_refresh_makes_the_next_one_full() {
        let mut watch = Watch::default();
        watch.started(Vec::new());
        watch.begin(10);
        watch.changed();
        watch.finished();
        assert!(!watch.may_skip(20, false));
    }

    #[test]
    fn a_missed_change_is_seen_within_the_bound_and_writes_always_refresh() {
        let mut watch = Watch::default();
        watch.started(Vec::new());
        watch.begin(1_000);
        watch.finished();
        assert!(!watch.may_skip(1_500, true));
        assert!(watch.may_skip(1_000 + FULL_REFRESH_MS - 1, false));
        assert!(!watch.may_skip(1_000 + FULL_REFRESH_MS, false));
        // A clock that went back trusts nothing.
        assert!(!watch.may_skip(999, false));
    }

    #[test]
    fn a_document_is_unchanged_only_below_a_watched_path_and_after_a_skip() {
        let mut watch = Watch::default();
        watch.started(vec!["/p/docs".to_string()]);
        watch.skipped(false);
        assert!(!watch.unchanged("/p/docs/a.md"));
        watch.skipped(true);
        assert!(watch.unchanged("/p/docs/a.md"));
        assert!(watch.unchanged("/p/docs"));
        assert!(!watch.unchanged("/p/docsx/a.md"));
        assert!(!watch.unchanged("/p/README.md"));
    }

    #[test]
    fn only_the_outermost_paths_are_watched() {
        let used: Vec<String> = [
            "/p/.claude/rules",
            "/p/.cursor/rules",
            "/p/.cursor/rules/a",
            "/p/.cursor/rulesx",
            "/p/rule-fairy.edn",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            outermost(&used),
            [
                "/p/.claude/rules",
                "/p/.cursor/rules",
                "/p/.cursor/rulesx",
                "/p/rule-fairy.edn"
            ]
        );
    }
}
