//! Shell change detection, the part both adapters share (behaviour §5.4): a
//! shell command can write files no tool input names, so after each command
//! the adapter asks git which files changed since the session's last check.
//! The adapters run git and read file times; what the answer means is here.
//!
//! The sequence for one shell event:
//! 1. `started = now`, before any git call, so a write made while the check
//!    runs is seen by the next one;
//! 2. no check yet: [`ShellState::record_check`] with nothing found (the
//!    check starts now); otherwise run `git rev-parse --show-toplevel` and
//!    `git status --porcelain=v1 -z --untracked-files=all`, read with
//!    [`parse_porcelain`] and [`candidate_paths`], keep the files
//!    [`changed_since`] the marker, map them with [`project_paths`], then
//!    [`ShellState::record_check`];
//! 3. deliver the rules of the pending paths; on success (nothing deferred,
//!    or nothing due) [`ShellState::clear`] them. A git failure saves
//!    nothing, so the next check covers the same window.

use serde::{Deserialize, Serialize};

use crate::base::paths;
use crate::matching::event::name_order;
use crate::matching::index::RuleIndex;

/// The shell check's part of a session's state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShellState {
    /// When the last check started, in epoch milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_at_ms: Option<i64>,
    /// Project-relative paths found but not yet delivered, sorted.
    #[serde(default)]
    pub pending: Vec<String>,
}

impl ShellState {
    /// The first prompt starts the check when the session has none, so the
    /// first shell command reports only what changed after the prompt.
    /// Returns whether it started one.
    pub fn start(&mut self, now_ms: i64) -> bool {
        if self.checked_at_ms.is_some() {
            return false;
        }
        self.checked_at_ms = Some(now_ms);
        true
    }

    /// Whether this event must ask git: only when a check was running.
    pub fn needs_git(&self) -> bool {
        self.checked_at_ms.is_some()
    }

    /// Records a finished check that started at `started_ms` and found
    /// `found`; returns the event's paths, the whole pending list.
    pub fn record_check(&mut self, started_ms: i64, found: &[String]) -> &[String] {
        self.checked_at_ms = Some(started_ms);
        self.pending.extend(found.iter().cloned());
        self.pending.sort_by(|a, b| name_order(a, b));
        self.pending.dedup();
        &self.pending
    }

    /// Drops paths whose rules reached the agent.
    pub fn clear(&mut self, delivered: &[String]) {
        // The pending list is sorted (unless a state file says otherwise),
        // and so are the delivered paths when they are the event's (every
        // host passes those): one merging walk then drops them. Otherwise a
        // set does, still linear.
        let sorted = |paths: &[String]| {
            paths
                .windows(2)
                .all(|pair| name_order(&pair[0], &pair[1]).is_le())
        };
        if !sorted(delivered) || !sorted(&self.pending) {
            let delivered: std::collections::HashSet<&str> =
                delivered.iter().map(String::as_str).collect();
            self.pending
                .retain(|path| !delivered.contains(path.as_str()));
            return;
        }
        let mut next = delivered.iter().peekable();
        self.pending.retain(|path| {
            while next.peek().is_some_and(|d| name_order(d, path).is_lt()) {
                next.next();
            }
            next.peek().is_none_or(|d| *d != path)
        });
    }
}

/// One entry of `git status --porcelain=v1 -z`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusEntry {
    /// The two status letters (`XY`), as git prints them.
    pub status: String,
    /// The path relative to the checkout's top level.
    pub path: String,
}

/// Reads `git status --porcelain=v1 -z` output. Entries are split at NUL;
/// each is two status letters, a space and the path; a rename or copy is
/// followed by its origin path, which is skipped. Nothing is trimmed: an
/// unstaged change's entry starts with a space.
///
/// ```
/// use rule_fairy_engine::shell::parse_porcelain;
/// let entries = parse_porcelain(b" M src/a.ts\0R  new.ts\0old.ts\0?? b c.ts\0");
/// let paths: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
/// assert_eq!(paths, vec!["src/a.ts", "new.ts", "b c.ts"]);
/// ```
pub fn parse_porcelain(output: &[u8]) -> Vec<StatusEntry> {
    porcelain_entries(output)
        .map(|(status, path)| StatusEntry {
            status: String::from_utf8_lossy(status).into_owned(),
            path: String::from_utf8_lossy(path).into_owned(),
        })
        .collect()
}

/// The entries of porcelain output as (status letters, path), borrowed.
fn porcelain_entries(output: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut fields = output.split(|&b| b == 0);
    std::iter::from_fn(move || loop {
        let field = fields.next()?;
        if field.len() < 4 || field[2] != b' ' {
            continue;
        }
        let status = &field[..2];
        if status.contains(&b'R') || status.contains(&b'C') {
            fields.next();
        }
        return Some((status, &field[3..]));
    })
}

/// The paths worth a time check: deletions are never reported.
pub fn candidate_paths(entries: &[StatusEntry]) -> Vec<String> {
    entries
        .iter()
        .filter(|e| !e.status.contains('D'))
        .map(|e| e.path.clone())
        .collect()
}

/// Whether a file changed at or after the marker, compared in whole
/// seconds as the original does. `changed_ms` is the later of the file's
/// modification and inode change times (links not followed): `mv` keeps the
/// modification time, so the change time is what shows a rename.
pub fn changed_since(marker_ms: i64, changed_ms: i64) -> bool {
    changed_ms.div_euclid(1000) >= marker_ms.div_euclid(1000)
}

/// The paths of `git status --porcelain=v1 -z` output worth a time check
/// (relative to the checkout's top level): not deleted, inside the project,
/// and selectable by some rule or lying below a directory of
/// `instructions` ([`InstructionDirs`], whose files a change there may
/// bring, behaviour §5.3). A path neither reaches would be cleared from
/// the pending list by the event it comes with, so its times are not read
/// at all; one pass that keeps only what it returns makes a build of
/// 100,000 files no rule is about cost little more than `git status`.
/// Both roots are real, absolute and normalised, as for [`project_paths`].
pub fn timing_candidates(
    output: &[u8],
    index: &RuleIndex,
    instructions: &InstructionDirs,
    toplevel: &str,
    project: &str,
) -> Vec<String> {
    let every = index.any_path_may_select();
    let reaches = |relative: &str| index.glob_reaches(relative) || instructions.hold(relative);
    // The project's place in the checkout: a plain path below it is mapped
    // by cutting this prefix, with nothing allocated.
    let below = paths::strip_base(project, toplevel);
    porcelain_entries(output)
        .filter(|(status, _)| !status.contains(&b'D'))
        .filter_map(|(_, path)| {
            let path = String::from_utf8_lossy(path);
            let kept = every
                || match below.and_then(|below| plain_project_path(below, &path)) {
                    Some(inside) => inside.is_some_and(reaches),
                    None => project_path(toplevel, project, &path)
                        .is_some_and(|relative| reaches(&relative)),
                };
            kept.then(|| path.into_owned())
        })
        .collect()
}

/// The directories below the project root that hold an instruction file
/// (behaviour §5.3), as git lists them: a change below one may bring its
/// files, so such a path is timed even when no rule's glob reaches it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InstructionDirs {
    dirs: std::collections::HashSet<String>,
    /// The instruction files themselves, project-relative.
    files: std::collections::HashSet<String>,
}

impl InstructionDirs {
    /// The command that lists the instruction files `names` names, run at
    /// the project root: those git tracks, and with `untracked` those it
    /// does not ignore either (which walks the untracked tree, as `git
    /// status` does; a shell check takes those from its `git status`
    /// instead, [`InstructionDirs::with_porcelain`]). Installed packages
    /// are left out; none when `names` is empty.
    pub fn listing_command(names: &[String], untracked: bool) -> Vec<String> {
        if names.is_empty() {
            return Vec::new();
        }
        let words = if untracked {
            "git ls-files --cached --others --exclude-standard -z --"
        } else {
            "git ls-files --cached -z --"
        };
        let mut argv: Vec<String> = words.split(' ').map(str::to_string).collect();
        argv.extend(names.iter().map(|name| format!(":(glob)**/{name}")));
        argv.push(":(glob,exclude)**/node_modules/**".to_string());
        argv
    }

    /// The directories of that command's output (project-relative paths,
    /// NUL-separated) that hold one of `names`, the root left out: both
    /// hosts read the root's files themselves.
    pub fn from_listing(listing: &[u8], names: &[String]) -> Self {
        let mut listed = InstructionDirs::default();
        for path in listing.split(|&b| b == 0).filter(|p| !p.is_empty()) {
            listed.add(&String::from_utf8_lossy(path), names);
        }
        listed
    }

    /// The directories, with those of the instruction files `git status`
    /// output (paths relative to the checkout's real top level `toplevel`)
    /// names inside the project at `project`: the untracked ones a tracked
    /// listing leaves out.
    #[must_use]
    pub fn with_porcelain(
        mut self,
        output: &[u8],
        names: &[String],
        toplevel: &str,
        project: &str,
    ) -> Self {
        for (status, path) in porcelain_entries(output) {
            // Most entries name no instruction file: a test of the name's
            // bytes passes them over before anything is mapped.
            let named = names.iter().any(|name| path.ends_with(name.as_bytes()));
            if !named || status.contains(&b'D') {
                continue;
            }
            let path = String::from_utf8_lossy(path);
            if let Some(relative) = project_path(toplevel, project, &path) {
                self.add(&relative, names);
            }
        }
        self
    }

    /// Takes in the project-relative `path` when it is an instruction file
    /// below the root.
    fn add(&mut self, path: &str, names: &[String]) {
        if let Some(dir) = instruction_dir(path, names) {
            self.dirs.insert(dir.to_string());
            self.files.insert(path.to_string());
        }
    }

    /// Whether the project-relative `file` is one of the instruction files.
    pub fn lists(&self, file: &str) -> bool {
        self.files.contains(file)
    }

    /// Whether the project-relative `path` is a file `names` lists, in
    /// some directory: adding or removing it moves the directories.
    pub fn names_one(path: &str, names: &[String]) -> bool {
        names.iter().any(|name| path == name) || instruction_dir(path, names).is_some()
    }

    /// Whether the project-relative `path` lies below one of the
    /// directories.
    pub fn hold(&self, path: &str) -> bool {
        !self.dirs.is_empty()
            && path
                .match_indices('/')
                .any(|(at, _)| self.dirs.contains(&path[..at]))
    }
}

/// The directory below the root whose instruction file the
/// project-relative `path` is, when it ends in `/<name>` for one of
/// `names`.
fn instruction_dir<'p>(path: &'p str, names: &[String]) -> Option<&'p str> {
    names.iter().find_map(|name| {
        path.strip_suffix(name.as_str())
            .and_then(|rest| rest.strip_suffix('/'))
            .filter(|dir| !dir.is_empty())
    })
}

/// Where a plain path of git's (no empty, `.` or `..` segment, no
/// backslash) lies for the project at `below` within the checkout:
/// `Some(Some(relative))` inside, `Some(None)` outside, and `None` for any
/// other path, which [`project_path`] maps the slow way.
fn plain_project_path<'a>(below: &str, path: &'a str) -> Option<Option<&'a str>> {
    let plain = !path.contains('\\')
        && path
            .split('/')
            .all(|segment| !matches!(segment, "" | "." | ".."));
    if !plain {
        return None;
    }
    if below.is_empty() {
        return Some(Some(path));
    }
    let inside = path
        .strip_prefix(below)
        .and_then(|rest| rest.strip_prefix('/'));
    Some(inside)
}

/// A path relative to the checkout's top level as a project path, when it
/// lies inside the project.
fn project_path(toplevel: &str, project: &str, path: &str) -> Option<String> {
    let absolute = paths::normalize_lexically(&paths::join(toplevel, path));
    let relative = paths::strip_base(&absolute, project)?;
    (!relative.is_empty()).then(|| paths::normalize_for_match(relative))
}

/// Maps paths relative to the checkout's top level (both roots real,
/// absolute and normalised) to sorted project-relative paths, keeping only
/// those inside the project.
pub fn project_paths(toplevel: &str, project: &str, changed: &[String]) -> Vec<String> {
    let mut mapped: Vec<String> = changed
        .iter()
        .filter_map(|path| project_path(toplevel, project, path))
        .collect();
    mapped.sort_by(|a, b| name_order(a, b));
    mapped.dedup();
    mapped
}

/// The checkout's top level from `git rev-parse --show-toplevel` output:
/// only the trailing newline goes (a path may end in a space); empty means
/// the project is not in a git checkout.
pub fn toplevel(output: &str) -> Option<&str> {
    let line = output.strip_suffix('\n').unwrap_or(output);
    (!line.is_empty()).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_dirs_come_from_git_s_listing_of_the_configured_names() {
        let names = vec![
            "AGENTS.md".to_string(),
            ".claude/CLAUDE.md".to_string(),
            "CLAUDE.md".to_string(),
        ];
        let argv = InstructionDirs::listing_command(&names, true);
        assert_eq!(argv[..4], ["git", "ls-files", "--cached", "--others"]);
        assert!(argv.contains(&":(glob)**/.claude/CLAUDE.md".to_string()));
        assert_eq!(
            InstructionDirs::listing_command(&names, false)[..4],
            ["git", "ls-files", "--cached", "-z"]
        );
        assert!(InstructionDirs::listing_command(&[], true).is_empty());
        let dirs = InstructionDirs::from_listing(
            b"AGENTS.md\0CLAUDE.md\0services/billing/AGENTS.md\0apps/web/.claude/CLAUDE.md\0docs/NOTAGENTS.md\0",
            &names,
        );
        assert!(dirs.hold("services/billing/src/a.ts"));
        assert!(dirs.hold("apps/web/x"));
        assert!(
            !dirs.hold("apps/web"),
            "the directory itself is no path below it"
        );
        assert!(!dirs.hold("apps/webby/x"));
        assert!(
            !dirs.hold("README.md"),
            "the root's files are the hosts' own"
        );
        assert!(!dirs.hold("docs/x.md"), "NOTAGENTS.md is not AGENTS.md");
        // Untracked ones come from git status, inside the project only.
        let dirs = dirs.with_porcelain(
            b"?? web/lib/AGENTS.md\0?? other/AGENTS.md\0 D web/gone/AGENTS.md\0",
            &names,
            "/w",
            "/w/web",
        );
        assert!(dirs.hold("lib/a.ts"));
        assert!(!dirs.hold("gone/a.ts"));
        assert!(dirs.lists("lib/AGENTS.md") && !dirs.lists("other/AGENTS.md"));
        assert!(!dirs.lists("../other/AGENTS.md"));
        assert!(InstructionDirs::names_one("AGENTS.md", &names));
        assert!(InstructionDirs::names_one("a/b/.claude/CLAUDE.md", &names));
        assert!(!InstructionDirs::names_one("a/XAGENTS.md", &names));
    }

    #[test]
    fn porcelain_entries_with_renames_copies_and_odd_names() {
        let output = b"MM src/a.clj\0A  generated/example.clj\0R  docs/a b/renamed.md\0docs/base.md\0C  copy.md\0orig.md\0 D gone.md\0?? src/f\xc3\xa4\xc3\xb6.clj\0?? src/\xf0\x9f\x98\x80\"q.clj\0";
        let entries = parse_porcelain(output);
        let paths: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "src/a.clj",
                "generated/example.clj",
                "docs/a b/renamed.md",
                "copy.md",
                "gone.md",
                "src/fäö.clj",
                "src/😀\"q.clj"
            ]
        );
        assert_eq!(entries[4].status, " D");
        let candidates = candidate_paths(&entries);
        assert!(!candidates.contains(&"gone.md".to_string()));
        assert_eq!(candidates.len(), 6);
        assert!(parse_porcelain(b"").is_empty());
        assert!(parse_porcelain(b"garbage\0\0xy\0").is_empty());
    }

    #[test]
    fn times_compare_in_whole_seconds() {
        assert!(changed_since(10_900, 10_000), "same second counts");
        assert!(changed_since(10_000, 11_500));
        assert!(!changed_since(10_000, 9_999));
    }

    #[test]
    fn paths_map_into_the_project_sorted() {
        let changed = vec![
            "backend/src/b.clj".to_string(),
            "frontend/x.js".to_string(),
            "backend/src/a.clj".to_string(),
            "backend".to_string(),
        ];
        assert_eq!(
            project_paths("/w/repo", "/w/repo/backend", &changed),
            vec!["src/a.clj", "src/b.clj"]
        );
        assert_eq!(
            project_paths("/w/repo", "/w/repo", &changed),
            vec![
                "backend",
                "backend/src/a.clj",
                "backend/src/b.clj",
                "frontend/x.js"
            ]
        );
    }

    #[test]
    fn only_paths_a_rule_could_select_are_timed() {
        use crate::rules::rule::Rule;
        let index = |texts: &[&str]| {
            let rules: Vec<Rule> = texts
                .iter()
                .enumerate()
                .map(|(i, text)| Rule::parse(&format!("r{i}"), &format!("/p/r{i}.mdc"), text))
                .collect();
            RuleIndex::build(&rules)
        };
        let status: &[u8] = b"?? web/src/a.ts\0 M web/dist/a.js\0?? other/b.ts\0 D web/src/gone.ts\0R  web/src/b.ts\0web/src/old.ts\0?? web/./src/c.ts\0?? web\0";
        let all = [
            "web/src/a.ts",
            "web/dist/a.js",
            "other/b.ts",
            "web/src/b.ts",
            "web/./src/c.ts",
            "web",
        ];
        let none_listed = InstructionDirs::default();
        let globs = index(&[
            "---\nglobs: src/**/*.ts\n---\nT",
            "---\nalwaysApply: true\n---\nA",
        ]);
        assert_eq!(
            timing_candidates(status, &globs, &none_listed, "/w", "/w/web"),
            vec!["web/src/a.ts", "web/src/b.ts", "web/./src/c.ts"],
            "deleted, outside the project, or matched by no glob: not timed"
        );
        assert_eq!(
            timing_candidates(status, &globs, &none_listed, "/w/web", "/w/web"),
            Vec::<String>::new(),
            "the same paths from the project's own checkout lie elsewhere"
        );
        let from_top = index(&["---\nglobs: web/src/*.ts\n---\nT"]);
        assert_eq!(
            timing_candidates(status, &from_top, &none_listed, "/w", "/w"),
            vec!["web/src/a.ts", "web/src/b.ts", "web/./src/c.ts"]
        );
        let none = index(&["---\nalwaysApply: true\n---\nA"]);
        assert!(timing_candidates(status, &none, &none_listed, "/w", "/w/web").is_empty());
        // A directory holding an instruction file times what changed below it.
        let names = vec!["AGENTS.md".to_string(), ".claude/CLAUDE.md".to_string()];
        let listed = InstructionDirs::from_listing(b"AGENTS.md\0dist/.claude/CLAUDE.md\0", &names);
        assert_eq!(
            timing_candidates(status, &none, &listed, "/w", "/w/web"),
            vec!["web/dist/a.js"]
        );
        let contents = index(&["---\nfileContains: TODO\n---\nC"]);
        assert_eq!(
            timing_candidates(status, &contents, &none_listed, "/w", "/w/web"),
            all
        );
        let invalid = index(&["---\nglobs: \"src/[\"\n---\nI"]);
        assert_eq!(
            timing_candidates(status, &invalid, &none_listed, "/w", "/w/web"),
            all
        );
    }

    #[test]
    fn toplevel_keeps_trailing_spaces() {
        assert_eq!(toplevel("/w/repo \n"), Some("/w/repo "));
        assert_eq!(toplevel(""), None);
        assert_eq!(toplevel("\n"), None);
    }

    #[test]
    fn state_starts_merges_and_clears() {
        let mut state = ShellState::default();
        assert!(!state.needs_git());
        assert!(state.start(1_000));
        assert!(!state.start(2_000));
        assert_eq!(state.checked_at_ms, Some(1_000));
        let first = state
            .record_check(5_000, &["b.ts".into(), "a.ts".into()])
            .to_vec();
        assert_eq!(first, vec!["a.ts", "b.ts"]);
        let second = state
            .record_check(6_000, &["a.ts".into(), "c.ts".into()])
            .to_vec();
        assert_eq!(second, vec!["a.ts", "b.ts", "c.ts"]);
        assert_eq!(state.checked_at_ms, Some(6_000));
        state.clear(&["a.ts".into(), "c.ts".into()]);
        assert_eq!(state.pending, vec!["b.ts"]);
        // Unsorted either side (a hand-written state file) clears the same.
        let mut odd = ShellState {
            checked_at_ms: None,
            pending: vec!["c".into(), "a".into(), "b".into(), "d".into()],
        };
        odd.clear(&["d".into(), "a".into()]);
        assert_eq!(odd.pending, vec!["c", "b"]);
        odd.clear(&["b".into(), "x".into()]);
        assert_eq!(odd.pending, vec!["c"]);
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(json, r#"{"checked_at_ms":6000,"pending":["b.ts"]}"#);
        assert_eq!(
            serde_json::from_str::<ShellState>("{}").unwrap(),
            ShellState::default()
        );
    }

    #[test]
    fn a_hundred_thousand_pending_paths_clear_at_once() {
        // Clearing searched the delivered list for every pending path:
        // 100,000 untracked files took 13 s. Now it is one walk.
        let paths: Vec<String> = (0..100_000)
            .map(|i| format!("src/d{}/f{i}.ts", i % 300))
            .collect();
        let started = std::time::Instant::now();
        let mut state = ShellState::default();
        let pending = state.record_check(0, &paths).to_vec();
        assert_eq!(pending.len(), 100_000);
        let half: Vec<String> = pending.iter().step_by(2).cloned().collect();
        state.clear(&half);
        assert_eq!(state.pending.len(), 50_000);
        state.clear(&pending);
        assert!(state.pending.is_empty());
        let mut unsorted = ShellState {
            checked_at_ms: None,
            pending: paths.clone(),
        };
        unsorted.clear(&paths);
        assert!(unsorted.pending.is_empty());
        assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    }
}
