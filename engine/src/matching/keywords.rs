//! Prompt keyword matching (behaviour §2.4): every rule's terms in one
//! Aho-Corasick automaton, run once over the lower-cased prompt.
//!
//! A term of ASCII letters and digits only is a word term and needs a
//! boundary on both sides (anything but `a-z0-9`); any other term is a phrase
//! matched as a plain substring.

use std::collections::HashMap;

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

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
    terms: Vec<String>,
    ids: HashMap<String, usize>,
    word: Vec<bool>,
    automaton: OnceLock<Option<AhoCorasick>>,
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

impl KeywordMatcher {
    /// Builds the matcher; repeated terms are kept once.
    pub(crate) fn new<I, S>(terms: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut distinct: Vec<String> = Vec::new();
        let mut ids = HashMap::new();
        for term in terms {
            let term = term.as_ref();
            if !term.is_empty() && !ids.contains_key(term) {
                ids.insert(term.to_string(), distinct.len());
                distinct.push(term.to_string());
            }
        }
        let word = distinct.iter().map(|t| is_word_term(t)).collect();
        KeywordMatcher {
            terms: distinct,
            ids,
            word,
            automaton: OnceLock::new(),
        }
    }

    /// The id of a term, for reading [`KeywordMatcher::scan`]'s answer.
    pub(crate) fn id(&self, term: &str) -> Option<usize> {
        self.ids.get(term).copied()
    }

    /// The distinct terms, indexed by id.
    pub(crate) fn terms(&self) -> &[String] {
        &self.terms
    }

    /// Which terms occur in the prompt, indexed by term id.
    pub(crate) fn scan(&self, prompt: &str) -> Vec<bool> {
        let mut found = vec![false; self.terms.len()];
        let automaton = self
            .automaton
            .get_or_init(|| (!self.terms.is_empty()).then(|| literal_automaton(&self.terms)));
        let Some(automaton) = automaton else {
            return found;
        };
        let lowered = prompt.to_lowercase();
        let bytes = lowered.as_bytes();
        let is_word_byte = |i: usize| {
            bytes
                .get(i)
                .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        };
        let mut remaining = self.terms.len();
        for hit in automaton.find_overlapping_iter(&lowered) {
            let id = hit.pattern().as_usize();
            if found[id] {
                continue;
            }
            let word_before = hit.start() > 0 && is_word_byte(hit.start() - 1);
            let bounded = !self.word[id] || !(word_before || is_word_byte(hit.end()));
            if bounded {
                found[id] = true;
                remaining -= 1;
                if remaining == 0 {
                    break;
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(term: &str, prompt: &str) -> bool {
        let m = KeywordMatcher::new([term]);
        m.scan(prompt)[0]
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
        assert_eq!(m.scan("a service"), vec![true, false, false]);
        assert_eq!(m.scan("vice, ice"), vec![false, true, true]);
    }

    #[test]
    fn empty_matcher_and_prompt() {
        assert!(KeywordMatcher::new(Vec::<String>::new())
            .scan("anything")
            .is_empty());
        assert_eq!(KeywordMatcher::new(["a"]).scan(""), vec![false]);
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
        assert!(found[m.id("deftest").unwrap()] && found[m.id("mdc file").unwrap()]);
        assert!(!m.scan("mydeftesthelper")[m.id("deftest").unwrap()]);
    }
}
