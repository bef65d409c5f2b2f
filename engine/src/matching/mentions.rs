//! `@<rule name>` in a prompt (behaviour §9.3): where a mention is, and
//! which rule it names. A rule is named by its name, with or without its
//! extension, and with as much of its directory as makes it unambiguous
//! (`@release-checklist`, `@ops/release-checklist`,
//! `@ops/release-checklist.mdc`).

use std::collections::HashSet;

use foldhash::HashMap;

/// How many distinct mentions one prompt is read for; a prompt of more
/// `@` words than this (a pasted log, a list of decorators) names its
/// rules in the first ones, and the rest cost nothing.
pub(crate) const MENTIONS_READ: usize = 1_000;

/// What one mention names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Resolution {
    /// Exactly one rule, by its place in name order.
    Rule(usize),
    /// Several rules share the name at the closest level; their places.
    Ambiguous(Vec<usize>),
    /// No rule has that name.
    Unknown,
}

/// Every name each rule answers to, looked up exactly, then without case.
#[derive(Debug, Clone, Default)]
pub(crate) struct MentionNames {
    /// Name form to (rule place, level): level 0 is the whole name with or
    /// without its extension, level 1 a shorter tail of it.
    exact: HashMap<String, Vec<(usize, u8)>>,
    folded: HashMap<String, Vec<(usize, u8)>>,
}

/// The name without its file extension: `ops/a.mdc` is `ops/a`, Copilot's
/// `x.instructions.md` is `x`, and Cursor's folder form `ui/RULE.md` is
/// `ui`.
pub(crate) fn stem(name: &str) -> &str {
    let file_at = name.rfind('/').map_or(0, |at| at + 1);
    let file = &name[file_at..];
    if file.eq_ignore_ascii_case("rule.md") && file_at > 0 {
        return &name[..file_at - 1];
    }
    let base = match file.rfind('.') {
        Some(at) if at > 0 => &name[..file_at + at],
        _ => name,
    };
    match base.strip_suffix(".instructions") {
        Some(rest) if rest.len() > file_at => rest,
        _ => base,
    }
}

impl MentionNames {
    /// The names of `rules` (in name order).
    pub(crate) fn new<'a>(rules: impl IntoIterator<Item = &'a str>) -> MentionNames {
        let mut names = MentionNames::default();
        for (place, name) in rules.into_iter().enumerate() {
            let mut forms: Vec<(String, u8)> = Vec::new();
            for whole in [name, stem(name)] {
                forms.push((whole.to_string(), 0));
                // Each shorter tail, cut at a `/`.
                let mut rest = whole;
                while let Some(at) = rest.find('/') {
                    rest = &rest[at + 1..];
                    if !rest.is_empty() {
                        forms.push((rest.to_string(), 1));
                    }
                }
            }
            let mut seen = HashSet::new();
            for (form, level) in forms {
                if form.is_empty() || !seen.insert(form.clone()) {
                    continue;
                }
                names
                    .folded
                    .entry(form.to_lowercase())
                    .or_default()
                    .push((place, level));
                names.exact.entry(form).or_default().push((place, level));
            }
        }
        names
    }

    /// What `mention` (without its `@`) names: exact names first, then
    /// names without regard to case; at each, the closest level decides.
    pub(crate) fn resolve(&self, mention: &str) -> Resolution {
        let found = self
            .exact
            .get(mention)
            .or_else(|| self.folded.get(&mention.to_lowercase()));
        let Some(candidates) = found else {
            return Resolution::Unknown;
        };
        let level = candidates.iter().map(|(_, l)| *l).min().unwrap_or(0);
        let mut places: Vec<usize> = candidates
            .iter()
            .filter(|(_, l)| *l == level)
            .map(|(p, _)| *p)
            .collect();
        places.sort_unstable();
        places.dedup();
        match places.as_slice() {
            [one] => Resolution::Rule(*one),
            _ => Resolution::Ambiguous(places),
        }
    }
}

/// A character a rule name mention may hold.
fn in_name(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

/// The distinct mentions of a prompt, in order, without their `@`, at
/// most [`MENTIONS_READ`]: an `@` at the start or after a character that
/// cannot be part of a word or an address (so `a@b.com` is no mention),
/// then the longest run of letters, digits, `_`, `-`, `.` and `/`, less
/// the `.` or `/` ending a sentence.
pub(crate) fn mentions_in(prompt: &str) -> Vec<&str> {
    let mut found: Vec<&str> = Vec::new();
    let mut seen = HashSet::new();
    let mut before: Option<char> = None;
    let mut chars = prompt.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let opens = c == '@' && !before.is_some_and(|b| in_name(b) || b == '@');
        before = Some(c);
        if !opens {
            continue;
        }
        let start = at + 1;
        let mut end = start;
        while let Some(&(next_at, next)) = chars.peek() {
            if !in_name(next) {
                break;
            }
            end = next_at + next.len_utf8();
            before = Some(next);
            chars.next();
        }
        let name = prompt[start..end].trim_end_matches(['.', '/']);
        if !name.is_empty() && seen.insert(name) {
            found.push(name);
            if found.len() == MENTIONS_READ {
                break;
            }
        }
    }
    found
}

/// Whether an unknown mention looks like a rule name, so `explain` hints
/// at it: it holds a `/`, a `.` or a `-`, as rule names do and Java
/// annotations, Python decorators and handles mostly do not.
pub(crate) fn looks_like_a_rule(mention: &str) -> bool {
    mention.contains(['/', '.', '-'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> MentionNames {
        MentionNames::new([
            "ops/release-checklist.mdc",
            "style.mdc",
            "web/style.mdc",
            "x.instructions.md",
            "ui/RULE.md",
        ])
    }

    #[test]
    fn a_rule_is_named_with_or_without_its_extension_and_directory() {
        let names = names();
        for mention in [
            "release-checklist",
            "ops/release-checklist",
            "ops/release-checklist.mdc",
            "release-checklist.mdc",
            "Release-Checklist",
        ] {
            assert_eq!(names.resolve(mention), Resolution::Rule(0), "{mention}");
        }
        assert_eq!(names.resolve("x"), Resolution::Rule(3));
        assert_eq!(names.resolve("ui"), Resolution::Rule(4));
        assert_eq!(names.resolve("nothing"), Resolution::Unknown);
    }

    #[test]
    fn the_whole_name_wins_over_a_tail_and_two_tails_are_ambiguous() {
        let names = MentionNames::new(["style.mdc", "web/style.mdc", "a/x.mdc", "b/x.mdc"]);
        assert_eq!(names.resolve("style"), Resolution::Rule(0));
        assert_eq!(names.resolve("web/style"), Resolution::Rule(1));
        assert_eq!(names.resolve("x"), Resolution::Ambiguous(vec![2, 3]));
    }

    #[test]
    fn mentions_are_found_where_a_name_may_start() {
        assert_eq!(
            mentions_in("Use the @release-checklist rule, then @ops/a.mdc. Mail a@b.com (@x)"),
            vec!["release-checklist", "ops/a.mdc", "x"]
        );
        assert_eq!(mentions_in("@a @a @@b @"), vec!["a"]);
        assert_eq!(mentions_in("@über-regel"), vec!["über-regel"]);
    }

    #[test]
    fn ten_thousand_mentions_read_the_first_thousand() {
        let prompt: String = (0..10_000).map(|i| format!("@w{i} ")).collect();
        let found = mentions_in(&prompt);
        assert_eq!(found.len(), MENTIONS_READ);
        assert_eq!(found[0], "w0");
    }

    #[test]
    fn stems() {
        assert_eq!(stem("a/b.mdc"), "a/b");
        assert_eq!(stem("b"), "b");
        assert_eq!(stem(".hidden"), ".hidden");
        assert_eq!(stem("a.b/c"), "a.b/c");
        assert_eq!(stem("x.instructions.md"), "x");
        assert_eq!(stem("RULE.md"), "RULE");
        assert!(looks_like_a_rule("ops/x") && !looks_like_a_rule("Override"));
    }
}
