//! A project: its root, configuration, rules and their index, loaded
//! through a [`FileSource`]; and where a project is, seen from a working
//! directory or from an edited file (behaviour §5.1, 5.6).

use crate::base::contain::MAX_PATH_BYTES;
use crate::base::error::Result;
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::config::{Config, RulesSource, CONFIG_FILE};
use crate::matching::index::RuleIndex;
use crate::rules::discovery::RuleSet;
use crate::rules::rule::Rule;

/// Everything a hook or command needs to match events against the rules.
#[derive(Debug, Clone)]
pub struct Project {
    /// The project root as given to [`Project::load`].
    pub root: String,
    /// Its `rule-fairy.edn`, or the defaults when there is none.
    pub config: Config,
    /// Where its rules come from: directories, extensions and formats.
    pub source: RulesSource,
    /// The rules read, sorted by name, and the files that could not be.
    pub rules: RuleSet,
    /// The rules compiled for matching.
    pub index: RuleIndex,
}

impl Project {
    /// Loads the configuration and every rule, and builds the index. A bad
    /// configuration or duplicate rule names fail; a rule file that cannot
    /// be read is a finding in `rules.findings`.
    pub fn load(fs: &dyn FileSource, root: &str) -> Result<Project> {
        let config = Config::load(fs, root)?;
        let source = config.rules_source(root)?;
        let rules = RuleSet::load(fs, &source)?;
        Ok(Project::from_rules(root, config, source, rules))
    }

    /// A project from its parts, loaded elsewhere (a host's walk in
    /// steps); builds the index.
    pub fn from_rules(root: &str, config: Config, source: RulesSource, rules: RuleSet) -> Project {
        let index = RuleIndex::build(rules.all());
        Project::from_parts(root, config, source, rules, index)
    }

    /// A project from its parts and the index built over its rules, kept
    /// from an earlier load (the native project cache); `None` when the
    /// index is not of as many rules.
    pub fn with_index(
        root: &str,
        config: Config,
        source: RulesSource,
        rules: RuleSet,
        index: RuleIndex,
    ) -> Option<Project> {
        (index.len() == rules.len())
            .then(|| Project::from_parts(root, config, source, rules, index))
    }

    /// The rule named `name`: found by the index when the rules are kept
    /// encoded, so only that one is decoded (a kept rule that no longer
    /// decodes is no rule of that name).
    pub fn rule(&self, name: &str) -> Option<&Rule> {
        match self.rules.is_kept() {
            true => self
                .index
                .place_of(name)
                .map(|place| self.rules.at(place))
                .filter(|rule| rule.name == name),
            false => self.rules.get(name),
        }
    }

    fn from_parts(
        root: &str,
        config: Config,
        source: RulesSource,
        rules: RuleSet,
        index: RuleIndex,
    ) -> Project {
        Project {
            root: root.to_string(),
            config,
            source,
            index: index.at_root(root),
            rules,
        }
    }
}

/// The nearest directory from `dir` upwards (itself included) holding a
/// `.git` entry, a directory or a file (worktrees and submodules have a file).
pub fn checkout_root(fs: &dyn FileSource, dir: &str) -> Option<String> {
    let mut current = Some(dir.to_string());
    while let Some(candidate) = current {
        if fs.exists(&paths::join(&candidate, ".git")) {
            return Some(candidate);
        }
        current = paths::parent(&candidate).map(str::to_string);
    }
    None
}

fn marks_project(fs: &dyn FileSource, dir: &str) -> bool {
    fs.is_file(&paths::join(dir, CONFIG_FILE)) || fs.is_dir(&paths::join(dir, ".cursor/rules"))
}

/// The project a working directory belongs to, as the Codex adapter finds
/// it (behaviour §5.1): the nearest directory from `cwd` up to its checkout
/// root that holds `rule-fairy.edn` or `.cursor/rules`; else the checkout
/// root; outside git, `cwd` itself. `cwd` is absolute and normalised.
pub fn discover_root(fs: &dyn FileSource, cwd: &str) -> String {
    let Some(checkout) = checkout_root(fs, cwd) else {
        return cwd.to_string();
    };
    let mut current = Some(cwd);
    while let Some(dir) = current {
        if marks_project(fs, dir) {
            return dir.to_string();
        }
        if dir == checkout {
            break;
        }
        current = paths::parent(dir);
    }
    checkout
}

/// An edited file's path as the project's globs see it (behaviour §5.6):
/// relative to the checkout that holds the file, less the project's own
/// position in its checkout. A file outside the project that no working
/// tree places in it comes back climbing out of the project (`../`), so it
/// matches no rule and is never read (behaviour §0.1). `file` and
/// `project` are absolute, normalised, and resolved the way the caller's
/// host resolves them.
pub fn project_relative_path(fs: &dyn FileSource, project: &str, file: &str) -> String {
    // Longer than any real path: no checkout is looked for (each ancestor
    // would cost a lookup of the whole path), and the event drops it.
    if file.len() > MAX_PATH_BYTES {
        return paths::normalize_for_match(file);
    }
    let project_prefix = checkout_root(fs, project)
        .and_then(|checkout| paths::strip_base(project, &checkout).map(str::to_string));
    let file_root = paths::parent(file)
        .and_then(|dir| checkout_root(fs, dir))
        .unwrap_or_else(|| project.to_string());
    let relative = paths::relative_path(&file_root, file);
    let relative = match project_prefix.as_deref() {
        Some(prefix) if !prefix.is_empty() => match relative.strip_prefix(prefix) {
            Some(rest) if rest.starts_with('/') && rest.len() > 1 => rest[1..].to_string(),
            // Beside the project in its checkout, or in a working tree
            // outside the project's part: not the project's file.
            _ if paths::strip_base(file, project).is_none() => paths::relative_path(project, file),
            _ => relative,
        },
        _ => relative,
    };
    paths::normalize_for_match(&relative)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    fn checkouts() -> MemoryFs {
        let mut fs = MemoryFs::new();
        fs.add_dir("/w/repo/.git")
            .add_dir("/w/repo/backend/src")
            .add_file(
                "/w/repo/.claude/worktrees/w/.git",
                "gitdir: ../../../.git/worktrees/w",
            )
            .add_dir("/w/other/.git")
            .add_dir("/w/plain/src");
        fs
    }

    #[test]
    fn original_relativisation_examples() {
        let fs = checkouts();
        let rel = |project: &str, file: &str| project_relative_path(&fs, project, file);
        assert_eq!(
            rel("/w/repo", "/w/repo/backend/src/a.clj"),
            "backend/src/a.clj"
        );
        assert_eq!(
            rel("/w/repo/backend", "/w/repo/backend/src/a.clj"),
            "src/a.clj"
        );
        assert_eq!(
            rel("/w/repo", "/w/repo/.claude/worktrees/w/src/c.clj"),
            "src/c.clj"
        );
        assert_eq!(
            rel(
                "/w/repo/backend",
                "/w/repo/.claude/worktrees/w/backend/src/b.clj"
            ),
            "src/b.clj"
        );
        // Outside the project: climbs out of it, so it matches nothing.
        assert_eq!(
            rel("/w/repo/backend", "/w/repo/frontend/x.js"),
            "../frontend/x.js"
        );
        assert_eq!(
            rel(
                "/w/repo/backend",
                "/w/repo/.claude/worktrees/w/frontend/x.js"
            ),
            "../.claude/worktrees/w/frontend/x.js"
        );
        assert_eq!(rel("/w/repo", "/w/other/src/d.clj"), "src/d.clj");
        assert_eq!(rel("/w/plain", "/w/plain/src/e.clj"), "src/e.clj");
        assert_eq!(rel("/w/plain", "/w/elsewhere/e.clj"), "../elsewhere/e.clj");
    }

    #[test]
    fn discovering_the_project_from_a_working_directory() {
        let mut fs = checkouts();
        assert_eq!(discover_root(&fs, "/w/repo/backend/src"), "/w/repo");
        fs.add_dir("/w/repo/backend/.cursor/rules");
        assert_eq!(discover_root(&fs, "/w/repo/backend/src"), "/w/repo/backend");
        fs.add_file(
            "/w/repo/tools/rule-fairy.edn",
            "{:rules {:dirs [\"rules\"]}}",
        );
        assert_eq!(discover_root(&fs, "/w/repo/tools"), "/w/repo/tools");
        assert_eq!(discover_root(&fs, "/w/plain/src"), "/w/plain/src");
    }

    #[test]
    fn loading_a_project() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "---\nglobs: src/**\n---\n# A");
        let project = Project::load(&fs, "/p").unwrap();
        assert_eq!(project.rules.names(), vec!["a.mdc"]);
        assert_eq!(project.index.match_paths(&["src/x"]).rules.len(), 1);
        fs.add_file("/p/rule-fairy.edn", "{:rules 1}");
        assert_eq!(
            Project::load(&fs, "/p").unwrap_err().message(),
            ":rules in rule-fairy.edn must be a map"
        );
    }
}
