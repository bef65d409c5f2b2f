//! A rule's conditions compiled once per rule set and judged against an
//! event's facts; what `explain` says of each.

use serde::{Deserialize, Serialize};

use crate::matching::facts::Facts;
use crate::rules::conditions::{Conditions, Declared};

/// Whether a branch matches a `branch` value: exactly, or as a glob when
/// the value has glob characters (`*` never crosses `/`).
#[cfg(test)]
pub(crate) fn branch_matches(pattern: &str, branch: &str) -> bool {
    if pattern == branch {
        return true;
    }
    if !pattern.contains(['*', '?', '[', '{']) {
        return false;
    }
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .is_ok_and(|glob| glob.compile_matcher().is_match(branch))
}

/// A condition a rule can declare, as `explain` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum Dimension {
    #[serde(rename = "alwaysApply")]
    AlwaysApply,
    #[serde(rename = "keyword")]
    Keyword,
    #[serde(rename = "glob")]
    Glob,
    #[serde(rename = "fileContains")]
    FileContains,
    #[serde(rename = "command")]
    Command,
    #[serde(rename = "project")]
    Project,
    #[serde(rename = "os")]
    Os,
    #[serde(rename = "ci")]
    Ci,
    #[serde(rename = "branch")]
    Branch,
    #[serde(rename = "model")]
    Model,
    #[serde(rename = "agent")]
    Agent,
    #[serde(rename = "tools")]
    Tools,
}

/// What the rule wanted of a fact, what the fact was, and whether it held.
/// Read back by the playground's `describeCondition`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Outcome {
    /// Which condition: `os`, `branch`, `tools` and the like.
    pub kind: Dimension,
    /// Whether it held.
    pub held: bool,
    /// The values the rule declared (for `ci`, `true` or `false`).
    pub wanted: Vec<String>,
    /// The fact tested; `None` when the host could not tell.
    pub actual: Option<Vec<String>>,
}

/// A fact value a rule's condition can hold under (see
/// [`Compiled::each_fact_key`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FactKey<'a> {
    /// The fact of this kind (one of the event's, for lists) equals it.
    Value(Dimension, &'a str),
    /// `ci` is known and is this.
    Ci(bool),
    /// A branch glob: any known branch may match it.
    AnyBranch,
}

/// A branch value, compiled once.
#[derive(Debug, Clone)]
enum BranchPattern {
    Exact(String),
    Glob(String, globset::GlobSet),
}

/// A rule's conditions compiled for matching: branch globs built once per
/// rule set (`fileContains` patterns are compiled together, for every rule,
/// in [`crate::matching::content_index::ContentIndex`]).
///
/// Kept in the native project cache as its conditions, and compiled again
/// when read back.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(from = "Conditions", into = "Conditions")]
pub struct Compiled {
    pub conditions: Conditions,
    branch: Vec<BranchPattern>,
}

impl From<Conditions> for Compiled {
    fn from(conditions: Conditions) -> Compiled {
        Compiled::new(&conditions)
    }
}

impl From<Compiled> for Conditions {
    fn from(compiled: Compiled) -> Conditions {
        compiled.conditions
    }
}

impl Compiled {
    /// A rule's that declares no condition.
    pub(crate) const NONE: Compiled = Compiled {
        conditions: Conditions::NONE,
        branch: Vec::new(),
    };

    pub fn new(conditions: &Conditions) -> Compiled {
        let branch = conditions
            .branch
            .values
            .iter()
            .map(|pattern| {
                let is_glob = pattern.contains(['*', '?', '[', '{'])
                    && pattern.chars().count() <= crate::matching::glob::MAX_GLOB_CHARS;
                let glob = is_glob.then(|| {
                    // Built as a set: a glob whose regex is too large is then
                    // an error (the value matches as written) where
                    // `compile_matcher` would panic.
                    globset::GlobBuilder::new(pattern)
                        .literal_separator(true)
                        .build()
                        .ok()
                        .and_then(|g| globset::GlobSetBuilder::new().add(g).build().ok())
                });
                match glob.flatten() {
                    Some(matcher) => BranchPattern::Glob(pattern.clone(), matcher),
                    None => BranchPattern::Exact(pattern.clone()),
                }
            })
            .collect();
        Compiled {
            conditions: conditions.clone(),
            branch,
        }
    }

    pub fn has_file_contains(&self) -> bool {
        self.conditions.file_contains.is_declared()
    }

    /// Calls `out` with every declared condition that is not about the
    /// event's paths or prompt terms, and whether it holds.
    pub fn each_fact_condition(
        &self,
        facts: &Facts,
        command: Option<&str>,
        out: &mut impl FnMut(Dimension, bool),
    ) {
        let c = &self.conditions;
        let one_of = |declared: &Declared, actual: Option<&str>| {
            actual.is_some_and(|a| declared.values.iter().any(|v| v == a))
        };
        let any_common = |declared: &Declared, actual: Option<&Vec<String>>| {
            actual.is_some_and(|a| declared.values.iter().any(|v| a.contains(v)))
        };
        if c.command.is_declared() {
            out(Dimension::Command, one_of(&c.command, command));
        }
        if c.project.is_declared() {
            out(
                Dimension::Project,
                any_common(&c.project, facts.project.as_ref()),
            );
        }
        if c.os.is_declared() {
            out(Dimension::Os, one_of(&c.os, facts.os.as_deref()));
        }
        if let Some((wanted, _)) = c.ci {
            out(Dimension::Ci, facts.ci == Some(wanted));
        }
        if c.branch.is_declared() {
            out(
                Dimension::Branch,
                facts
                    .branch
                    .as_deref()
                    .is_some_and(|b| self.branch_holds(b)),
            );
        }
        if c.model.is_declared() {
            out(Dimension::Model, one_of(&c.model, facts.model.as_deref()));
        }
        if c.agent.is_declared() {
            out(Dimension::Agent, one_of(&c.agent, facts.agent.as_deref()));
        }
        if c.tools.is_declared() {
            out(Dimension::Tools, any_common(&c.tools, facts.tools.as_ref()));
        }
    }

    /// Calls `out` with every fact value under which a fact condition of
    /// the rule can hold: a condition holds only when the event's fact is
    /// one of these (or, for a branch glob, when a branch is known), so
    /// an index keyed by them finds every rule a condition could fire.
    /// Mirrors [`Compiled::each_fact_condition`].
    pub(crate) fn each_fact_key<'a>(&'a self, out: &mut impl FnMut(FactKey<'a>)) {
        let c = &self.conditions;
        let exact = [
            (Dimension::Command, &c.command),
            (Dimension::Project, &c.project),
            (Dimension::Os, &c.os),
            (Dimension::Model, &c.model),
            (Dimension::Agent, &c.agent),
            (Dimension::Tools, &c.tools),
        ];
        for (kind, declared) in exact {
            for value in &declared.values {
                out(FactKey::Value(kind, value));
            }
        }
        if let Some((wanted, _)) = c.ci {
            out(FactKey::Ci(wanted));
        }
        for pattern in &self.branch {
            match pattern {
                BranchPattern::Exact(exact) => out(FactKey::Value(Dimension::Branch, exact)),
                BranchPattern::Glob(..) => out(FactKey::AnyBranch),
            }
        }
    }

    fn branch_holds(&self, branch: &str) -> bool {
        self.branch.iter().any(|pattern| match pattern {
            BranchPattern::Exact(exact) => exact == branch,
            BranchPattern::Glob(exact, matcher) => exact == branch || matcher.is_match(branch),
        })
    }

    /// The outcomes of the fact conditions, for `explain`.
    pub fn fact_outcomes(&self, facts: &Facts, command: Option<&str>) -> Vec<Outcome> {
        let c = &self.conditions;
        let one = |v: &Option<String>| v.as_ref().map(|v| vec![v.clone()]);
        let mut outcomes = Vec::new();
        self.each_fact_condition(facts, command, &mut |kind, held| {
            let (wanted, actual) = match kind {
                Dimension::Command => (
                    c.command.values.clone(),
                    command.map(|v| vec![v.to_string()]),
                ),
                Dimension::Project => (c.project.values.clone(), facts.project.clone()),
                Dimension::Os => (c.os.values.clone(), one(&facts.os)),
                Dimension::Ci => (
                    c.ci.iter().map(|(wanted, _)| wanted.to_string()).collect(),
                    facts.ci.map(|ci| vec![ci.to_string()]),
                ),
                Dimension::Branch => (c.branch.values.clone(), one(&facts.branch)),
                Dimension::Model => (c.model.values.clone(), one(&facts.model)),
                Dimension::Agent => (c.agent.values.clone(), one(&facts.agent)),
                _ => (c.tools.values.clone(), facts.tools.clone()),
            };
            outcomes.push(Outcome {
                kind,
                held,
                wanted,
                actual,
            });
        });
        outcomes
    }
}

/// Whether a pattern uses `\p{..}`, `\P{..}` or `\pL`-style classes (an
/// escaped backslash before the `p` does not count).
fn has_property_class(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.next(), Some('p' | 'P')) {
            return true;
        }
    }
    false
}

/// Compiles a `fileContains` pattern; the error says why it is invalid.
pub(crate) fn compile_pattern(pattern: &str) -> Result<regex::Regex, String> {
    if has_property_class(pattern) {
        // The WebAssembly engine is built without Unicode's property tables
        // (they would double its size); refusing them everywhere keeps a
        // pattern meaning the same in every host.
        return Err("Unicode property classes (\\p{...}) are not supported; use a character class like [a-zA-Zà-ÿ]".to_string());
    }
    regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            e.to_string()
                .lines()
                .last()
                .unwrap_or("invalid")
                .trim()
                .to_string()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::FileSource;
    use crate::base::fs::MemoryFs;
    use crate::matching::facts::*;
    use crate::rules::conditions::*;
    use crate::syntax::frontmatter::parse;

    fn conditions(text: &str) -> Conditions {
        Conditions::from_frontmatter(parse(text).frontmatter().unwrap())
    }

    #[test]
    fn lists_as_yaml_or_comma_lines() {
        let c = conditions("---\nmodel: [\" gpt-5 \", \"\"]\nagent: build, plan\ntools:\n  - mcp_context7\nos: [macOS]\nci: false\nmatch: all\n---\n");
        assert_eq!(c.model.values, vec!["gpt-5"]);
        assert_eq!(c.agent.values, vec!["build", "plan"]);
        assert_eq!(c.tools.values, vec!["mcp_context7"]);
        assert_eq!(c.os.values, vec!["darwin"]);
        assert_eq!(c.ci, Some((false, 7)));
        assert!(c.match_all && c.is_ephemeral());
        let empty = conditions("---\nmodel: [\"\", \" \"]\nmatch: some\nci: \"maybe\"\n---\n");
        assert!(!empty.model.is_declared() && !empty.match_all && empty.ci.is_none());
        assert!(!conditions("---\nos: linux\n---\n").is_ephemeral());
        assert_eq!(
            conditions("---\ncommand: \"/plan\"\n---\n").command.values,
            vec!["/plan"]
        );
    }

    #[test]
    fn ci_detection_follows_opencode_rules() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(!ci_from_env(env(&[
            ("CI", "false"),
            ("GITHUB_ACTIONS", "true")
        ])));
        assert!(ci_from_env(env(&[("GITHUB_ACTIONS", "true")])));
        assert!(!ci_from_env(env(&[("BUILD_NUMBER", "false")])));
        assert!(ci_from_env(env(&[("CI", "1")])));
        assert!(!ci_from_env(env(&[])));
    }

    #[test]
    fn project_tags_from_marker_files() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/package.json", "{}")
            .add_file("/p/turbo.json", "{}")
            .add_file("/p/pom.xml", "<project/>");
        assert_eq!(
            project_tags(&fs, "/p"),
            vec!["java", "maven", "monorepo", "node"]
        );
        fs.add_file("/p/manifest.json", "{\"manifest_version\": 3}");
        assert!(!project_tags(&fs, "/p").contains(&"browser-extension".to_string()));
        fs.add_file(
            "/p/manifest.json",
            "{\"manifest_version\": 3, \"action\": {}}",
        );
        assert!(project_tags(&fs, "/p").contains(&"browser-extension".to_string()));
        let mut gradle = MemoryFs::new();
        gradle
            .add_file("/g/build.gradle.kts", "")
            .add_file("/g/Cargo.toml", "")
            .add_file("/g/go.mod", "")
            .add_file("/g/pyproject.toml", "");
        assert_eq!(
            project_tags(&gradle, "/g"),
            vec!["go", "gradle", "java", "python", "rust"]
        );
    }

    /// Records every path asked about, and answers from a tree.
    struct Recording {
        tree: MemoryFs,
        asked: std::cell::RefCell<Vec<String>>,
    }

    impl FileSource for Recording {
        fn read(&self, path: &str) -> std::io::Result<Vec<u8>> {
            self.asked.borrow_mut().push(path.to_string());
            self.tree.read(path)
        }
        fn list(&self, dir: &str) -> std::io::Result<Vec<String>> {
            self.asked.borrow_mut().push(dir.to_string());
            self.tree.list(dir)
        }
        fn stat(&self, path: &str) -> std::io::Result<crate::base::fs::Metadata> {
            self.asked.borrow_mut().push(path.to_string());
            self.tree.stat(path)
        }
        fn real_path(&self, path: &str) -> std::io::Result<String> {
            self.asked.borrow_mut().push(path.to_string());
            self.tree.real_path(path)
        }
    }

    #[test]
    fn project_tags_look_only_at_the_listed_markers() {
        // A host gathers exactly `project_markers()`: a marker read here but
        // missing from the list would never reach the engine.
        let mut tree = MemoryFs::new();
        for name in project_markers() {
            tree.add_file(
                &format!("/p/{name}"),
                "{\"manifest_version\": 3, \"action\": {}}",
            );
        }
        let fs = Recording {
            tree,
            asked: Default::default(),
        };
        assert_eq!(project_tags(&fs, "/p").len(), PROJECT_TAGS.len());
        let mut listed: Vec<String> = project_markers().map(|m| format!("/p/{m}")).collect();
        // Where the root really is, for the containment rule (behaviour §0.1).
        listed.push("/p".to_string());
        for path in fs.asked.borrow().iter() {
            assert!(listed.contains(path), "{path} is read but not listed");
        }
    }

    #[test]
    fn property_classes_are_refused_in_every_host() {
        assert!(compile_pattern("\\p{L}")
            .unwrap_err()
            .contains("not supported"));
        assert!(compile_pattern("x\\PL").is_err());
        assert!(
            compile_pattern("\\\\p").is_ok(),
            "an escaped backslash then p is text"
        );
        assert!(compile_pattern("(?i)école\\b")
            .unwrap()
            .is_match("UNE ÉCOLE ICI"));
        assert!(compile_pattern("\\w+").unwrap().is_match("ü"));
    }

    #[test]
    fn branches_exact_or_glob() {
        assert!(branch_matches("main", "main"));
        assert!(branch_matches("feature/*", "feature/a"));
        assert!(!branch_matches("feature/*", "feature/a/b"));
        assert!(branch_matches("release-{1,2}", "release-2"));
        assert!(!branch_matches("main", "maint"));
        assert!(!branch_matches("[", "x"));
    }
}
