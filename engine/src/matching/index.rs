//! The rule index: every rule's globs in one [`GlobIndex`], every keyword
//! in one automaton, every rule's other conditions compiled once; built once
//! and reused for every event until a rule file changes.
//!
//! A rule fires when its declared conditions combine to true: any of them
//! (the default) or all of them (`match: all`). A prompt event tests
//! alwaysApply, keywords and the facts; a path event tests globs,
//! `fileContains` and the facts, and selects only rules for which a path
//! condition held, so a rule is delivered for the path that reached it.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::base::error::{Error, ErrorKind, Place};
use crate::base::packed::Packed;
use crate::base::paths;
use crate::matching::candidates::{Posted, PromptCandidates};
use crate::matching::conditions::Compiled;
use crate::matching::content_index::ContentIndex;
use crate::matching::facts::{command_of, wanted_facts, Facts};
use crate::matching::glob;
use crate::matching::glob_index::GlobIndex;
use crate::matching::keywords::{Found, KeywordMatcher};
use crate::matching::requests::Requests;
use crate::rules::discovery::java_order;
use crate::rules::rule::{GlobSpec, Rule};

/// One rule as the index matches it: 48 bytes, and nothing allocated
/// for most rules. Places are four bytes: 10,000 rules are 10,000 entries
/// beside the rest of a warm run's memory (behaviour §5.1).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    // The rule's name is not copied here: [`Requests`] keeps every name,
    // by the same place, and one copy fewer per rule is one allocation
    // fewer in a warm run's build. Its file, base, globs and terms are not
    // copied one by one either: they lie packed in [`Texts`] and
    // [`RuleIndex::term_ids`].
    /// The rule's file: its place in [`Texts::strings`].
    path: u32,
    /// A nested folder's rule: the directory its globs are relative to,
    /// by its place in [`Texts::strings`].
    base: Option<u32>,
    /// The rule's globs as matched ([`scoped_globs`]): places in
    /// [`Texts::globs`].
    globs: Range<u32>,
    trigger: Option<Trigger>,
    /// `None` for a rule that declares no condition (most do not): an
    /// entry is then smaller by the conditions' size.
    conditions: Option<Box<Compiled>>,
    always_apply: bool,
    /// A nested folder's always-on rule, which holds below its base
    /// (behaviour §1.2): a read there brings it too, not only an edit.
    below_base: bool,
}

/// A rule's prompt trigger: its term ids, any of and then all of, from
/// `start` in [`RuleIndex::term_ids`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Trigger {
    start: u32,
    any_of: u32,
    requires: u32,
}

impl Trigger {
    fn any_of(self) -> Range<usize> {
        let start = self.start as usize;
        start..start + self.any_of as usize
    }

    fn requires(self) -> Range<usize> {
        let start = self.any_of().end;
        start..start + self.requires as usize
    }
}

/// A place in one of the index's lists, kept in four bytes: the lists
/// hold what rule files of at most `MAX_READ_BYTES` each declare, far
/// fewer than 2^32 items before memory runs out.
fn place(at: usize) -> u32 {
    u32::try_from(at).expect("an index's lists stay below 2^32 items")
}

/// What every rule declaring no condition is judged by.
static NO_CONDITIONS: Compiled = Compiled::NONE;

impl Entry {
    fn conditions(&self) -> &Compiled {
        self.conditions.as_deref().unwrap_or(&NO_CONDITIONS)
    }

    fn durable(&self) -> bool {
        !self.conditions().conditions.is_ephemeral()
    }

    fn match_all(&self) -> bool {
        self.conditions().conditions.match_all
    }
}

/// Every entry's file, base and glob patterns in one buffer, and its
/// globs' lines in one list: two allocations for the index, not three or
/// four for each rule.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Texts {
    strings: Packed,
    globs: Vec<PackedGlob>,
}

/// A [`GlobSpec`] whose pattern lies in [`Texts::strings`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct PackedGlob {
    pattern: u32,
    line: u32,
    from_sequence: bool,
}

impl PackedGlob {
    fn line(self) -> usize {
        self.line as usize
    }
}

impl Texts {
    /// Packs a rule's file, base and globs as the index matches them
    /// ([`scoped_globs`], without copying them first).
    fn entry_places(&mut self, rule: &Rule) -> (u32, Option<u32>, Range<u32>) {
        let path = place(self.strings.push(&rule.path));
        let base = rule
            .base
            .as_deref()
            .map(|base| place(self.strings.push(base)));
        let start = place(self.globs.len());
        for spec in &rule.globs {
            let pattern = place(self.strings.push(&spec.pattern));
            self.globs.push(PackedGlob {
                pattern,
                line: place(spec.line),
                from_sequence: spec.from_sequence,
            });
        }
        if rule.base.is_some() && rule.always_apply {
            // As in `scoped_globs`: `**` always compiles, its line is never quoted.
            let pattern = place(self.strings.push("**"));
            self.globs.push(PackedGlob {
                pattern,
                line: 1,
                from_sequence: false,
            });
        }
        (path, base, start..place(self.globs.len()))
    }

    fn path(&self, entry: &Entry) -> &str {
        self.strings.get(entry.path as usize)
    }

    fn base(&self, entry: &Entry) -> Option<&str> {
        entry.base.map(|at| self.strings.get(at as usize))
    }

    /// The entry's glob at `position` among its globs, and its pattern.
    fn glob(&self, entry: &Entry, position: usize) -> (PackedGlob, &str) {
        let glob = self.globs[entry.globs.start as usize + position];
        (glob, self.strings.get(glob.pattern as usize))
    }

    /// The entry's glob at `position` as it reads from the project root.
    fn shown_glob(&self, entry: &Entry, position: usize) -> String {
        shown_glob(self.base(entry), self.glob(entry, position).1)
    }
}

/// A rule's glob as it reads from the project root: a nested folder's
/// glob with its base before it.
pub(crate) fn shown_glob(base: Option<&str>, pattern: &str) -> String {
    match base {
        None => pattern.to_string(),
        Some(base) if pattern.contains('/') || pattern == "**" => format!("{base}/{pattern}"),
        Some(base) => format!("{base}/**/{pattern}"),
    }
}

/// A rule's globs as the index matches them: a nested folder's always-on
/// rule holds for every path below its base (behaviour §1.2), as `**`
/// relative to it, and not at prompts.
pub(crate) fn scoped_globs(rule: &Rule) -> (Vec<GlobSpec>, bool) {
    let mut globs = rule.globs.clone();
    if rule.base.is_none() || !rule.always_apply {
        return (globs, rule.always_apply);
    }
    // `**` always compiles: its line is never quoted.
    globs.push(GlobSpec {
        pattern: "**".to_string(),
        line: 1,
        from_sequence: false,
    });
    (globs, false)
}

/// Compiles one of a rule's globs, anchored at its base when it has one.
pub(crate) fn compile_glob(spec: &GlobSpec, base: Option<&str>) -> Result<globset::Glob, Error> {
    compile_pattern(&spec.pattern, spec.from_sequence, base)
}

/// [`compile_glob`] of a glob's parts.
fn compile_pattern(
    pattern: &str,
    from_sequence: bool,
    base: Option<&str>,
) -> Result<globset::Glob, Error> {
    let compiled = glob::compile(pattern, from_sequence)?;
    match base {
        Some(base) => glob::below(base, &compiled),
        None => Ok(compiled),
    }
}

/// Folds the outcomes of a rule's declared conditions.
#[derive(Default)]
struct Verdict {
    declared: bool,
    any: bool,
    failed: bool,
}

impl Verdict {
    fn note(&mut self, held: bool) {
        self.declared = true;
        self.any |= held;
        self.failed |= !held;
    }

    fn fires(&self, match_all: bool) -> bool {
        self.declared && if match_all { !self.failed } else { self.any }
    }
}

/// A rule selected by a prompt, with why (behaviour §2.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PromptMatch {
    pub name: String,
    pub always_apply: bool,
    /// Matched any-of terms in declaration order, then matched required terms.
    pub keywords: Vec<String>,
    /// Delivered once and recorded; false for rules on per-turn facts
    /// (branch, model, agent, tools), delivered every turn they hold.
    pub durable: bool,
    /// The prompt's mentions naming the rule, with their `@` (behaviour
    /// §9.3); a mentioned rule is selected whatever its triggers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<String>,
}

/// A rule selected by one or more paths, with the first glob (in
/// declaration order) that matched each path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PathMatch {
    pub name: String,
    pub hits: Vec<GlobHit>,
    /// The `fileContains` patterns that matched a path's content.
    pub contents: Vec<ContentHit>,
    pub durable: bool,
}

impl PathMatch {
    /// The paths that selected the rule, in event order, each once.
    pub fn paths(&self) -> Vec<&str> {
        self.places().into_iter().map(|(_, path)| path).collect()
    }

    /// [`PathMatch::paths`] with each path's place among the event's
    /// paths. Matching visits each distinct path once, in order, so the
    /// glob hits and the content hits are each in ascending places: one
    /// merge gives the paths, with no search.
    pub(crate) fn places(&self) -> Vec<(usize, &str)> {
        let mut out = Vec::with_capacity(self.hits.len().max(self.contents.len()));
        let mut globs = self.hits.iter().map(|h| (h.at, h.path.as_str())).peekable();
        let mut contents = self
            .contents
            .iter()
            .map(|h| (h.at, h.path.as_str()))
            .peekable();
        loop {
            let next = match (globs.peek(), contents.peek()) {
                (Some(g), Some(c)) if g.0 == c.0 => {
                    contents.next();
                    globs.next()
                }
                (Some(g), Some(c)) if g.0 < c.0 => globs.next(),
                (Some(_) | None, Some(_)) => contents.next(),
                (Some(_), None) => globs.next(),
                (None, None) => break,
            };
            out.extend(next);
        }
        out
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GlobHit {
    pub glob: String,
    pub path: String,
    /// The path's place among the paths the event matched.
    #[serde(skip)]
    pub(crate) at: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContentHit {
    pub pattern: String,
    pub path: String,
    /// The path's place among the paths the event matched.
    #[serde(skip)]
    pub(crate) at: usize,
}

/// The rules a set of paths selects, and the invalid globs the matching
/// reached. A reached invalid glob fails the event in the original; here
/// it is reported beside the rules that did match, so one broken rule does
/// not silence the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathMatches {
    pub rules: Vec<PathMatch>,
    pub errors: Vec<Error>,
}

/// A project's rules compiled for matching: the globs in one set, the
/// keywords in one automaton, the `fileContains` patterns in one regex set,
/// and each rule's other conditions; built once and reused for every event
/// until a rule file changes.
#[derive(Debug, Clone)]
pub struct RuleIndex {
    entries: Vec<Entry>,
    /// Every rule's prompt terms by id, one rule's after another's
    /// ([`Trigger`]).
    term_ids: Vec<u32>,
    /// The entries' files, bases and globs.
    texts: Texts,
    /// The globs compiled, at the first event or question about paths: a
    /// prompt never needs them, and they are most of the build.
    paths: OnceLock<PathSide>,
    keywords: KeywordMatcher,
    /// Every rule's `fileContains` patterns, compiled together.
    contents: ContentIndex,
    /// The requestable rules and every rule's names for mentions.
    requests: Requests,
    /// The entries of nested folders' always-on rules, the only rules a
    /// read can bring by path (behaviour §1.2); few, so a list.
    below_base: Vec<usize>,
    /// The rules behind each term and fact a prompt can hold.
    candidates: PromptCandidates,
    /// Whether some rule tests file content (`fileContains`).
    needs_contents: bool,
}

/// Every rule's globs compiled and indexed.
#[derive(Debug, Clone)]
struct PathSide {
    globs: GlobIndex,
    /// For each glob in the index: (entry, position among the rule's globs).
    owners: Vec<(usize, usize)>,
    /// For each entry, the position of its first glob that does not
    /// compile, and the error.
    first_invalid: Vec<Option<(usize, Error)>>,
    /// The entries with an invalid glob, ascending.
    with_invalid: Vec<usize>,
}

impl PathSide {
    fn new(entries: &[Entry], texts: &Texts) -> PathSide {
        let mut compiled = Vec::new();
        let mut owners = Vec::new();
        let mut first_invalid = Vec::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            let mut first = None;
            for position in 0..entry.globs.len() {
                let (spec, pattern) = texts.glob(entry, position);
                match compile_pattern(pattern, spec.from_sequence, texts.base(entry)) {
                    Ok(glob) => {
                        compiled.push(glob);
                        owners.push((index, position));
                    }
                    Err(e) if first.is_none() => {
                        let place = Place::line(texts.path(entry), spec.line());
                        first = Some((position, e.or_at(place)));
                    }
                    Err(_) => {}
                }
            }
            first_invalid.push(first);
        }
        let with_invalid = (0..entries.len())
            .filter(|&at| first_invalid[at].is_some())
            .collect();
        PathSide {
            globs: GlobIndex::new(compiled),
            owners,
            first_invalid,
            with_invalid,
        }
    }
}

/// What the native project cache keeps of an index (behaviour §5.1,
/// "Rule changes"): what the build computes from the rules. The rest is
/// derived from it ([`RuleIndex::of`]) or compiled on first use.
#[derive(Deserialize)]
struct Kept {
    entries: Vec<Entry>,
    term_ids: Vec<u32>,
    texts: Texts,
    keywords: KeywordMatcher,
    requests: Requests,
}

/// [`Kept`] as written, borrowing the index; the fields in the same order.
#[derive(Serialize)]
struct KeptRef<'a> {
    entries: &'a [Entry],
    term_ids: &'a [u32],
    texts: &'a Texts,
    keywords: &'a KeywordMatcher,
    requests: &'a Requests,
}

impl Kept {
    /// Whether every place the entries hold is in what they point into: a
    /// kept index is read back only then, so a damaged one is refused
    /// instead of panicking at an event.
    fn holds_together(&self) -> bool {
        let strings = self.texts.strings.len();
        let globs = self.texts.globs.len();
        let in_strings = |at: u32| (at as usize) < strings;
        let entry_holds = |e: &Entry| {
            in_strings(e.path)
                && e.base.is_none_or(in_strings)
                && e.globs.start <= e.globs.end
                && e.globs.end as usize <= globs
                && e.trigger
                    .is_none_or(|t| t.requires().end <= self.term_ids.len())
        };
        let terms = self.keywords.len();
        self.requests.len() == self.entries.len()
            && self.texts.globs.iter().all(|g| in_strings(g.pattern))
            && self.term_ids.iter().all(|&id| (id as usize) < terms)
            && self.entries.iter().all(entry_holds)
    }
}

impl Serialize for RuleIndex {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        KeptRef {
            entries: &self.entries,
            term_ids: &self.term_ids,
            texts: &self.texts,
            keywords: &self.keywords,
            requests: &self.requests,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RuleIndex {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let kept = Kept::deserialize(deserializer)?;
        if !kept.holds_together() {
            return Err(serde::de::Error::custom(
                "a kept index whose places do not hold together",
            ));
        }
        Ok(RuleIndex::of(kept))
    }
}

impl RuleIndex {
    /// Builds the index over rules in name order. Invalid globs and
    /// patterns do not stop the build; they are reported when an event
    /// reaches them.
    pub fn build(rules: &[Rule]) -> RuleIndex {
        // Every rule's terms numbered in one pass: any-of, then required.
        let triggers = || rules.iter().filter_map(|r| r.trigger.as_ref());
        let (keywords, numbers) = KeywordMatcher::numbering(
            triggers().flat_map(|t| t.any_of.iter().chain(&t.requires).map(String::as_str)),
            triggers().map(|t| t.any_of.len() + t.requires.len()).sum(),
        );
        let mut term_ids = Vec::with_capacity(numbers.len());
        let mut numbers = numbers.into_iter();
        // The next `count` terms' ids (an empty term has none), and how
        // many there were.
        let mut ids = |count: usize, term_ids: &mut Vec<u32>| {
            let before = term_ids.len();
            term_ids.extend(numbers.by_ref().take(count).flatten().map(place));
            place(term_ids.len() - before)
        };
        let mut entries = Vec::with_capacity(rules.len());
        let mut texts = Texts::default();
        for rule in rules {
            let (path, base, globs) = texts.entry_places(rule);
            // A nested folder's always-on rule holds by path, not at prompts.
            let below_base = rule.base.is_some() && rule.always_apply;
            let trigger = rule.trigger.as_ref().map(|t| Trigger {
                start: place(term_ids.len()),
                any_of: ids(t.any_of.len(), &mut term_ids),
                requires: ids(t.requires.len(), &mut term_ids),
            });
            entries.push(Entry {
                path,
                always_apply: rule.always_apply && !below_base,
                globs,
                trigger,
                conditions: rule
                    .conditions
                    .declared()
                    .map(|declared| Box::new(Compiled::new(declared))),
                base,
                below_base,
            });
        }
        RuleIndex::of(Kept {
            entries,
            term_ids,
            texts,
            keywords,
            requests: Requests::new(rules),
        })
    }

    /// The index of its kept parts: what is derived from the entries is
    /// made here, what is compiled on first use is left for then.
    fn of(kept: Kept) -> RuleIndex {
        let Kept {
            entries,
            term_ids,
            texts,
            keywords,
            requests,
        } = kept;
        let contents = ContentIndex::new(
            entries
                .iter()
                .enumerate()
                .map(|(i, e)| (i, e.conditions().conditions.file_contains.values.as_slice())),
        );
        let below_base = (0..entries.len())
            .filter(|&at| entries[at].below_base)
            .collect();
        let candidates = PromptCandidates::new(
            entries.iter().map(|e| Posted {
                always_apply: e.always_apply,
                any_of: e.trigger.map_or(&[], |t| &term_ids[t.any_of()]),
                conditions: e.conditions(),
            }),
            keywords.len(),
        );
        RuleIndex {
            below_base,
            candidates,
            needs_contents: entries.iter().any(|e| e.conditions().has_file_contains()),
            entries,
            term_ids,
            texts,
            paths: OnceLock::new(),
            keywords,
            contents,
            requests,
        }
    }

    /// How many rules the index holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the index holds no rule.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether some rule tests an edited file's content, so a path event
    /// should read the files it names.
    pub fn needs_contents(&self) -> bool {
        self.needs_contents
    }

    /// The globs compiled, on first use.
    fn path_side(&self) -> &PathSide {
        self.paths
            .get_or_init(|| PathSide::new(&self.entries, &self.texts))
    }

    /// Every always-on or keyword-matched rule, in name order (behaviour
    /// §2.4), with no facts known.
    pub fn match_prompt(&self, prompt: &str) -> Vec<PromptMatch> {
        self.match_prompt_with(prompt, &Facts::default())
    }

    /// The same index for a project at `root`: the paths of reads are
    /// relative to it (behaviour §9.2).
    pub(crate) fn at_root(mut self, root: &str) -> RuleIndex {
        self.requests = self.requests.at_root(root);
        self
    }

    /// The requestable rules and the names mentions resolve to.
    pub(crate) fn requests(&self) -> &Requests {
        &self.requests
    }

    /// The rules a prompt selects given the session's facts, in name order:
    /// those its triggers fire, and those it mentions (behaviour §9.3).
    /// Only the rules a found term, a fact, a mention or always-on can
    /// fire are looked at.
    pub fn match_prompt_with(&self, prompt: &str, facts: &Facts) -> Vec<PromptMatch> {
        let found = self.keywords.scan(prompt);
        let derived = command_of(prompt);
        let command = facts.command.as_deref().or(derived.as_deref());
        let mentioned = self.requests.mentioned(prompt).rules;
        let candidates =
            self.candidates
                .gather(&found, facts, command, mentioned.iter().map(|(at, _)| *at));
        self.judge_prompt(candidates, mentioned, &found, facts, command)
    }

    /// Judges the rules at `places` (ascending) at a prompt, each as
    /// behaviour §2.4 and §9.3 say; `mentioned` (ascending) must be among
    /// them.
    fn judge_prompt(
        &self,
        places: impl IntoIterator<Item = usize>,
        mentioned: Vec<(usize, Vec<String>)>,
        found: &Found,
        facts: &Facts,
        command: Option<&str>,
    ) -> Vec<PromptMatch> {
        let mut mentioned = mentioned.into_iter().peekable();
        places
            .into_iter()
            .filter_map(|place| {
                let entry = &self.entries[place];
                let mentions = match mentioned.peek() {
                    Some((at, _)) if *at == place => mentioned.next().map(|(_, m)| m),
                    _ => None,
                }
                .unwrap_or_default();
                let mut verdict = Verdict::default();
                if entry.always_apply {
                    verdict.note(true);
                }
                let keywords = self.prompt_terms(entry, found);
                if entry.trigger.is_some() {
                    verdict.note(keywords.is_some());
                }
                // No path at a prompt: a path condition does not hold.
                if !entry.globs.is_empty() {
                    verdict.note(false);
                }
                if entry.conditions().has_file_contains() {
                    verdict.note(false);
                }
                entry
                    .conditions()
                    .each_fact_condition(facts, command, &mut |_, held| verdict.note(held));
                let fires = verdict.fires(entry.match_all());
                (fires || !mentions.is_empty()).then(|| PromptMatch {
                    name: self.requests.name(place).to_string(),
                    // Reasons speak only of what held: a mentioned rule's
                    // failed conditions are not why it came.
                    always_apply: fires && entry.always_apply,
                    keywords: if fires {
                        keywords.unwrap_or_default()
                    } else {
                        Vec::new()
                    },
                    durable: entry.durable(),
                    mentions,
                })
            })
            .collect()
    }

    /// [`RuleIndex::match_prompt_with`] judging every rule, as it did
    /// before posting lists: what the lists must never differ from.
    #[cfg(test)]
    fn match_prompt_visiting_all(&self, prompt: &str, facts: &Facts) -> Vec<PromptMatch> {
        let found = self.keywords.scan(prompt);
        let derived = command_of(prompt);
        let command = facts.command.as_deref().or(derived.as_deref());
        let mentioned = self.requests.mentioned(prompt).rules;
        self.judge_prompt(0..self.entries.len(), mentioned, &found, facts, command)
    }

    /// The matched terms when the rule's prompt trigger holds.
    fn prompt_terms(&self, entry: &Entry, found: &Found) -> Option<Vec<String>> {
        let trigger = entry.trigger?;
        let (any_of, requires) = (
            &self.term_ids[trigger.any_of()],
            &self.term_ids[trigger.requires()],
        );
        let found_id = |id: &u32| found.contains(*id as usize);
        let holds = requires.iter().all(found_id) && any_of.iter().any(found_id);
        holds.then(|| {
            any_of
                .iter()
                .chain(requires)
                .filter(|id| found_id(id))
                .map(|&id| self.keywords.term(id as usize).to_string())
                .collect()
        })
    }

    /// The rules each path selects, with no facts known and no contents.
    pub fn match_paths<S: AsRef<str>>(&self, paths: &[S]) -> PathMatches {
        self.match_paths_with(paths, &Facts::default(), None)
    }

    /// The nested folders' always-on rules the read `paths` lie below
    /// (behaviour §1.2), matched as [`RuleIndex::match_paths_with`] does
    /// (no file contents are known for a read).
    pub(crate) fn match_reads_below_bases<S: AsRef<str>>(
        &self,
        paths: &[S],
        facts: &Facts,
    ) -> PathMatches {
        if self.below_base.is_empty() {
            return PathMatches::default();
        }
        let mut matches = self.match_paths_with(paths, facts, None);
        matches.rules.retain(|m| {
            self.below_base
                .iter()
                .any(|&at| self.requests.name(at) == m.name)
        });
        // A rule's invalid glob is told with its edits, not its reads.
        matches.errors.clear();
        matches
    }

    /// Whether a read of `path` (project-relative) may bring a nested
    /// folder's always-on rule: one lookup in the glob set.
    pub(crate) fn read_may_reach_below_base(&self, path: &str) -> bool {
        if self.below_base.is_empty() {
            return false;
        }
        let side = self.path_side();
        side.globs
            .matches(&paths::normalize_for_match(path))
            .0
            .into_iter()
            .any(|id| self.entries[side.owners[id].0].below_base)
    }

    /// The rules each path selects: paths in the order given, each path's
    /// rules in name order, a rule listed once with every path that reached
    /// it (behaviour §2.3, 2.6). Callers sort the paths where the event
    /// calls for it (shell changes). `contents`, when given, holds each
    /// path's file content (same order as `paths`) for `fileContains`.
    pub fn match_paths_with<S: AsRef<str>>(
        &self,
        paths: &[S],
        facts: &Facts,
        contents: Option<&[Option<String>]>,
    ) -> PathMatches {
        let mut result = PathMatches::default();
        let mut slot: Vec<Option<usize>> = vec![None; self.entries.len()];
        // Each invalid glob or pattern is reported once per event; a flag per
        // rule keeps that check constant whatever the number of paths.
        let mut glob_reported = vec![false; self.entries.len()];
        let side = self.path_side();
        let mut any_path = false;
        // A path named twice selects what it selected the first time.
        let mut seen: HashSet<String> = HashSet::with_capacity(paths.len());
        for (path_index, path) in paths.iter().enumerate() {
            let path = paths::normalize_for_match(path.as_ref());
            if path.is_empty() || !seen.insert(path.clone()) {
                continue;
            }
            let content = contents
                .and_then(|c| c.get(path_index))
                .and_then(|c| c.as_deref());
            // The rules this path reaches, in name order: those with a
            // matching glob, a matching content pattern or an invalid glob.
            // Every other rule cannot fire on it and is not looked at.
            let first = self.first_globs(&path, &mut result.errors);
            if !any_path {
                // An invalid `fileContains` pattern is reported once, for
                // any event with a path.
                for (rule, pattern, why) in &self.contents.invalid {
                    let entry = &self.entries[*rule];
                    let line = entry.conditions().conditions.file_contains.line;
                    let kind = ErrorKind::InvalidContentPattern {
                        pattern: pattern.clone(),
                        why: why.clone(),
                    };
                    let error = Error::at(Place::line(self.texts.path(entry), line), kind);
                    if !result.errors.contains(&error) {
                        result.errors.push(error);
                    }
                }
            }
            any_path = true;
            // One scan of the file for every rule's patterns.
            let content_first = match content {
                Some(content) if !self.contents.is_empty() => {
                    self.contents.first_matches(content, self.entries.len())
                }
                _ => Vec::new(),
            };
            let mut reached: Vec<usize> = first.iter().map(|&(entry, _)| entry).collect();
            reached.extend(
                content_first
                    .iter()
                    .enumerate()
                    .filter_map(|(i, hit)| hit.map(|_| i)),
            );
            reached.extend_from_slice(&side.with_invalid);
            reached.sort_unstable();
            reached.dedup();
            for index in reached {
                let entry = &self.entries[index];
                let mut glob_held = first
                    .binary_search_by_key(&index, |&(entry, _)| entry)
                    .ok()
                    .map(|at| first[at].1);
                // The original tries globs in order and fails on the first
                // invalid one it reaches before a match.
                if let Some((invalid_at, error)) = &side.first_invalid[index] {
                    if glob_held.is_none_or(|p| p > *invalid_at) {
                        if !glob_reported[index] {
                            glob_reported[index] = true;
                            if !result.errors.contains(error) {
                                result.errors.push(error.clone());
                            }
                        }
                        glob_held = None;
                    }
                }
                let content_held = content_first
                    .get(index)
                    .copied()
                    .flatten()
                    .map(|p| entry.conditions().conditions.file_contains.values[p].as_str());
                if glob_held.is_none() && content_held.is_none() {
                    continue;
                }
                if !self.path_rule_fires(entry, glob_held.is_some(), content_held.is_some(), facts)
                {
                    continue;
                }
                let at = *slot[index].get_or_insert_with(|| {
                    result.rules.push(PathMatch {
                        name: self.requests.name(index).to_string(),
                        hits: Vec::new(),
                        contents: Vec::new(),
                        durable: entry.durable(),
                    });
                    result.rules.len() - 1
                });
                if let Some(position) = glob_held {
                    result.rules[at].hits.push(GlobHit {
                        glob: self.texts.shown_glob(entry, position),
                        path: path.clone(),
                        at: path_index,
                    });
                }
                if let Some(pattern) = content_held {
                    result.rules[at].contents.push(ContentHit {
                        pattern: pattern.to_string(),
                        path: path.clone(),
                        at: path_index,
                    });
                }
            }
        }
        result
    }

    /// For each rule a glob of which matches the path, ascending by rule:
    /// the rule and the position of its first matching glob (in
    /// declaration order).
    fn first_globs(&self, path: &str, errors: &mut Vec<Error>) -> Vec<(usize, usize)> {
        let mut first: Vec<(usize, usize)> = Vec::new();
        let side = self.path_side();
        let (matched, uncompiled) = side.globs.matches(path);
        for glob_id in matched {
            let (entry, position) = side.owners[glob_id];
            match first.last_mut() {
                Some(last) if last.0 == entry => last.1 = last.1.min(position),
                _ => first.push((entry, position)),
            }
        }
        // A glob the regex engine refused (too large) is as invalid as a
        // malformed one, found late.
        for glob_id in uncompiled {
            let (entry, position) = side.owners[glob_id];
            let entry = &self.entries[entry];
            let (spec, pattern) = self.texts.glob(entry, position);
            let error = Error::at(
                Place::line(self.texts.path(entry), spec.line()),
                ErrorKind::GlobTooComplex {
                    start: glob::excerpt(pattern),
                },
            );
            if !errors.contains(&error) {
                errors.push(error);
            }
        }
        first
    }

    fn path_rule_fires(
        &self,
        entry: &Entry,
        glob_held: bool,
        content_held: bool,
        facts: &Facts,
    ) -> bool {
        let mut verdict = Verdict::default();
        // alwaysApply and keywords belong to prompts (behaviour §2.3).
        if entry.always_apply {
            verdict.note(false);
        }
        if entry.trigger.is_some() {
            verdict.note(false);
        }
        if !entry.globs.is_empty() {
            verdict.note(glob_held);
        }
        if entry.conditions().has_file_contains() {
            verdict.note(content_held);
        }
        entry
            .conditions()
            .each_fact_condition(facts, facts.command.as_deref(), &mut |_, held| {
                verdict.note(held);
            });
        verdict.fires(entry.match_all())
    }

    /// Whether an event with any path could select a rule or report a
    /// problem whatever the path: some rule tests content (`fileContains`
    /// reads any file) or has an invalid glob (reported for any path).
    pub fn any_path_may_select(&self) -> bool {
        self.needs_contents() || !self.path_side().with_invalid.is_empty()
    }

    /// Whether a glob of some rule matches `path` (or could not be
    /// compiled, which is reported when reached). With
    /// [`any_path_may_select`](Self::any_path_may_select) false, a path for
    /// which this is false selects nothing.
    pub fn glob_reaches(&self, path: &str) -> bool {
        let plain = !path.starts_with(['/', '.']) && !path.contains('\\');
        let globs = &self.path_side().globs;
        if plain {
            globs.reaches(path)
        } else {
            globs.reaches(&paths::normalize_for_match(path))
        }
    }

    /// The globs no path of `files` matches, as (rule file, line, glob) in
    /// rule order: `check`'s warning that a glob reaches nothing in the
    /// project (a typo, a moved folder). Invalid globs are left out; they
    /// are errors of their own.
    pub fn globs_matching_none<S: AsRef<str>>(&self, files: &[S]) -> Vec<(&str, usize, &str)> {
        let side = self.path_side();
        let mut matched = vec![false; side.owners.len()];
        let mut left = side.owners.len();
        for file in files {
            if left == 0 {
                break;
            }
            for id in side
                .globs
                .matches(&paths::normalize_for_match(file.as_ref()))
                .0
            {
                if !matched[id] {
                    matched[id] = true;
                    left -= 1;
                }
            }
        }
        side.owners
            .iter()
            .zip(matched)
            .filter(|(_, hit)| !hit)
            .map(|(&(entry, position), _)| {
                let entry = &self.entries[entry];
                let (spec, pattern) = self.texts.glob(entry, position);
                (self.texts.path(entry), spec.line(), pattern)
            })
            .collect()
    }

    /// The invalid globs of every rule, found when the index was built.
    pub fn invalid_globs(&self) -> impl Iterator<Item = &Error> {
        let side = self.path_side();
        side.with_invalid
            .iter()
            .filter_map(|&at| side.first_invalid[at].as_ref().map(|(_, error)| error))
    }

    /// The compiled conditions of a rule, for `explain`.
    pub fn conditions_of(&self, name: &str) -> Option<&Compiled> {
        Some(self.entries[self.place_of(name)?].conditions())
    }

    /// The place of the rule named `name`, in name order.
    /// The index is built over rules in the listing's order, so it is a
    /// binary search.
    pub fn place_of(&self, name: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.entries.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match java_order(self.requests.name(middle), name) {
                Ordering::Less => low = middle + 1,
                Ordering::Greater => high = middle,
                Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// The facts some rule's conditions test, by condition name (`project`,
    /// `os`, `ci`, `branch`, `model`, `agent`, `tools`), in the order first
    /// declared: the ones a host must gather. Read from the index, so kept
    /// rules stay encoded.
    pub fn wanted_facts(&self) -> Vec<&'static str> {
        wanted_facts(self.entries.iter().map(|e| &e.conditions().conditions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(specs: &[(&str, &str)]) -> Vec<Rule> {
        let mut rules: Vec<Rule> = specs
            .iter()
            .map(|(name, text)| Rule::parse(name, &format!("/p/{name}"), text))
            .collect();
        rules.sort_by(|a, b| crate::rules::discovery::java_order(&a.name, &b.name));
        rules
    }

    fn case_23() -> Vec<Rule> {
        rules(&[
            ("ui.mdc", "---\nglobs: apps/**/ui/**/*.clj\n---\n# UI"),
            ("base.mdc", "---\nalwaysApply: true\n---\n# Base"),
            (
                "tasks/testing.mdc",
                "---\nglobs: **/test/**/*.clj\npromptAnyOf: deftest\n---\n# Nested Testing",
            ),
            ("plain.mdc", "# Plain"),
        ])
    }

    fn prompt_names(index: &RuleIndex, prompt: &str) -> Vec<(String, bool, Vec<String>)> {
        index
            .match_prompt(prompt)
            .into_iter()
            .map(|m| (m.name, m.always_apply, m.keywords))
            .collect()
    }

    fn path_names(index: &RuleIndex, paths: &[&str]) -> Vec<String> {
        index
            .match_paths(paths)
            .rules
            .into_iter()
            .map(|m| m.name)
            .collect()
    }

    #[test]
    fn original_case_38_prompts() {
        let index = RuleIndex::build(&case_23());
        assert_eq!(
            prompt_names(&index, "fix the DEFTEST"),
            vec![
                ("base.mdc".into(), true, vec![]),
                ("tasks/testing.mdc".into(), false, vec!["deftest".into()])
            ]
        );
        assert_eq!(
            prompt_names(&index, "hello"),
            vec![("base.mdc".into(), true, vec![])]
        );
        assert_eq!(
            prompt_names(&index, ""),
            vec![("base.mdc".into(), true, vec![])]
        );
    }

    #[test]
    fn original_cases_39_to_41_required_terms_and_boundaries() {
        let index = RuleIndex::build(&rules(&[
            ("service.mdc", "---\npromptAnyOf: authorization, find-or-create\npromptRequires: service\n---\n# Service"),
            ("base.mdc", "---\nalwaysApply: true\n---\n# Base"),
            ("tasks/testing.mdc", "---\npromptAnyOf: deftest, match?\n---\n# Nested Testing"),
            ("testing.mdc", "# Testing"),
        ]));
        assert_eq!(
            prompt_names(&index, "Update the SERVICE authorization deftest"),
            vec![
                ("base.mdc".into(), true, vec![]),
                (
                    "service.mdc".into(),
                    false,
                    vec!["authorization".into(), "service".into()]
                ),
                ("tasks/testing.mdc".into(), false, vec!["deftest".into()]),
            ]
        );
        assert_eq!(prompt_names(&index, "Update authorization").len(), 1);
        assert_eq!(prompt_names(&index, "Rename mydeftesthelper").len(), 1);
        assert_eq!(
            prompt_names(&index, "is it a match?")[1].2,
            vec!["match?".to_string()]
        );
    }

    #[test]
    fn an_always_on_keyword_rule_reports_both() {
        let index = RuleIndex::build(&rules(&[(
            "w.mdc",
            "---\nalwaysApply: true\npromptAnyOf: widget\n---\n",
        )]));
        assert_eq!(
            prompt_names(&index, "a widget"),
            vec![("w.mdc".into(), true, vec!["widget".into()])]
        );
    }

    #[test]
    fn original_case_35_paths() {
        let index = RuleIndex::build(&case_23());
        assert_eq!(
            path_names(&index, &["apps/x/test/x/ui/a_test.clj"]),
            vec!["tasks/testing.mdc", "ui.mdc"]
        );
        assert!(path_names(&index, &["README.md"]).is_empty());
        assert!(path_names(&index, &[""]).is_empty());
    }

    #[test]
    fn several_paths_keep_path_order_then_name_order() {
        let index = RuleIndex::build(&rules(&[
            ("a.mdc", "---\nglobs: new/**\n---\n"),
            ("b.mdc", "---\nglobs: old/**, new/**\n---\n"),
            ("c.mdc", "---\nglobs: old/**\n---\n"),
        ]));
        let matches = index.match_paths(&["old/a.clj", "new/a.clj"]);
        let names: Vec<&str> = matches.rules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, vec!["b.mdc", "c.mdc", "a.mdc"]);
        assert_eq!(
            matches.rules[0].hits,
            vec![
                GlobHit {
                    glob: "old/**".into(),
                    path: "old/a.clj".into(),
                    at: 0
                },
                GlobHit {
                    glob: "new/**".into(),
                    path: "new/a.clj".into(),
                    at: 1
                }
            ]
        );
    }

    #[test]
    fn invalid_globs_are_reported_when_reached_and_others_still_match() {
        let index = RuleIndex::build(&rules(&[
            ("bad.mdc", "---\nglobs: src/**, src/[a\n---\n"),
            ("good.mdc", "---\nglobs: **/*.clj\n---\n"),
        ]));
        // bad.mdc matched by its first glob: the broken one is never reached.
        let early = index.match_paths(&["src/a.clj"]);
        assert!(early.errors.is_empty());
        assert_eq!(early.rules.len(), 2);
        let reached = index.match_paths(&["lib/a.clj"]);
        assert_eq!(reached.errors.len(), 1);
        assert_eq!(reached.errors[0].message(), "Invalid rule glob: src/[a");
        assert_eq!(reached.errors[0].place, Some(Place::line("/p/bad.mdc", 2)));
        assert_eq!(
            reached
                .rules
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>(),
            vec!["good.mdc"]
        );
        assert_eq!(index.invalid_globs().count(), 1);
        // Prompts never touch globs.
        assert!(index.match_prompt("anything").is_empty());
    }

    fn nested(name: &str, base: &str, text: &str) -> Rule {
        Rule {
            base: Some(base.to_string()),
            ..Rule::parse(name, &format!("/p/{name}"), text)
        }
    }

    #[test]
    fn a_nested_rule_matches_below_its_base() {
        let index = RuleIndex::build(&[
            nested(
                "packages/web/.cursor/rules/ui.mdc",
                "packages/web",
                "---\nglobs: src/**, *.css\n---\n",
            ),
            nested(
                "w[1]/.cursor/rules/odd.mdc",
                "w[1]",
                "---\nglobs: a/*.ts\n---\n",
            ),
        ]);
        let names = |path: &str| path_names(&index, &[path]);
        assert_eq!(
            names("packages/web/src/x.ts"),
            vec!["packages/web/.cursor/rules/ui.mdc"]
        );
        assert_eq!(names("packages/web/deep/a.css").len(), 1);
        assert!(names("src/x.ts").is_empty());
        assert!(names("packages/api/src/x.ts").is_empty());
        assert!(names("packages/web/lib/src/x.ts").is_empty());
        // The base is literal: `[1]` is no character class.
        assert_eq!(names("w[1]/a/b.ts").len(), 1);
        assert!(names("w1/a/b.ts").is_empty());
        let hits = &index.match_paths(&["packages/web/a.css"]).rules[0].hits;
        assert_eq!(hits[0].glob, "packages/web/**/*.css");
        assert!(index.glob_reaches("packages/web/src/y.ts") && !index.glob_reaches("src/y.ts"));
    }

    #[test]
    fn packed_entries_hold_what_scoped_globs_gives() {
        let rules = [
            nested(
                "packages/web/.cursor/rules/base.mdc",
                "packages/web",
                "---\nalwaysApply: true\nglobs: a/*.ts, b/**\n---\n",
            ),
            nested(
                "packages/web/.cursor/rules/ts.mdc",
                "packages/web",
                "---\nglobs: '*.ts'\n---\n",
            ),
            Rule::parse(
                "top.mdc",
                "/p/top.mdc",
                "---\nalwaysApply: true\nglobs: [\"{x,y}\"]\n---\n",
            ),
        ];
        let index = RuleIndex::build(&rules);
        for (rule, entry) in rules.iter().zip(&index.entries) {
            let (globs, always_apply) = scoped_globs(rule);
            let packed: Vec<GlobSpec> = (0..entry.globs.len())
                .map(|position| {
                    let (glob, pattern) = index.texts.glob(entry, position);
                    GlobSpec {
                        pattern: pattern.to_string(),
                        line: glob.line(),
                        from_sequence: glob.from_sequence,
                    }
                })
                .collect();
            assert_eq!((packed, entry.always_apply), (globs, always_apply));
            assert_eq!(index.texts.path(entry), rule.path);
            assert_eq!(index.texts.base(entry), rule.base.as_deref());
        }
    }

    #[test]
    fn a_nested_always_on_rule_comes_with_paths_below_its_base_not_prompts() {
        let index = RuleIndex::build(&[
            nested(
                "packages/web/.cursor/rules/base.mdc",
                "packages/web",
                "---\nalwaysApply: true\n---\n",
            ),
            nested(
                "packages/web/.cursor/rules/words.mdc",
                "packages/web",
                "---\nalwaysApply: true\npromptAnyOf: widget\n---\n",
            ),
        ]);
        assert!(prompt_names(&index, "hello").is_empty());
        assert_eq!(
            prompt_names(&index, "a widget"),
            vec![(
                "packages/web/.cursor/rules/words.mdc".into(),
                false,
                vec!["widget".into()]
            )]
        );
        let matches = index.match_paths(&["packages/web/README.md"]);
        assert_eq!(matches.rules.len(), 2);
        assert_eq!(matches.rules[0].hits[0].glob, "packages/web/**");
        assert!(path_names(&index, &["packages/webby/x"]).is_empty());
        assert!(path_names(&index, &["README.md"]).is_empty());
    }

    #[test]
    fn a_read_below_a_nested_base_reaches_its_always_on_rules_only() {
        let index = RuleIndex::build(&[
            nested(
                "packages/web/.cursor/rules/base.mdc",
                "packages/web",
                "---\nalwaysApply: true\n---\n",
            ),
            nested(
                "packages/web/.cursor/rules/ui.mdc",
                "packages/web",
                "---\nglobs: src/**, lib/[a\n---\n",
            ),
            Rule::parse("root.mdc", "/p/root.mdc", "---\nglobs: **/*.ts\n---\n"),
        ]);
        let read = |path: &str| {
            index
                .match_reads_below_bases(&[path], &Facts::default())
                .rules
                .into_iter()
                .map(|m| m.name)
                .collect::<Vec<_>>()
        };
        // Neither the nested glob rule nor the root one: reads bring no globs.
        assert_eq!(
            read("packages/web/src/a.ts"),
            vec!["packages/web/.cursor/rules/base.mdc"]
        );
        assert!(read("src/a.ts").is_empty());
        // An invalid glob is not told with a read.
        assert!(index
            .match_reads_below_bases(&["packages/web/lib/x"], &Facts::default())
            .errors
            .is_empty());
        assert!(index.read_may_reach_below_base("packages/web/src/a.ts"));
        assert!(!index.read_may_reach_below_base("src/a.ts"));
        assert!(!RuleIndex::build(&[]).read_may_reach_below_base("packages/web/a"));
    }

    #[test]
    fn a_kept_index_reads_back_as_built_and_a_damaged_one_is_refused() {
        let mut kept = rules(&[
            ("base.mdc", "---\nalwaysApply: true\n---\n# Base"),
            ("ask.mdc", "---\ndescription: When asked\n---\n# Ask"),
            (
                "cond.mdc",
                "---\nglobs: src/**\npromptAnyOf: deploy, ship it\nbranch: release/*\nfileContains: TODO\n---\n",
            ),
        ]);
        let mut nested = Rule::parse("web/x.mdc", "/p/web/x.mdc", "---\nalwaysApply: true\n---\n");
        nested.base = Some("web".to_string());
        kept.push(nested);
        let built = RuleIndex::build(&kept).at_root("/p");
        let text = serde_json::to_string(&built).unwrap();
        let read: RuleIndex = serde_json::from_str(&text).unwrap();
        let read = read.at_root("/p");
        // Everything, the compiled conditions and `fileContains` set too.
        assert_eq!(format!("{read:?}"), format!("{built:?}"));
        // Each rule found by name, in the rules' order; a missing one not.
        let places: Vec<_> = kept.iter().map(|r| read.place_of(&r.name)).collect();
        assert_eq!(places, [Some(0), Some(1), Some(2), Some(3)]);
        assert_eq!(
            (read.place_of("cond"), read.place_of("zzz.mdc")),
            (None, None)
        );
        assert_eq!(read.wanted_facts(), ["branch"]);
        let facts = Facts {
            branch: Some("release/1".to_string()),
            ..Facts::default()
        };
        assert_eq!(
            read.match_prompt_with("please ship it", &facts),
            built.match_prompt_with("please ship it", &facts)
        );
        assert_eq!(
            read.match_paths(&["src/a.ts", "web/b.ts"]),
            built.match_paths(&["src/a.ts", "web/b.ts"])
        );
        // A place past what it points into: refused, not a later panic.
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["entries"][0]["path"] = 99.into();
        assert!(serde_json::from_value::<RuleIndex>(value).is_err());
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["term_ids"][0] = 99.into();
        assert!(serde_json::from_value::<RuleIndex>(value).is_err());
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["entries"][2]["trigger"]["requires"] = 99.into();
        assert!(serde_json::from_value::<RuleIndex>(value).is_err());
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["keywords"][1] = serde_json::json!([true]);
        assert!(serde_json::from_value::<RuleIndex>(value).is_err());
    }

    #[test]
    fn braces_split_by_the_comma_match_nothing_but_sequences_alternate() {
        let index = RuleIndex::build(&rules(&[
            ("line.mdc", "---\nglobs: src/{a,b}.clj\n---\n"),
            ("seq.mdc", "---\nglobs: [\"src/{a,b}.clj\"]\n---\n"),
        ]));
        assert_eq!(path_names(&index, &["src/a.clj"]), vec!["seq.mdc"]);
    }
}

#[cfg(test)]
mod selection_tests;
