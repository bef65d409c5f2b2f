//! The facts about a session and a turn that rule conditions are tested
//! against, and how a host's raw facts (a prompt, the environment, marker
//! files, git's answer, the name of the operating system) become them;
//! which of them a project's rules test, so a host gathers only those.

use serde::Serialize;

use crate::base::contain::Containment;
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::rules::conditions::{normalize_os, Conditions};

/// Facts about the session and the turn that conditions are tested
/// against. `None` is an unknown fact: a condition on it does not hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Facts {
    /// The prompt's slash command; derived from the prompt when unset.
    pub command: Option<String>,
    /// The project's tags from marker files at its root ([`project_tags`]).
    pub project: Option<Vec<String>>,
    /// The operating system, in the names rules use ([`os_name`]).
    pub os: Option<String>,
    /// Whether this is a CI run ([`ci_from_env`]).
    pub ci: Option<bool>,
    /// The current git branch; `None` on a detached `HEAD`.
    pub branch: Option<String>,
    /// The model in use.
    pub model: Option<String>,
    /// The agent in use.
    pub agent: Option<String>,
    /// The names of the tools available.
    pub tools: Option<Vec<String>>,
}

/// The prompt's leading slash command: its first word when that starts
/// with `/` and is longer than `/` (punctuation stays, as in opencode-rules).
pub(crate) fn command_of(prompt: &str) -> Option<String> {
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
pub(crate) fn project_markers() -> impl Iterator<Item = &'static str> {
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
    let manifest = paths::join(root, EXTENSION_MANIFEST);
    let Ok(bytes) = Containment::project(fs, root).read(fs, &manifest) else {
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
/// use rule_fairy_engine::branch_from_symbolic_ref;
/// assert_eq!(branch_from_symbolic_ref("feature/a\n").as_deref(), Some("feature/a"));
/// assert_eq!(branch_from_symbolic_ref(""), None);
/// assert_eq!(branch_from_symbolic_ref("HEAD\n"), None);
/// ```
pub fn branch_from_symbolic_ref(printed: &str) -> Option<String> {
    let branch = printed.trim();
    (!branch.is_empty() && branch != "HEAD").then(|| branch.to_string())
}
/// The operating system a host reports, in the names rules use
/// ([`normalize_os`]: `linux`, `darwin`, `win32`, or the name as it is):
/// Claude Code's platform (`macos`, `windows`, `linux`; WSL is Linux, for
/// it runs Linux programs) and Rust's `std::env::consts::OS` alike. An
/// empty name, or `unknown`, is no fact.
///
/// ```
/// use rule_fairy_engine::os_name;
/// assert_eq!(os_name("macos").as_deref(), Some("darwin"));
/// assert_eq!(os_name("windows").as_deref(), Some("win32"));
/// assert_eq!(os_name("wsl").as_deref(), Some("linux"));
/// assert_eq!(os_name("freebsd").as_deref(), Some("freebsd"));
/// assert_eq!(os_name("unknown"), None);
/// ```
pub fn os_name(reported: &str) -> Option<String> {
    match reported.trim().to_lowercase().as_str() {
        "" | "unknown" => None,
        "wsl" => Some("linux".to_string()),
        other => Some(normalize_os(other)),
    }
}

/// The facts some rule's conditions test, by condition name (`project`,
/// `os`, `ci`, `branch`, `model`, `agent`, `tools`), in the order first
/// declared: the ones a host must gather. The slash command is not among
/// them: the event carries it. Over the conditions of each rule (the
/// index's, [`crate::RuleIndex::wanted_facts`], so no rule is decoded).
pub(crate) fn wanted_facts<'c>(
    conditions: impl IntoIterator<Item = &'c Conditions>,
) -> Vec<&'static str> {
    let mut wanted = Vec::new();
    let mut want = |declared: bool, name: &'static str| {
        if declared && !wanted.contains(&name) {
            wanted.push(name);
        }
    };
    for c in conditions {
        want(c.project.is_declared(), "project");
        want(c.os.is_declared(), "os");
        want(c.ci.is_some(), "ci");
        want(c.branch.is_declared(), "branch");
        want(c.model.is_declared(), "model");
        want(c.agent.is_declared(), "agent");
        want(c.tools.is_declared(), "tools");
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rule::Rule;

    #[test]
    fn only_the_facts_rules_test_are_wanted() {
        let rule = |name: &str, text: &str| Rule::parse(name, &format!("/p/{name}"), text);
        let rules = vec![
            rule("a.mdc", "---\nalwaysApply: true\n---\nA"),
            rule("b.mdc", "---\nmodel: [x]\nos: linux\n---\nB"),
            rule("c.mdc", "---\nbranch: main\nci: false\n---\nC"),
            rule("d.mdc", "---\nmodel: [y]\n---\nD"),
        ];
        let of = |rules: &[Rule]| wanted_facts(rules.iter().map(|r| &*r.conditions));
        assert_eq!(of(&rules), vec!["os", "model", "ci", "branch"]);
        let plain = vec![rule("a.mdc", "---\nglobs: src/**\n---\nA")];
        assert!(of(&plain).is_empty());
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn command_of_example() {
        use crate::matching::facts::command_of;
        assert_eq!(
            command_of("/plan implement filters").as_deref(),
            Some("/plan")
        );
        assert_eq!(command_of("  /plan, now").as_deref(), Some("/plan,"));
        assert_eq!(command_of("/ x"), None);
        assert_eq!(command_of("hello"), None);
    }

    #[test]
    fn project_markers_example() {
        use crate::matching::facts::project_markers;
        let markers: Vec<&str> = project_markers().collect();
        assert!(markers.contains(&"package.json") && markers.contains(&"manifest.json"));
    }
}
