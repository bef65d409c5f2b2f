//! Prompt keyword matching (behaviour §2.4): every rule's terms in one
//! Aho-Corasick automaton, run once over the lower-cased prompt; or, for
//! a process's one short prompt, each term looked for on its own, which
//! costs less than building the automaton.
//!
//! A term of ASCII letters and digits only is a word term and needs a
//! boundary on both sides (anything but `a-z0-9`); any other term is a phrase
//! matched as a plain substring.

// The index's maps hash the project's own terms and names, not input an
// attacker chooses, so a fast hasher is safe and builds them much faster.
use foldhash::{HashMap, HashMapExt};

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::base::packed::Packed;

/// True for a term made only of `[a-z0-9]`.
pub(crate) fn is_word_term(term: &str) -> bool {
    !term.is_empty()
        && term
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// A set of distinct lower-case terms, compiled once, on first use: an
/// edit event never scans a prompt, so it never pays for the automaton.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeywordMatcher {
    /// The terms by id, in one buffer: thousands of rules give tens of
    /// thousands of terms, and one allocation each was a cost of its own.
    terms: Packed,
    word: Vec<bool>,
    /// The terms' bytes in all: what building the automaton costs.
    term_bytes: usize,
    /// The first prompt, when it was searched for term by term, and what
    /// it holds: one event asks about its prompt more than once (to select,
    /// then to explain), and only another prompt pays for the automaton.
    first: OnceLock<(String, Found)>,
    /// Term to id, built at the first [`KeywordMatcher::id`]: the index
    /// numbers its terms as it builds and never asks.
    ids: OnceLock<HashMap<String, usize>>,
    automaton: OnceLock<Option<AhoCorasick>>,
}

/// Kept in the native project cache as its terms and which are words
/// (telling them again cost more than reading them back); what is
/// compiled on first use is made again then.
impl Serialize for KeywordMatcher {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&self.terms, &self.word).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for KeywordMatcher {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (terms, word) = <(Packed, Vec<bool>)>::deserialize(deserializer)?;
        if word.len() != terms.len() {
            return Err(serde::de::Error::custom(
                "terms and word marks differ in count",
            ));
        }
        Ok(KeywordMatcher::with_marks(terms, word))
    }
}

/// The terms a prompt holds: their ids, ascending, each once. As many as
/// the prompt holds, not as many as the rules declare.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Found(Vec<usize>);

impl Found {
    /// Whether the term `id` occurs.
    pub(crate) fn contains(&self, id: usize) -> bool {
        self.0.binary_search(&id).is_ok()
    }

    /// The ids found, ascending.
    pub(crate) fn ids(&self) -> &[usize] {
        &self.0
    }
}

/// An automaton over literal strings. A contiguous NFA builds in
/// microseconds; a DFA would search a little faster but costs milliseconds
/// to build, and hooks build the index once per process.
pub(crate) fn literal_automaton<I, P>(literals: I) -> AhoCorasick
where
    I: IntoIterator<Item = P>,
    P: AsRef<[u8]>,
{
    AhoCorasickBuilder::new()
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .match_kind(MatchKind::Standard)
        .build(literals)
        .expect("an automaton over literal strings always builds")
}

/// Whether `bytes[start..end]` has no ASCII letter or digit on either
/// side: a word term's occurrence counts only then.
fn word_bounded(bytes: &[u8], start: usize, end: usize) -> bool {
    let is_word_byte = |i: usize| {
        bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    let before = start.checked_sub(1).is_some_and(is_word_byte);
    !before && !is_word_byte(end)
}

/// Where each byte value occurs in a short text: its positions grouped by
/// byte (a counting sort), so a term is tried only where it can start.
struct ByteStarts {
    /// Positions, ordered by the byte found there, then by position.
    positions: Vec<u16>,
    /// Where each byte value's positions begin in `positions`; one more
    /// entry closes the last.
    begins: [u16; 257],
}

impl ByteStarts {
    /// Texts up to this length are looked at this way.
    const SHORT: usize = 1024;

    fn of(bytes: &[u8]) -> Option<ByteStarts> {
        if bytes.len() > Self::SHORT {
            return None;
        }
        let mut begins = [0u16; 257];
        for &b in bytes {
            begins[usize::from(b) + 1] += 1;
        }
        for i in 1..begins.len() {
            begins[i] += begins[i - 1];
        }
        let mut next = begins;
        let mut positions = vec![0u16; bytes.len()];
        for (at, &b) in bytes.iter().enumerate() {
            let slot = &mut next[usize::from(b)];
            // At most SHORT positions: each fits in a u16.
            positions[usize::from(*slot)] = at as u16;
            *slot += 1;
        }
        Some(ByteStarts { positions, begins })
    }

    /// Where `term` can start: every position of its first byte (terms
    /// are never empty: numbering leaves them out).
    fn of_first(&self, term: &[u8]) -> &[u16] {
        let Some(&first) = term.first() else {
            return &[];
        };
        let b = usize::from(first);
        &self.positions[usize::from(self.begins[b])..usize::from(self.begins[b + 1])]
    }
}

impl KeywordMatcher {
    /// Builds the matcher; repeated terms are kept once.
    pub(crate) fn new<I, S>(terms: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let terms: Vec<S> = terms.into_iter().collect();
        KeywordMatcher::numbering(terms.iter().map(AsRef::as_ref), terms.len()).0
    }

    /// Builds the matcher and numbers its input: for each term given, in
    /// order, its id (`None` for an empty term). One pass, and each
    /// distinct term copied once: building the index over thousands of
    /// rules goes through here. `count` is how many terms come, so the
    /// table of distinct terms is made at its size once, not grown by
    /// doubling (every table left behind was fresh memory touched).
    pub(crate) fn numbering<'a>(
        terms: impl IntoIterator<Item = &'a str>,
        count: usize,
    ) -> (Self, Vec<Option<usize>>) {
        let mut distinct = Packed::default();
        let mut ids: HashMap<&'a str, usize> = HashMap::with_capacity(count);
        let numbers = terms
            .into_iter()
            .map(|term| {
                (!term.is_empty()).then(|| *ids.entry(term).or_insert_with(|| distinct.push(term)))
            })
            .collect();
        let word = distinct.iter().map(is_word_term).collect();
        (KeywordMatcher::with_marks(distinct, word), numbers)
    }

    /// The matcher of distinct terms, numbered by their places, told
    /// which terms are words.
    fn with_marks(terms: Packed, word: Vec<bool>) -> Self {
        KeywordMatcher {
            word,
            term_bytes: terms.bytes(),
            terms,
            first: OnceLock::new(),
            ids: OnceLock::new(),
            automaton: OnceLock::new(),
        }
    }

    /// The id of a term, for reading [`KeywordMatcher::scan`]'s answer.
    pub(crate) fn id(&self, term: &str) -> Option<usize> {
        self.ids
            .get_or_init(|| {
                let mut ids = HashMap::with_capacity(self.terms.len());
                for (id, term) in self.terms.iter().enumerate() {
                    ids.insert(term.to_string(), id);
                }
                ids
            })
            .get(term)
            .copied()
    }

    /// The term numbered `id`.
    pub(crate) fn term(&self, id: usize) -> &str {
        self.terms.get(id)
    }

    /// How many distinct terms the matcher holds.
    pub(crate) fn len(&self) -> usize {
        self.terms.len()
    }

    /// Which terms occur in the prompt. The first prompt is searched for
    /// each term on its own when that costs less than building the
    /// automaton: a hook process sees one prompt, and the automaton over
    /// 30,000 terms takes longer to build than a short prompt takes to
    /// search 30,000 times. Another prompt (an in-process host keeps its
    /// index) builds and uses the automaton.
    pub(crate) fn scan(&self, prompt: &str) -> Found {
        if self.terms.is_empty() {
            return Found::default();
        }
        match self.first.get() {
            Some((first, found)) if first == prompt => return found.clone(),
            Some(_) => {}
            None if self.automaton.get().is_none() && self.direct_is_cheaper(prompt.len()) => {
                let found = self.scan_directly(&prompt.to_lowercase());
                // Another thread's first prompt may have come first: then
                // this one is answered, and not kept.
                let _ = self.first.set((prompt.to_string(), found.clone()));
                return found;
            }
            None => {}
        }
        self.scan_with_automaton(prompt)
    }

    /// Searching a prompt of `len` bytes for each term on its own costs a
    /// search's setup and a vectorised pass per term; building the
    /// automaton costs a few hundred instructions per term byte (measured
    /// with callgrind: about 400). A short prompt's search costs a few tens of instructions a term
    /// and about one for each two bytes it holds (a term is tried at each
    /// of its first byte's positions).
    fn direct_is_cheaper(&self, len: usize) -> bool {
        const SEARCH_SETUP: usize = 300;
        const SHORT_SETUP: usize = 40;
        const BUILD_PER_BYTE: usize = 400;
        let per_term = match len <= ByteStarts::SHORT {
            true => SHORT_SETUP + len / 2,
            false => SEARCH_SETUP + len / 8,
        };
        let direct = self.terms.len().saturating_mul(per_term);
        direct < self.term_bytes.saturating_mul(BUILD_PER_BYTE)
    }

    /// [`KeywordMatcher::scan`] term by term. A short prompt (the usual
    /// one) is looked at only where each term's first byte occurs, which
    /// costs a few comparisons a term; a longer one is searched with
    /// memchr's vectorised `memmem`, whose set-up costs a few hundred
    /// instructions a term.
    fn scan_directly(&self, lowered: &str) -> Found {
        let bytes = lowered.as_bytes();
        if let Some(starts) = ByteStarts::of(bytes) {
            let found = (0..self.terms.len())
                .filter(|&id| {
                    let term = self.terms.get(id).as_bytes();
                    starts.of_first(term).iter().any(|&start| {
                        let start = usize::from(start);
                        bytes[start..].starts_with(term)
                            && (!self.word[id] || word_bounded(bytes, start, start + term.len()))
                    })
                })
                .collect();
            return Found(found);
        }
        // A word term's occurrences are tried one after another without
        // overlap: one that overlaps an earlier occurrence has a word byte
        // before it, so it never counts.
        let found = (0..self.terms.len())
            .filter(|&id| {
                let term = self.terms.get(id).as_bytes();
                let mut hits = memchr::memmem::find_iter(bytes, term);
                match self.word[id] {
                    true => hits.any(|start| word_bounded(bytes, start, start + term.len())),
                    false => hits.next().is_some(),
                }
            })
            .collect();
        Found(found)
    }

    fn scan_with_automaton(&self, prompt: &str) -> Found {
        let automaton = self
            .automaton
            .get_or_init(|| (!self.terms.is_empty()).then(|| literal_automaton(self.terms.iter())));
        let Some(automaton) = automaton else {
            return Found::default();
        };
        let lowered = prompt.to_lowercase();
        let bytes = lowered.as_bytes();
        let mut found: Vec<usize> = Vec::new();
        // Repeats are folded now and then, so a prompt repeating one term
        // holds a list as long as its distinct terms, not its hits.
        let mut folded = 0;
        for hit in automaton.find_overlapping_iter(&lowered) {
            let id = hit.pattern().as_usize();
            if self.word[id] && !word_bounded(bytes, hit.start(), hit.end()) {
                continue;
            }
            found.push(id);
            if found.len() >= 2 * folded + 64 {
                found.sort_unstable();
                found.dedup();
                folded = found.len();
                if folded == self.terms.len() {
                    break;
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        Found(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(term: &str, prompt: &str) -> bool {
        let m = KeywordMatcher::new([term]);
        m.scan(prompt).contains(0)
    }

    #[test]
    fn word_terms_need_ascii_boundaries() {
        assert!(hits("deftest", "fix the deftest"));
        assert!(hits("deftest", "deftest-helper"));
        assert!(hits("deftest", "deftest_x"));
        assert!(hits("deftest", "(deftest)"));
        assert!(
            hits("deftest", "édeftestü"),
            "non-ASCII letters are boundaries"
        );
        assert!(!hits("deftest", "mydeftesthelper"));
        assert!(!hits("deftest", "deftests"));
        assert!(!hits("deftest", "deftest2"));
    }

    #[test]
    fn phrase_terms_are_substrings() {
        assert!(hits("mdc file", "edit these mdc files"));
        assert!(hits("find-or-create", "use find-or-creates"));
        assert!(hits("match?", "is it a match?"));
        assert!(hits("é", "café"));
    }

    #[test]
    fn a_bounded_later_occurrence_still_counts() {
        assert!(hits("test", "testing the test"));
        assert!(!hits("test", "testing attests"));
    }

    #[test]
    fn overlapping_terms_are_all_found() {
        let m = KeywordMatcher::new(["service", "vice", "ice"]);
        assert_eq!(m.scan("a service").ids(), [0]);
        assert_eq!(m.scan("vice, ice").ids(), [1, 2]);
        assert_eq!(m.scan("vice service").ids(), [0, 1]);
    }

    #[test]
    fn found_terms_are_sparse_and_each_once() {
        let m = KeywordMatcher::new((0..1_000).map(|i| format!("t{i}")));
        let prompt = "t7 t3 t7 ".repeat(10_000);
        assert_eq!(m.scan(&prompt).ids(), [3, 7]);
        let every: String = (0..1_000).map(|i| format!("t{i} t{i} ")).collect();
        assert_eq!(m.scan(&every).ids().len(), 1_000);
    }

    #[test]
    fn numbering_gives_each_input_its_id() {
        let (m, ids) = KeywordMatcher::numbering(["b", "", "a", "b"], 4);
        assert_eq!(ids, vec![Some(0), None, Some(1), Some(0)]);
        assert_eq!((m.term(0), m.term(1), m.len()), ("b", "a", 2));
        assert_eq!((m.id("a"), m.id("c")), (Some(1), None));
    }

    proptest::proptest! {
        /// Looking for each term on its own finds exactly what the
        /// automaton finds, overlaps, repeats and boundaries included.
        #[test]
        fn the_direct_search_finds_what_the_automaton_finds(
            terms in proptest::collection::vec("[ab1 .-]{1,4}", 1..12),
            prompt in "[abAB1 .-]{0,40}",
        ) {
            let terms: Vec<String> = terms.iter().map(|t| t.to_lowercase()).collect();
            let m = KeywordMatcher::new(&terms);
            let lowered = prompt.to_lowercase();
            proptest::prop_assert_eq!(m.scan_directly(&lowered), m.scan_with_automaton(&prompt));
            // Past the short prompts' length the search goes through memmem.
            let long = format!("{}{prompt}", " ".repeat(ByteStarts::SHORT));
            proptest::prop_assert_eq!(m.scan_directly(&long.to_lowercase()), m.scan_with_automaton(&long));
        }
    }

    #[test]
    fn the_first_prompt_is_searched_directly_and_another_uses_the_automaton() {
        let m = KeywordMatcher::new(["deftest", "mdc file"]);
        let first = m.scan("fix the deftest");
        assert_eq!(first.ids(), [0]);
        assert_eq!(m.scan("fix the deftest"), first);
        assert!(
            m.automaton.get().is_none(),
            "the same prompt again builds nothing"
        );
        assert_eq!(m.scan("fix the MDC files").ids(), [1]);
        assert!(
            m.automaton.get().is_some(),
            "another prompt builds the automaton"
        );
    }

    #[test]
    fn a_prompt_too_long_to_search_term_by_term_builds_the_automaton() {
        let m = KeywordMatcher::new(["ab"]);
        let long = "x ".repeat(100_000);
        assert!(m.scan(&long).ids().is_empty());
        assert!(m.automaton.get().is_some());
    }

    #[test]
    fn empty_matcher_and_prompt() {
        assert!(KeywordMatcher::new(Vec::<String>::new())
            .scan("anything")
            .ids()
            .is_empty());
        assert!(KeywordMatcher::new(["a"]).scan("").ids().is_empty());
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn new_example() {
        use crate::matching::keywords::KeywordMatcher;
        let m = KeywordMatcher::new(["deftest", "mdc file"]);
        let found = m.scan("Fix the DEFTEST in these MDC files");
        assert!(
            found.contains(m.id("deftest").unwrap()) && found.contains(m.id("mdc file").unwrap())
        );
        assert!(!m.scan("mydeftesthelper").contains(m.id("deftest").unwrap()));
    }
}
