//! Rule conditions beyond Cursor's, named as opencode-rules names them:
//! `fileContains`, `command`, `project`, `os`, `ci`, `branch`, `model`,
//! `agent`, `tools`, combined with a rule's globs and keywords by
//! `match: any | all`. Also the facts they are tested against, and how a
//! host's raw facts (a prompt, the environment, marker files) become them.

use serde::Serialize;

use crate::frontmatter::{FieldValue, Frontmatter};
use crate::fs::FileSource;
use crate::paths;

/// A condition value list with the line that declared it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Declared {
    pub values: Vec<String>,
    pub line: usize,
}

impl Declared {
    pub fn is_declared(&self) -> bool {
        !self.values.is_empty()
    }
}

/// The conditions a rule declares besides globs, keywords and alwaysApply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conditions {
    /// Regular expressions tested on an edited file's content.
    pub file_contains: Declared,
    /// Slash commands, `/plan`: the prompt's first word.
    pub command: Declared,
    /// Project tags from marker files: node, python, go, rust, ...
    pub project: Declared,
    pub os: Declared,
    /// `ci: true` or `ci: false`, with its line.
    pub ci: Option<(bool, usize)>,
    /// Branch names, exact or glob.
    pub branch: Declared,
    pub model: Declared,
    pub agent: Declared,
    pub tools: Declared,
    /// `match: all`: every declared condition must hold; else any.
    pub match_all: bool,
}

/// Per-turn facts: a rule that depends on one is delivered every turn it
/// holds and never recorded; every other rule is durable.
pub const EPHEMERAL_KEYS: &[&str] = &["branch", "model", "agent", "tools"];
/// The condition keys this module reads.
pub const CONDITION_KEYS: &[&str] = &[
    "fileContains",
    "keywords",
    "command",
    "project",
    "os",
    "ci",
    "branch",
    "model",
    "agent",
    "tools",
    "match",
];
/// The tags `project` knows.
pub const PROJECT_TAGS: &[&str] = &[
    "node",
    "python",
    "go",
    "rust",
    "monorepo",
    "browser-extension",
    "java",
    "gradle",
    "maven",
];

impl Conditions {
    /// Reads the condition keys of a frontmatter block. Lists are YAML
    /// sequences or comma-separated lines; `os` names are normalised.
    pub fn from_frontmatter(fm: &Frontmatter) -> Conditions {
        let declared = |key: &str| match fm.get(key) {
            Some(field) => Declared {
                values: unquoted_items(&field.value),
                line: field.line,
            },
            None => Declared::default(),
        };
        let mut os = declared("os");
        os.values = os.values.iter().map(|v| normalize_os(v)).collect();
        let ci = fm.get("ci").and_then(|field| {
            match unquoted_text(&field.value)?.to_lowercase().as_str() {
                "true" => Some((true, field.line)),
                "false" => Some((false, field.line)),
                _ => None,
            }
        });
        let match_all = fm
            .get("match")
            .and_then(|f| unquoted_text(&f.value))
            .is_some_and(|v| v.eq_ignore_ascii_case("all"));
        Conditions {
            file_contains: declared("fileContains"),
            command: declared("command"),
            project: Declared {
                values: declared("project")
                    .values
                    .iter()
                    .map(|t| t.to_lowercase())
                    .collect(),
                ..declared("project")
            },
            os,
            ci,
            branch: declared("branch"),
            model: declared("model"),
            agent: declared("agent"),
            tools: declared("tools"),
            match_all,
        }
    }

    /// Whether any condition is declared (`ci: false` counts).
    pub fn declares_any(&self) -> bool {
        [
            &self.file_contains,
            &self.command,
            &self.project,
            &self.os,
            &self.branch,
            &self.model,
            &self.agent,
            &self.tools,
        ]
        .iter()
        .any(|d| d.is_declared())
            || self.ci.is_some()
    }

    /// Whether the rule depends on a per-turn fact.
    pub fn is_ephemeral(&self) -> bool {
        self.branch.is_declared()
            || self.model.is_declared()
            || self.agent.is_declared()
            || self.tools.is_declared()
    }
}

/// A value as YAML would read it: one pair of surrounding quotes removed.
/// Condition values are new keys, so they are read the way opencode-rules
/// and every YAML tool read them, not with Cursor's raw-text dialect.
pub fn unquote(value: &str) -> &str {
    let v = value.trim();
    let quoted = v.len() >= 2
        && ((v.starts_with('"') && v.ends_with('"')) || (v.starts_with('\'') && v.ends_with('\'')));
    if quoted {
        &v[1..v.len() - 1]
    } else {
        v
    }
}

fn unquoted_items(value: &FieldValue) -> Vec<String> {
    value
        .items()
        .iter()
        .map(|item| unquote(item).to_string())
        .filter(|item| !item.is_empty())
        .collect()
}

fn unquoted_text(value: &FieldValue) -> Option<&str> {
    match value {
        FieldValue::Text(text) => Some(unquote(text)),
        FieldValue::List(_) => None,
    }
}

/// The operating system names rules use (Node's, as opencode-rules does):
/// `linux`, `darwin`, `win32`; `macos` and `windows` are accepted too.
pub fn normalize_os(os: &str) -> String {
    match os.trim().to_lowercase().as_str() {
        "macos" | "mac" | "osx" | "darwin" => "darwin".to_string(),
        "windows" | "win" | "win32" => "win32".to_string(),
        other => other.to_string(),
    }
}

/// Facts about the session and the turn that conditions are tested
/// against. `None` is an unknown fact: a condition on it does not hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Facts {
    /// The prompt's slash command; derived from the prompt when unset.
    pub command: Option<String>,
    pub project: Option<Vec<String>>,
    pub os: Option<String>,
    pub ci: Option<bool>,
    pub branch: Option<String>,
    pub model: Option<String>,
    pub agent: Option<String>,
    pub tools: Option<Vec<String>>,
}

/// The prompt's leading slash command: its first word when that starts
/// with `/` and is longer than `/` (punctuation stays, as in opencode-rules).
///
/// ```
/// use rule_fairy_engine::conditions::command_of;
/// assert_eq!(command_of("/plan implement filters").as_deref(), Some("/plan"));
/// assert_eq!(command_of("  /plan, now").as_deref(), Some("/plan,"));
/// assert_eq!(command_of("/ x"), None);
/// assert_eq!(command_of("hello"), None);
/// ```
pub fn command_of(prompt: &str) -> Option<String> {
    let word = prompt.split_whitespace().next()?;
    (word.starts_with('/') && word.len() > 1).then(|| word.to_string())
}

/// Every variable [`ci_from_env`] reads: `CI` first, which decides when
/// set, then the ones read when it is not (opencode-rules' list).
pub const CI_VARIABLES: &[&str] = &[
    "CI",
    "CONTINUOUS_INTEGRATION",
    "BUILD_NUMBER",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "CIRCLECI",
    "TRAVIS",
    "JENKINS_URL",
    "BUILDKITE",
    "TEAMCITY_VERSION",
];

/// Whether the environment is a CI run: `CI` decides when set (`""`, `0`
/// and `false` mean no); otherwise any other of [`CI_VARIABLES`].
pub fn ci_from_env(get: impl Fn(&str) -> Option<String>) -> bool {
    let truthy = |v: &str| !matches!(v.trim().to_lowercase().as_str(), "" | "0" | "false");
    let (ci, others) = CI_VARIABLES.split_first().expect("CI is listed");
    if let Some(ci) = get(ci) {
        return truthy(&ci);
    }
    others
        .iter()
        .any(|name| get(name).is_some_and(|v| truthy(&v)))
}

/// Marker files at the project root and the tag each gives, in tag order.
/// `manifest.json` is read (a browser extension's says so inside); the
/// others only have to exist. Gradle and Maven projects are Java too.
const MARKERS: &[(&str, &str)] = &[
    ("go.mod", "go"),
    ("build.gradle", "gradle"),
    ("build.gradle.kts", "gradle"),
    ("settings.gradle", "gradle"),
    ("settings.gradle.kts", "gradle"),
    ("pom.xml", "maven"),
    ("pnpm-workspace.yaml", "monorepo"),
    ("turbo.json", "monorepo"),
    ("lerna.json", "monorepo"),
    ("nx.json", "monorepo"),
    ("rush.json", "monorepo"),
    ("package.json", "node"),
    ("pyproject.toml", "python"),
    ("setup.py", "python"),
    ("setup.cfg", "python"),
    ("requirements.txt", "python"),
    ("Pipfile", "python"),
    ("Cargo.toml", "rust"),
];
const EXTENSION_MANIFEST: &str = "manifest.json";

/// Every file [`project_tags`] looks at, relative to the project root: what
/// a host that gathers files for the engine must make sure of.
///
/// ```
/// use rule_fairy_engine::conditions::project_markers;
/// let markers: Vec<&str> = project_markers().collect();
/// assert!(markers.contains(&"package.json") && markers.contains(&"manifest.json"));
/// ```
pub fn project_markers() -> impl Iterator<Item = &'static str> {
    MARKERS
        .iter()
        .map(|(file, _)| *file)
        .chain([EXTENSION_MANIFEST])
}

/// The project's tags from marker files at its root, sorted.
pub fn project_tags(fs: &dyn FileSource, root: &str) -> Vec<String> {
    let marked = |tag: &str| {
        MARKERS
            .iter()
            .any(|(file, of)| *of == tag && fs.is_file(&paths::join(root, file)))
    };
    let mut tags = Vec::new();
    for tag in SORTED_TAGS {
        let found = match tag {
            "browser-extension" => is_browser_extension(fs, root),
            "java" => marked("gradle") || marked("maven"),
            _ => marked(tag),
        };
        if found {
            tags.push(tag.to_string());
        }
    }
    tags
}

/// [`PROJECT_TAGS`] in the order tags are listed in.
const SORTED_TAGS: [&str; 9] = [
    "browser-extension",
    "go",
    "gradle",
    "java",
    "maven",
    "monorepo",
    "node",
    "python",
    "rust",
];

/// A `manifest.json` of version 2 or 3 with at least one key only browser
/// extensions have (a web app manifest has neither).
fn is_browser_extension(fs: &dyn FileSource, root: &str) -> bool {
    let Ok(bytes) = fs.read(&paths::join(root, EXTENSION_MANIFEST)) else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return false;
    };
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let version =
        compact.contains("\"manifest_version\":2") || compact.contains("\"manifest_version\":3");
    let keys = [
        "\"background\":",
        "\"content_scripts\":",
        "\"browser_action\":",
        "\"page_action\":",
        "\"action\":",
        "\"permissions\":",
    ];
    version && keys.iter().any(|key| compact.contains(key))
}

/// The branch from what `git symbolic-ref --quiet --short HEAD` printed
/// (asked of the symbolic ref, so a branch with no commit yet has its name
/// too); none when it printed nothing or a detached `HEAD`.
///
/// ```
/// use rule_fairy_engine::conditions::branch_from_symbolic_ref;
/// assert_eq!(branch_from_symbolic_ref("feature/a\n").as_deref(), Some("feature/a"));
/// assert_eq!(branch_from_symbolic_ref(""), None);
/// assert_eq!(branch_from_symbolic_ref("HEAD\n"), None);
/// ```
pub fn branch_from_symbolic_ref(printed: &str) -> Option<String> {
    let branch = printed.trim();
    (!branch.is_empty() && branch != "HEAD").then(|| branch.to_string())
}

/// Whether a branch matches a `branch` value: exactly, or as a glob when
/// the value has glob characters (`*` never crosses `/`).
pub fn branch_matches(pattern: &str, branch: &str) -> bool {
    if pattern == branch {
        return true;
    }
    if !pattern.contains(['*', '?', '[', '{']) {
        return false;
    }
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|glob| glob.compile_matcher().is_match(branch))
        .unwrap_or(false)
}

/// A condition a rule can declare, as `explain` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub kind: Dimension,
    pub held: bool,
    pub wanted: Vec<String>,
    /// The fact tested; `None` when the host could not tell.
    pub actual: Option<Vec<String>>,
}

/// A branch value, compiled once.
#[derive(Debug, Clone)]
enum BranchPattern {
    Exact(String),
    Glob(String, globset::GlobMatcher),
}

/// A rule's conditions compiled for matching: branch globs built once per
/// rule set (`fileContains` patterns are compiled together, for every rule,
/// in [`crate::content_index::ContentIndex`]).
#[derive(Debug, Clone, Default)]
pub struct Compiled {
    pub conditions: Conditions,
    branch: Vec<BranchPattern>,
}

impl Compiled {
    pub fn new(conditions: &Conditions) -> Compiled {
        let branch = conditions
            .branch
            .values
            .iter()
            .map(|pattern| {
                let glob = pattern.contains(['*', '?', '[', '{']).then(|| {
                    globset::GlobBuilder::new(pattern)
                        .literal_separator(true)
                        .build()
                        .ok()
                        .map(|g| g.compile_matcher())
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
pub fn compile_pattern(pattern: &str) -> Result<regex::Regex, String> {
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
    use crate::frontmatter::parse;
    use crate::fs::MemoryFs;

    fn conditions(text: &str) -> Conditions {
        Conditions::from_frontmatter(&parse(text).frontmatter.unwrap())
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
        fn stat(&self, path: &str) -> std::io::Result<crate::fs::Metadata> {
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
        let listed: Vec<String> = project_markers().map(|m| format!("/p/{m}")).collect();
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
