//! Where a project keeps its gate rules and rule tests: `sgconfig.yml`
//! (ast-grep's project file: `ruleDirs`, `testConfigs`, `languageGlobs`),
//! `.kairoku/rules` and `.kairoku/rule-tests` (kairoku's layout), and
//! `:gate {:dirs [...] :test-dirs [...] :unchecked [...]}` in
//! `rule-fairy.edn`.
//!
//! A rule directory that holds no rule file is an error naming it, as is
//! a rule file that holds no rule (`rules`): a gate whose rules went
//! missing must not pass everything (behaviour §8.1).

use std::collections::BTreeMap;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rule_fairy_engine::Config;
use rule_fairy_engine::Place;
use serde::de::IgnoredAny;
use serde::Deserialize;

use crate::error::GateError;
use crate::language::{parse_language, SupportLang};
use crate::languages::LanguageGlobs;
use crate::tree::{normalize, RuleTree};
use crate::yaml;

/// Named in the engine, which tells a host whether a project keeps gate
/// rules before any check runs.
pub(crate) use rule_fairy_engine::gate_check::{KAIROKU_RULES, SGCONFIG};
/// kairoku's directory of rule tests, read when it exists.
pub(crate) const KAIROKU_TESTS: &str = ".kairoku/rule-tests";

/// The gate's sources, every directory project-relative and listed once.
#[derive(Debug, Clone, Default)]
pub(crate) struct GateConfig {
    /// Where the rule files are, in the order found.
    pub rule_dirs: Vec<String>,
    /// Where the rule tests are.
    pub test_dirs: Vec<TestDir>,
    /// `sgconfig.yml`'s `languageGlobs`; empty without one.
    pub language_globs: LanguageGlobs,
    /// `:gate :unchecked`: the files that may go unchecked (too large, or
    /// not parsed cleanly) without failing a scan; none when not given.
    pub unchecked: Option<GlobSet>,
}

impl GateConfig {
    /// Whether `:gate :unchecked` lists a project-relative path.
    pub(crate) fn may_go_unchecked(&self, name: &str) -> bool {
        self.unchecked.as_ref().is_some_and(|g| g.is_match(name))
    }
}

/// Whether a directory holds a rule file, at any depth.
fn holds_rules(tree: &dyn RuleTree, dir: &str) -> Result<bool, GateError> {
    Ok(tree
        .files_below(dir)?
        .iter()
        .any(|f| crate::rules::is_rule_file(f)))
}

/// What a rule directory that holds no rule file is told.
const NO_RULE_FILES: &str = "holds no rule files (.yml or .yaml); nothing would be checked";

/// A directory of rule tests, and the snapshot directory inside it that
/// holds no tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TestDir {
    /// The directory, project-relative.
    pub dir: String,
    /// Its snapshot directory (`snapshotDir`, `__snapshots__` when not
    /// given), project-relative.
    pub snapshot_dir: String,
}

impl TestDir {
    fn new(dir: String, snapshot_dir: Option<&str>) -> Self {
        let snapshot_dir = normalize(&format!(
            "{dir}/{}",
            snapshot_dir.unwrap_or("__snapshots__")
        ));
        TestDir { dir, snapshot_dir }
    }
}

/// `sgconfig.yml`. Keys ast-grep knows but the gate cannot honour are
/// refused rather than ignored, so a rule never silently matches nothing.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SgConfig {
    rule_dirs: Option<Vec<String>>,
    test_configs: Option<Vec<SgTestConfig>>,
    language_globs: Option<BTreeMap<String, Vec<String>>>,
    util_dirs: Option<IgnoredAny>,
    custom_languages: Option<IgnoredAny>,
    language_injections: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SgTestConfig {
    test_dir: String,
    snapshot_dir: Option<String>,
}

fn push_unique(dirs: &mut Vec<String>, dir: String) {
    if !dirs.contains(&dir) {
        dirs.push(dir);
    }
}

fn push_test_dir(dirs: &mut Vec<TestDir>, dir: TestDir) {
    if !dirs.iter().any(|d| d.dir == dir.dir) {
        dirs.push(dir);
    }
}

/// Reads the project's gate configuration from `tree`.
pub(crate) fn read_config(tree: &dyn RuleTree) -> Result<GateConfig, GateError> {
    let mut config = GateConfig::default();
    if let Some(text) = tree.read(SGCONFIG)? {
        read_sgconfig(tree, &text, &mut config)?;
    }
    if tree.is_dir(KAIROKU_RULES) {
        if !holds_rules(tree, KAIROKU_RULES)? {
            return Err(GateError::in_file(
                tree.display(KAIROKU_RULES),
                format!("the rule directory {NO_RULE_FILES}"),
            ));
        }
        push_unique(&mut config.rule_dirs, KAIROKU_RULES.to_string());
    }
    if tree.is_dir(KAIROKU_TESTS) {
        push_test_dir(
            &mut config.test_dirs,
            TestDir::new(KAIROKU_TESTS.to_string(), None),
        );
    }
    read_edn(tree, &mut config)?;
    Ok(config)
}

fn read_sgconfig(
    tree: &dyn RuleTree,
    text: &str,
    config: &mut GateConfig,
) -> Result<(), GateError> {
    let file = tree.display(SGCONFIG);
    let docs = yaml::documents(text);
    let doc = docs
        .iter()
        .find(|d| d.content_line.is_some())
        .ok_or_else(|| GateError::at(&file, 1, "the file is empty; ast-grep needs `ruleDirs`"))?;
    let line = doc.content_line.unwrap_or(1);
    let parsed: SgConfig = yaml::parse(&file, doc, "")?;
    let refuse = |key: &str, why: &str| {
        GateError::at(
            &file,
            line,
            format!("`{key}` is not supported by the gate: {why}"),
        )
    };
    if parsed.util_dirs.is_some() {
        return Err(refuse(
            "utilDirs",
            "a rule that used a shared util would match nothing; put `utils:` in the rule itself",
        ));
    }
    if parsed.custom_languages.is_some() {
        return Err(refuse(
            "customLanguages",
            "it loads grammars at run time; the gate carries its grammars compiled in",
        ));
    }
    if parsed.language_injections.is_some() {
        return Err(refuse(
            "languageInjections",
            "embedded languages are not scanned",
        ));
    }
    let rule_dirs = parsed.rule_dirs.ok_or_else(|| {
        GateError::at(
            &file,
            line,
            "ast-grep needs `ruleDirs`: the directories that hold the rules",
        )
    })?;
    if rule_dirs.is_empty() {
        return Err(GateError::at(
            &file,
            line,
            "`ruleDirs` is empty; nothing would be checked",
        ));
    }
    for dir in rule_dirs {
        let dir = normalize(&dir);
        if !tree.is_dir(&dir) {
            return Err(GateError::at(
                &file,
                line,
                format!("`ruleDirs` names `{dir}`, which is not a directory"),
            ));
        }
        if !holds_rules(tree, &dir)? {
            return Err(GateError::at(
                &file,
                line,
                format!("`ruleDirs` names `{dir}`, which {NO_RULE_FILES}"),
            ));
        }
        push_unique(&mut config.rule_dirs, dir);
    }
    for test in parsed.test_configs.unwrap_or_default() {
        let dir = normalize(&test.test_dir);
        if !tree.is_dir(&dir) {
            return Err(GateError::at(
                &file,
                line,
                format!("`testConfigs` names `{dir}`, which is not a directory"),
            ));
        }
        push_test_dir(
            &mut config.test_dirs,
            TestDir::new(dir, test.snapshot_dir.as_deref()),
        );
    }
    let mut globs: Vec<(SupportLang, Vec<String>)> = Vec::new();
    for (name, patterns) in parsed.language_globs.unwrap_or_default() {
        let lang = parse_language(&name)
            .map_err(|m| GateError::at(&file, line, format!("`languageGlobs`: {m}")))?;
        globs.push((lang, patterns));
    }
    config.language_globs = LanguageGlobs::new(&globs)
        .map_err(|m| GateError::at(&file, line, format!("`languageGlobs`: {m}")))?;
    Ok(())
}

fn read_edn(tree: &dyn RuleTree, config: &mut GateConfig) -> Result<(), GateError> {
    let name = rule_fairy_engine::CONFIG_FILE;
    let Some(text) = tree.read(name)? else {
        return Ok(());
    };
    let file = tree.display(name);
    let to_gate = |e: rule_fairy_engine::Error| GateError {
        message: e.message(),
        place: Some(Place {
            file: file.clone(),
            line: e.place.and_then(|p| p.line),
        }),
    };
    let gate = Config::parse_file(&text, &file)
        .and_then(|c| c.gate_dirs())
        .map_err(to_gate)?;
    for dir in gate.dirs {
        let dir = normalize(&dir);
        if !tree.is_dir(&dir) {
            return Err(GateError::in_file(
                &file,
                format!(":gate :dirs names `{dir}`, which is not a directory"),
            ));
        }
        if !holds_rules(tree, &dir)? {
            return Err(GateError::in_file(
                &file,
                format!(":gate :dirs names `{dir}`, which {NO_RULE_FILES}"),
            ));
        }
        push_unique(&mut config.rule_dirs, dir);
    }
    for dir in gate.test_dirs {
        let dir = normalize(&dir);
        if !tree.is_dir(&dir) {
            return Err(GateError::in_file(
                &file,
                format!(":gate :test-dirs names `{dir}`, which is not a directory"),
            ));
        }
        push_test_dir(&mut config.test_dirs, TestDir::new(dir, None));
    }
    if !gate.unchecked.is_empty() {
        config.unchecked = Some(unchecked_globs(&file, &gate.unchecked)?);
    }
    Ok(())
}

/// `:gate :unchecked`, read as a rule's `files` is (ast-grep's globs,
/// matched against project-relative paths).
fn unchecked_globs(file: &str, globs: &[String]) -> Result<GlobSet, GateError> {
    let mut builder = GlobSetBuilder::new();
    for glob in globs {
        let built = GlobBuilder::new(glob)
            .build()
            .map_err(|e| GateError::in_file(file, format!(":gate :unchecked: `{glob}`: {e}")))?;
        builder.add(built);
    }
    builder
        .build()
        .map_err(|e| GateError::in_file(file, format!(":gate :unchecked: {e}")))
}
