//! `fileContains` for a whole rule set in one pass: every rule's patterns
//! in one `RegexSet`, so an edited file is scanned once per event however
//! many rules test it, instead of once per pattern.

use regex::RegexSet;

use crate::matching::conditions::compile_pattern;

/// The patterns of every rule, compiled together.
#[derive(Debug, Clone, Default)]
pub(crate) struct ContentIndex {
    set: Option<RegexSet>,
    /// For each pattern in the set: (rule, position among its patterns).
    owners: Vec<(usize, usize)>,
    /// Rules with a pattern that does not compile: the first such pattern
    /// and why.
    pub invalid: Vec<(usize, String, String)>,
}

impl ContentIndex {
    /// Compiles `(rule, patterns)` pairs. A pattern that does not compile
    /// is recorded against its rule and left out; the others still work.
    pub(crate) fn new<'a>(rules: impl IntoIterator<Item = (usize, &'a [String])>) -> ContentIndex {
        let mut owners = Vec::new();
        let mut patterns: Vec<&str> = Vec::new();
        let mut invalid = Vec::new();
        for (rule, rule_patterns) in rules {
            let mut first_bad = None;
            for (position, pattern) in rule_patterns.iter().enumerate() {
                // Compiled alone first: the set would only say that one of
                // its patterns is bad, not which.
                match compile_pattern(pattern) {
                    Ok(_) => {
                        owners.push((rule, position));
                        patterns.push(pattern);
                    }
                    Err(why) => {
                        first_bad.get_or_insert((rule, pattern.clone(), why));
                    }
                }
            }
            invalid.extend(first_bad);
        }
        let set = (!patterns.is_empty())
            .then(|| RegexSet::new(&patterns).ok())
            .flatten();
        ContentIndex {
            set,
            owners,
            invalid,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.owners.is_empty()
    }

    /// For each rule (of `rules` in all), the position of its first pattern
    /// that matches `content`.
    pub(crate) fn first_matches(&self, content: &str, rules: usize) -> Vec<Option<usize>> {
        let mut first: Vec<Option<usize>> = vec![None; rules];
        let Some(set) = &self.set else { return first };
        for id in &set.matches(content) {
            let (rule, position) = self.owners[id];
            if first[rule].is_none_or(|p| position < p) {
                first[rule] = Some(position);
            }
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_finds_each_rules_first_pattern() {
        let a = vec!["TODO".to_string(), "(?i)fixme".to_string()];
        let b = vec!["(unclosed".to_string(), "DROP TABLE".to_string()];
        let index = ContentIndex::new([(0, a.as_slice()), (2, b.as_slice())]);
        assert_eq!(
            index.invalid,
            vec![(2, "(unclosed".to_string(), index.invalid[0].2.clone())]
        );
        assert_eq!(
            index.first_matches("a FixMe and a TODO", 3),
            vec![Some(0), None, None]
        );
        assert_eq!(
            index.first_matches("fixme; DROP TABLE x", 3),
            vec![Some(1), None, Some(1)]
        );
        assert_eq!(index.first_matches("", 3), vec![None, None, None]);
        assert!(ContentIndex::new(std::iter::empty()).is_empty());
    }
}
