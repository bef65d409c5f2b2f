//! Matching one path against every glob of a rule set, fast. `GlobSet`
//! tries every regex that shares the path's extension, which is every
//! `*.ts` glob of a TypeScript repository; here each glob is keyed by the
//! longest literal run it requires, one Aho-Corasick pass over the path
//! finds the globs that can match, and only those run their matcher.
//! Matchers compile on first use, so building the index stays cheap.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use globset::Glob;

use crate::matching::glob;
use crate::matching::keywords::literal_automaton;

#[derive(Debug)]
struct Entry {
    glob: Glob,
    matcher: OnceLock<Option<glob::Matcher>>,
}

#[derive(Debug, Default)]
pub(crate) struct GlobIndex {
    entries: Vec<Entry>,
    /// The distinct literals, by slot in `keyed`.
    literals: Vec<String>,
    /// Built on first use: a prompt event never matches a path.
    automaton: OnceLock<Option<AhoCorasick>>,
    /// For each distinct literal, the globs keyed by it.
    keyed: Vec<Vec<usize>>,
    /// Globs with no literal run (`*`, `**/*`): always tried.
    unkeyed: Vec<usize>,
}

impl Clone for GlobIndex {
    fn clone(&self) -> Self {
        GlobIndex::new(self.entries.iter().map(|e| e.glob.clone()).collect())
    }
}

impl GlobIndex {
    /// Indexes parsed globs; glob ids are positions in `globs`.
    pub(crate) fn new(globs: Vec<Glob>) -> GlobIndex {
        let mut literal_ids: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        let mut keyed: Vec<Vec<usize>> = Vec::new();
        let mut unkeyed = Vec::new();
        for (id, glob) in globs.iter().enumerate() {
            match required_literal(glob.glob()) {
                Some(literal) => {
                    let next = keyed.len();
                    let slot = *literal_ids.entry(literal).or_insert(next);
                    if slot == next {
                        keyed.push(Vec::new());
                    }
                    keyed[slot].push(id);
                }
                None => unkeyed.push(id),
            }
        }
        let mut literals: Vec<(String, usize)> = literal_ids.into_iter().collect();
        literals.sort_by_key(|(_, slot)| *slot);
        let literals = literals.into_iter().map(|(literal, _)| literal).collect();
        let entries = globs
            .into_iter()
            .map(|glob| Entry {
                glob,
                matcher: OnceLock::new(),
            })
            .collect();
        GlobIndex {
            entries,
            literals,
            automaton: OnceLock::new(),
            keyed,
            unkeyed,
        }
    }

    /// The ids of the globs matching `path`, ascending. The second list
    /// holds globs whose matcher could not be compiled (a regex too large).
    pub(crate) fn matches(&self, path: &str) -> (Vec<usize>, Vec<usize>) {
        let mut candidates: Vec<usize> = self.unkeyed.clone();
        let automaton = self
            .automaton
            .get_or_init(|| (!self.literals.is_empty()).then(|| literal_automaton(&self.literals)));
        if let Some(automaton) = automaton {
            for hit in automaton.find_overlapping_iter(path) {
                candidates.extend_from_slice(&self.keyed[hit.pattern().as_usize()]);
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut matched = Vec::new();
        let mut failed = Vec::new();
        for id in candidates {
            let entry = &self.entries[id];
            match entry.matcher.get_or_init(|| compile(&entry.glob)) {
                Some(matcher) if matcher.is_match(path) => matched.push(id),
                Some(_) => {}
                None => failed.push(id),
            }
        }
        (matched, failed)
    }
}

impl GlobIndex {
    /// Whether some glob matches `path`, or could not be compiled (which
    /// its owner reports when reached): [`GlobIndex::matches`] without
    /// collecting, for a check of many paths that keeps few.
    pub(crate) fn reaches(&self, path: &str) -> bool {
        let tried = |id: &usize| {
            let entry = &self.entries[*id];
            entry
                .matcher
                .get_or_init(|| compile(&entry.glob))
                .as_ref()
                .is_none_or(|matcher| matcher.is_match(path))
        };
        if self.unkeyed.iter().any(tried) {
            return true;
        }
        let automaton = self
            .automaton
            .get_or_init(|| (!self.literals.is_empty()).then(|| literal_automaton(&self.literals)));
        automaton.as_ref().is_some_and(|automaton| {
            automaton
                .find_overlapping_iter(path)
                .any(|hit| self.keyed[hit.pattern().as_usize()].iter().any(tried))
        })
    }
}

/// One glob's matcher: unlike `Glob::compile_matcher`, building it reports
/// a regex the engine refuses (too large) as `None` instead of panicking.
fn compile(glob: &Glob) -> Option<glob::Matcher> {
    glob::matcher(glob)
}

/// The longest run of literal characters every path matching the glob
/// (globset syntax, as translated) must contain. Runs are broken by `*`,
/// `?`, classes and alternations; a `/` next to `**` may be absent (`**/x`
/// matches `x`), so it is left out too.
fn required_literal(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut runs: Vec<String> = Vec::new();
    let mut run = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() => {
                run.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '*' if chars.get(i + 1) == Some(&'*') => {
                if run.ends_with('/') {
                    run.pop();
                }
                runs.push(std::mem::take(&mut run));
                i += 2;
                if chars.get(i) == Some(&'/') {
                    i += 1;
                }
                continue;
            }
            '*' | '?' => runs.push(std::mem::take(&mut run)),
            '[' | '{' => {
                runs.push(std::mem::take(&mut run));
                i = closing(&chars, i) + 1;
                continue;
            }
            _ => run.push(c),
        }
        i += 1;
    }
    runs.push(run);
    runs.into_iter()
        .filter(|r| !r.is_empty())
        .max_by_key(std::string::String::len)
}

/// The index of the bracket closing the class or alternation opened at
/// `open` (the end of the pattern when it never closes).
fn closing(chars: &[char], open: usize) -> usize {
    let (opener, close) = if chars[open] == '[' {
        ('[', ']')
    } else {
        ('{', '}')
    };
    let mut j = open + 1;
    // In a class, a leading negation and a `]` right after `[` are content.
    if opener == '[' && matches!(chars.get(j), Some('!' | '^')) {
        j += 1;
    }
    if opener == '[' && chars.get(j) == Some(&']') {
        j += 1;
    }
    let mut depth = 1;
    while j < chars.len() {
        if chars[j] == '\\' {
            j += 1;
        } else if opener == '{' && chars[j] == '{' {
            depth += 1;
        } else if chars[j] == close {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
        j += 1;
    }
    chars.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use globset::GlobBuilder;

    fn glob(pattern: &str) -> Glob {
        GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .unwrap()
    }

    #[test]
    fn literal_runs() {
        assert_eq!(
            required_literal("src/mod7/**/*.ts").as_deref(),
            Some("src/mod7")
        );
        assert_eq!(
            required_literal("**/*_7.test.ts").as_deref(),
            Some("_7.test.ts")
        );
        assert_eq!(required_literal("**/Makefile").as_deref(), Some("Makefile"));
        assert_eq!(required_literal("ab/**/b").as_deref(), Some("ab"));
        assert_eq!(required_literal("**/**/**").as_deref(), None);
        assert_eq!(required_literal("**/*").as_deref(), None);
        assert_eq!(
            required_literal("**/a\\{b\\}.ts").as_deref(),
            Some("a{b}.ts")
        );
        assert_eq!(
            required_literal("src/[ab]cdef.ts").as_deref(),
            Some("cdef.ts")
        );
        assert_eq!(
            required_literal("src/{alpha,beta}.ts").as_deref(),
            Some("src/")
        );
        assert_eq!(required_literal("x/[]]yz").as_deref(), Some("yz"));
    }

    #[test]
    fn matches_agree_with_globset() {
        let patterns = [
            "src/mod7/**/*.ts",
            "**/*_7.test.ts",
            "**/*",
            "**/Makefile",
            "a/**/b",
            "src/{alpha,beta}.ts",
            "src/[ab]c.ts",
            "db/**",
            "**/*.md",
        ];
        let paths = [
            "src/mod7/x/y.ts",
            "src/mod7/y.ts",
            "src/mod70/y.ts",
            "lib/a_7.test.ts",
            "a_7.test.ts",
            "Makefile",
            "sub/Makefile",
            "a/b",
            "a/x/y/b",
            "src/alpha.ts",
            "src/gamma.ts",
            "src/bc.ts",
            "db",
            "db/x.sql",
            "README.md",
            "docs/a/b.md",
        ];
        let index = GlobIndex::new(patterns.iter().map(|p| glob(p)).collect());
        for path in paths {
            let expected: Vec<usize> = patterns
                .iter()
                .enumerate()
                .filter(|(_, p)| glob(p).compile_matcher().is_match(path))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(index.matches(path).0, expected, "{path}");
        }
    }

    /// Random globs and paths: the literal prefilter never drops a match.
    #[test]
    fn prefilter_never_loses_a_match() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % n
        };
        let glob_parts = [
            "src", "a", "b", "*", "**", "*.ts", "a?", "[ab]", "{x,y}", "x*y", "\\{z\\}", ".md",
            "db",
        ];
        let path_parts = [
            "src", "a", "b", "x", "y", "c.ts", "ab", "xy", "{z}", "r.md", "db", "aa.ts", "q",
        ];
        for _ in 0..150 {
            let patterns: Vec<String> = (0..8)
                .map(|_| {
                    (0..1 + next(4))
                        .map(|_| glob_parts[next(glob_parts.len())])
                        .collect::<Vec<_>>()
                        .join("/")
                })
                .filter(|p| {
                    GlobBuilder::new(p)
                        .literal_separator(true)
                        .backslash_escape(true)
                        .build()
                        .is_ok()
                })
                .collect();
            let index = GlobIndex::new(patterns.iter().map(|p| glob(p)).collect());
            let matchers: Vec<_> = patterns.iter().map(|p| glob(p).compile_matcher()).collect();
            for _ in 0..20 {
                let path = (0..1 + next(4))
                    .map(|_| path_parts[next(path_parts.len())])
                    .collect::<Vec<_>>()
                    .join("/");
                let expected: Vec<usize> = matchers
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| m.is_match(&path))
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(
                    index.matches(&path).0,
                    expected,
                    "{path} against {patterns:?}"
                );
            }
        }
    }
}
