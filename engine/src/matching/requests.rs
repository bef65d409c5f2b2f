//! The two ways a rule reaches the model besides its triggers (behaviour
//! §9): the requestable rules the index offers and the model asks for by
//! reading their files, and the rules a prompt mentions by name.

use foldhash::HashMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::base::packed::Packed;
use crate::base::{paths, text};
use crate::matching::mentions::{looks_like_a_rule, mentions_in, stem, MentionNames, Resolution};
use crate::rules::reach;
use crate::rules::rule::Rule;

/// A rule the index offers: its name, its file, what it is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Requestable {
    /// The rule's name.
    pub name: String,
    /// Its file, as discovery found it (absolute).
    #[serde(skip)]
    pub path: String,
    /// Its file relative to the project root, as the index shows it.
    pub file: String,
    /// Its description, whitespace folded.
    pub description: String,
}

/// A mention the prompt holds that names no one rule, for `explain`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct MentionHint {
    /// The mention as written, with its `@`.
    pub mention: String,
    /// The rules it could mean when it is ambiguous; empty when no rule
    /// has that name.
    pub candidates: Vec<String>,
    /// For a mention naming no rule, the shortest mention of the rule
    /// whose name is nearest (a small edit distance), when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nearest: Option<String>,
}

/// The rules a prompt mentions, and the mentions that name no one rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Mentioned {
    /// (rule place in name order, the mentions naming it with their `@`).
    pub rules: Vec<(usize, Vec<String>)>,
    /// Ambiguous mentions, and unknown ones that look like rule names.
    pub hints: Vec<MentionHint>,
}

/// Every requestable rule, and every rule's names for mentions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Requests {
    listed: Vec<Requestable>,
    /// A requestable rule's file, normalised, to its place in `listed`.
    by_path: HashMap<String, usize>,
    /// Built at the first prompt holding an `@`: most events never need it.
    names: OnceLock<MentionNames>,
    /// Every rule's name, in name order, in one buffer: one allocation,
    /// not one per rule.
    all: Packed,
    /// The project root reads are relative to; none, no read names a rule.
    root: Option<String>,
}

/// What the native project cache keeps of [`Requests`]: each requestable
/// rule's name, file and description, and every rule's name. The rest is
/// made again when read back; the project's root is set after, by
/// [`Requests::at_root`], as for a build.
#[derive(Serialize, Deserialize)]
struct Kept<S, P> {
    listed: Vec<(S, S, S)>,
    all: P,
}

impl Serialize for Requests {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let listed = self.listed.iter();
        Kept {
            listed: listed
                .map(|r| (r.name.as_str(), r.path.as_str(), r.description.as_str()))
                .collect(),
            all: &self.all,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Requests {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let kept = Kept::<String, Packed>::deserialize(deserializer)?;
        let listed = kept.listed.into_iter();
        let listed = listed
            .map(|(name, path, description)| Requestable {
                name,
                file: path.clone(),
                path,
                description,
            })
            .collect();
        Ok(Requests::of(listed, kept.all))
    }
}

impl Requests {
    /// Over `rules` in name order.
    pub(crate) fn new(rules: &[Rule]) -> Requests {
        let listed: Vec<Requestable> = rules
            .iter()
            .filter(|rule| reach::is_requestable(rule))
            .map(|rule| Requestable {
                name: rule.name.clone(),
                path: rule.path.clone(),
                file: rule.path.clone(),
                description: reach::description(rule).unwrap_or_default(),
            })
            .collect();
        Requests::of(listed, rules.iter().map(|r| r.name.as_str()).collect())
    }

    /// Over the requestable rules and every rule's name.
    fn of(listed: Vec<Requestable>, all: Packed) -> Requests {
        let by_path = listed
            .iter()
            .enumerate()
            .map(|(at, r)| (paths::normalize_lexically(&r.path), at))
            .collect();
        Requests {
            listed,
            by_path,
            names: OnceLock::new(),
            all,
            root: None,
        }
    }

    /// How many rules' names it holds.
    pub(crate) fn len(&self) -> usize {
        self.all.len()
    }

    /// The same, for a project at `root`: reads are relative to it.
    pub(crate) fn at_root(mut self, root: &str) -> Requests {
        for rule in &mut self.listed {
            if let Some(inside) = paths::strip_base(&rule.path, root) {
                rule.file = inside.to_string();
            }
        }
        self.root = Some(root.to_string());
        self
    }

    /// The name of the rule at `place` in name order.
    pub(crate) fn name(&self, place: usize) -> &str {
        self.all.get(place)
    }

    /// The requestable rules, in name order.
    pub(crate) fn listed(&self) -> &[Requestable] {
        &self.listed
    }

    /// The requestable rules whose files `read` (paths relative to the
    /// project root) names, in the order read, each once, with the path
    /// that named it.
    pub(crate) fn read<S: AsRef<str>>(&self, read: &[S]) -> Vec<(&Requestable, String)> {
        let Some(root) = self.root.as_deref() else {
            return Vec::new();
        };
        let mut out: Vec<(&Requestable, String)> = Vec::new();
        for path in read {
            let path = paths::normalize_for_match(path.as_ref());
            let file = paths::normalize_lexically(&paths::join(root, &path));
            if let Some(&at) = self.by_path.get(&file) {
                let rule = &self.listed[at];
                if !out.iter().any(|(r, _)| r.name == rule.name) {
                    out.push((rule, path));
                }
            }
        }
        out
    }

    /// Every rule's names for mentions, built on first use.
    fn names(&self) -> &MentionNames {
        self.names
            .get_or_init(|| MentionNames::new(self.all.iter()))
    }

    /// What a mention (without its `@`) names.
    pub(crate) fn resolve(&self, mention: &str) -> Resolution {
        self.names().resolve(mention)
    }

    /// The shortest mention naming the rule at `place` (in name order), with
    /// its `@`: the stem's shortest tail that names no other rule, else the
    /// whole name.
    pub(crate) fn shortest_mention(&self, place: usize) -> String {
        let name = self.all.get(place);
        let whole = stem(name);
        let mut tails: Vec<&str> = whole
            .match_indices('/')
            .map(|(at, _)| &whole[at + 1..])
            .collect();
        tails.reverse();
        tails.push(whole);
        let found = tails
            .into_iter()
            .filter(|tail| !tail.is_empty())
            .find(|tail| self.resolve(tail) == Resolution::Rule(place));
        format!("@{}", found.unwrap_or(name))
    }

    /// The shortest mention of the rule whose name, or its last part, is
    /// nearest to `mention`, each without its extension.
    fn nearest(&self, mention: &str) -> Option<String> {
        let asked = stem(mention);
        let mut forms: Vec<(&str, usize)> = Vec::with_capacity(2 * self.all.len());
        for (place, name) in self.all.iter().enumerate() {
            let whole = stem(name);
            forms.push((whole, place));
            if let Some((_, last)) = whole.rsplit_once('/') {
                forms.push((last, place));
            }
        }
        let near = text::closest(asked, forms.iter().map(|(form, _)| *form))?;
        let place = forms.iter().find(|(form, _)| *form == near)?.1;
        Some(self.shortest_mention(place))
    }

    /// The rules `prompt` mentions, in name order, each with the mentions
    /// naming it; the ambiguous mentions and the unknown ones that look
    /// like rule names, in prompt order.
    pub(crate) fn mentioned(&self, prompt: &str) -> Mentioned {
        if !prompt.contains('@') {
            return Mentioned::default();
        }
        let mut by_rule: Vec<(usize, Vec<String>)> = Vec::new();
        let mut hints = Vec::new();
        let names = self.names();
        for mention in mentions_in(prompt) {
            let written = format!("@{mention}");
            match names.resolve(mention) {
                Resolution::Rule(place) => match by_rule.iter_mut().find(|(p, _)| *p == place) {
                    Some((_, mentions)) => mentions.push(written),
                    None => by_rule.push((place, vec![written])),
                },
                Resolution::Ambiguous(places) => hints.push(MentionHint {
                    mention: written,
                    candidates: places
                        .iter()
                        .map(|&p| self.all.get(p).to_string())
                        .collect(),
                    nearest: None,
                }),
                Resolution::Unknown => {
                    // A plain word (`@john`) is told only when it is near a
                    // rule's name: it may be a person or a package.
                    let nearest = self.nearest(mention);
                    if nearest.is_some() || looks_like_a_rule(mention) {
                        hints.push(MentionHint {
                            mention: written,
                            candidates: Vec::new(),
                            nearest,
                        });
                    }
                }
            }
        }
        by_rule.sort_by_key(|(place, _)| *place);
        Mentioned {
            rules: by_rule,
            hints,
        }
    }
}

/// How many words of one shell command are looked at as paths.
const COMMAND_WORDS: usize = 10_000;

/// The project-relative paths a shell command names (behaviour §9.2):
/// its words, split at blanks, quotes and the shell's operators
/// (`;|&<>()` and backquotes) and at `=`, that hold a `.` or a `/`,
/// taken relative to `cwd` (the directory the command ran in, absolute)
/// and kept when they lie inside `root`. `cat .cursor/rules/a.mdc`,
/// `sed -n 1,80p "./.cursor/rules/a.mdc"` and `nl -ba /p/.cursor/rules/a.mdc`
/// all name `.cursor/rules/a.mdc`. A command that changes directory
/// first (`cd .cursor/rules && cat a.mdc`) is not followed.
///
/// ```
/// use rule_fairy_engine::paths_in_command;
/// assert_eq!(
///     paths_in_command("/p", "/p/src", "sed -n 1,80p ../.cursor/rules/a.mdc | head"),
///     vec![".cursor/rules/a.mdc"]
/// );
/// assert!(paths_in_command("/p", "/p", "cat /etc/passwd").is_empty());
/// ```
pub fn paths_in_command(root: &str, cwd: &str, command: &str) -> Vec<String> {
    let separator = |c: char| {
        c.is_whitespace()
            || matches!(
                c,
                ';' | '|' | '&' | '<' | '>' | '(' | ')' | '`' | '\'' | '"' | '='
            )
    };
    let mut found: Vec<String> = Vec::new();
    for word in command
        .split(separator)
        .filter(|w| w.contains(['.', '/']))
        .take(COMMAND_WORDS)
    {
        let absolute = paths::normalize_lexically(&paths::join(cwd, word));
        let Some(inside) = paths::strip_base(&absolute, root) else {
            continue;
        };
        let relative = paths::normalize_for_match(inside.trim_start_matches('/'));
        if !relative.is_empty() && !found.contains(&relative) {
            found.push(relative);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Vec<Rule> {
        [
            ("a.mdc", "---\nalwaysApply: true\n---\n# A"),
            (
                "ops/release.mdc",
                "---\ndescription: Before a release\n---\n# R",
            ),
            ("web/x.mdc", "# manual"),
            ("api/x.mdc", "# manual too"),
        ]
        .iter()
        .map(|(name, text)| Rule::parse(name, &format!("/p/.cursor/rules/{name}"), text))
        .collect()
    }

    #[test]
    fn requestable_rules_are_found_by_their_files() {
        let requests = Requests::new(&rules());
        assert!(requests.read(&[".cursor/rules/ops/release.mdc"]).is_empty());
        let requests = requests.at_root("/p");
        assert_eq!(requests.listed().len(), 1);
        let read = requests.read(&["./.cursor/rules/ops/release.mdc", "src/a.ts"]);
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].0.name, "ops/release.mdc");
        assert_eq!(read[0].1, ".cursor/rules/ops/release.mdc");
        assert!(requests.read(&[".cursor/rules/a.mdc"]).is_empty());
    }

    #[test]
    fn commands_name_paths_in_the_project() {
        assert_eq!(
            paths_in_command("/p", "/p", "cat .cursor/rules/ops/release.mdc"),
            vec![".cursor/rules/ops/release.mdc"]
        );
        assert_eq!(
            paths_in_command(
                "/p",
                "/p/.cursor",
                "nl -ba 'rules/a.mdc' && cat /p/b.md;echo x.y>/dev/null"
            ),
            vec![".cursor/rules/a.mdc", "b.md", ".cursor/x.y"]
        );
        assert!(paths_in_command("/p", "/p", "ls").is_empty());
        let huge = "cat a.b ".repeat(100_000);
        assert_eq!(paths_in_command("/p", "/p", &huge), vec!["a.b"]);
    }

    #[test]
    fn mentions_name_rules_and_hint_at_the_rest() {
        let requests = Requests::new(&rules());
        let found = requests.mentioned("@release and @ops/release.mdc, @x, @gone-rule, @Override");
        assert_eq!(
            found.rules,
            vec![(
                1,
                vec!["@release".to_string(), "@ops/release.mdc".to_string()]
            )]
        );
        assert_eq!(
            found.hints,
            vec![
                MentionHint {
                    mention: "@x".into(),
                    candidates: vec!["web/x.mdc".into(), "api/x.mdc".into()],
                    nearest: None,
                },
                MentionHint {
                    mention: "@gone-rule".into(),
                    candidates: vec![],
                    nearest: None,
                }
            ]
        );
    }

    #[test]
    fn a_mention_naming_no_rule_is_told_the_nearest_rule() {
        let requests = Requests::new(&rules());
        let hints = requests.mentioned("@relase, @web/y.mdc, @john").hints;
        let told: Vec<(&str, Option<&str>)> = hints
            .iter()
            .map(|h| (h.mention.as_str(), h.nearest.as_deref()))
            .collect();
        // A plain word near no rule (`@john`) is not a hint at all.
        assert_eq!(
            told,
            vec![
                ("@relase", Some("@release")),
                ("@web/y.mdc", Some("@web/x"))
            ]
        );
    }

    #[test]
    fn the_shortest_mention_names_the_rule_alone() {
        let requests = Requests::new(&rules());
        assert_eq!(requests.shortest_mention(1), "@release");
        // `x` names two rules: the directory is needed.
        assert_eq!(requests.shortest_mention(2), "@web/x");
        assert_eq!(requests.resolve("api/x"), Resolution::Rule(3));
    }
}
