//! Loading the gate's rules: every `.yml`/`.yaml` file below each rule
//! directory (subdirectories included), several rules per file separated by
//! `---`, each in ast-grep's own rule format. Each rule is checked before
//! ast-grep sees it (an id, a language this build can parse), so a bad rule
//! is an error naming its file and line, never a panic or a silent skip.

use std::collections::HashMap;

use ast_grep_config::{GlobalRules, RuleConfig, RuleConfigError, SerializableRuleConfig};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use serde::Deserialize;

use crate::config::GateConfig;
use crate::error::GateError;
use crate::finding::Severity;
use crate::language::{is_compiled, parse_language, SupportLang};
use crate::scope::Scope;
use crate::tree::RuleTree;
use crate::yaml::{self, Document};

/// One loaded rule: ast-grep's compiled rule, where it came from, and its
/// `files`/`ignores` globs.
pub struct Rule {
    /// ast-grep's compiled rule: its matcher, `message`, `note` and
    /// `severity`.
    pub config: RuleConfig<SupportLang>,
    /// The rule file, as messages name it.
    pub file: String,
    /// The line of the rule's first key in that file.
    pub line: usize,
    files: Option<GlobSet>,
    ignores: Option<GlobSet>,
}

impl Rule {
    /// The rule's `id`, unique among the project's rules.
    pub fn id(&self) -> &str {
        &self.config.id
    }

    /// The language its `language` names: only files parsed as it are
    /// held to the rule.
    pub fn language(&self) -> SupportLang {
        self.config.language
    }

    /// Its `severity`; `hint` when the rule names none, as in ast-grep.
    pub fn severity(&self) -> Severity {
        Severity::from(&self.config.severity)
    }

    /// Whether the rule's `files`/`ignores` let it judge a project-relative
    /// path (ast-grep's reading: `ignores` first, then `files` if given).
    pub fn applies_to(&self, path: &str) -> bool {
        globs_admit(self.files.as_ref(), self.ignores.as_ref(), path)
    }
}

/// Whether `files`/`ignores` let a rule judge a project-relative path:
/// `ignores` first, then `files` if given, as ast-grep reads them.
pub(crate) fn globs_admit(files: Option<&GlobSet>, ignores: Option<&GlobSet>, path: &str) -> bool {
    !ignores.is_some_and(|g| g.is_match(path)) && files.is_none_or(|g| g.is_match(path))
}

/// What is read of a rule before ast-grep parses it: ast-grep would panic
/// on a language whose grammar is compiled out.
#[derive(Deserialize)]
struct Head {
    id: Option<serde::de::IgnoredAny>,
    language: Option<String>,
    files: Option<Vec<FileGlob>>,
    ignores: Option<Vec<FileGlob>>,
}

/// An entry of `files`/`ignores`, as ast-grep accepts it (its own type for
/// this is private to it).
#[derive(Deserialize)]
#[serde(untagged)]
enum FileGlob {
    Glob(String),
    #[serde(rename_all = "camelCase")]
    Config {
        glob: String,
        #[serde(default)]
        case_insensitive: bool,
    },
}

/// Whether a file below a rule directory is a rule file: `.yml`/`.yaml`.
pub(crate) fn is_rule_file(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".yml") || lower.ends_with(".yaml")
}

/// Every rule file below the configured directories, in directory order,
/// each listed once.
pub(crate) fn rule_files(
    tree: &dyn RuleTree,
    config: &GateConfig,
) -> Result<Vec<String>, GateError> {
    let mut files: Vec<String> = Vec::new();
    for dir in &config.rule_dirs {
        for file in tree.files_below(dir)? {
            if is_rule_file(&file) && !files.contains(&file) {
                files.push(file);
            }
        }
    }
    Ok(files)
}

/// Loads the project's rules, every one or (with a `scope`) those that can
/// judge the scope's files; the first bad rule loaded stops the load.
pub(crate) fn load_rules(
    tree: &dyn RuleTree,
    config: &GateConfig,
    scope: Option<&Scope>,
) -> Result<Vec<Rule>, GateError> {
    let mut rules: Vec<Rule> = Vec::new();
    let mut seen: HashMap<String, (String, usize)> = HashMap::new();
    for path in rule_files(tree, config)? {
        let Some(text) = tree.read(&path)? else {
            continue;
        };
        let file = tree.display(&path);
        for rule in parse_rule_file(&file, &text, scope)? {
            if let Some((other, line)) = seen.get(rule.id()) {
                return Err(GateError::at(
                    &file,
                    rule.line,
                    format!(
                        "rule id `{}` is already used at {other}:{line}; each rule needs its own id",
                        rule.id()
                    ),
                ));
            }
            seen.insert(rule.id().to_string(), (file.clone(), rule.line));
            rules.push(rule);
        }
    }
    Ok(rules)
}

/// Parses the rules of one file; `file` is the name messages use. A file
/// with no rule in it (empty, or only comments and `---`) is an error: a
/// rule emptied by mistake must not pass every file. With a `scope`, a
/// rule that cannot judge its files is left out, uncompiled.
pub(crate) fn parse_rule_file(
    file: &str,
    text: &str,
    scope: Option<&Scope>,
) -> Result<Vec<Rule>, GateError> {
    let mut rules = Vec::new();
    let mut documents = 0;
    for doc in yaml::documents(text) {
        let Some(line) = doc.content_line else {
            continue;
        };
        documents += 1;
        rules.extend(parse_rule(file, &doc, line, scope)?);
    }
    if documents == 0 {
        return Err(GateError::in_file(
            file,
            "the rule file holds no rule; give it one or delete it",
        ));
    }
    Ok(rules)
}

/// A rule's top-level keys, as ast-grep 0.51 accepts them.
const RULE_KEYS: &[&str] = &[
    "id",
    "language",
    "rule",
    "constraints",
    "utils",
    "transform",
    "fix",
    "rewriters",
    "message",
    "note",
    "severity",
    "labels",
    "files",
    "ignores",
    "url",
    "metadata",
];

/// One rule, compiled; `None` when a `scope` is given and the rule, read
/// cleanly, cannot judge any of its files.
fn parse_rule(
    file: &str,
    doc: &Document<'_>,
    line: usize,
    scope: Option<&Scope>,
) -> Result<Option<Rule>, GateError> {
    // One parse on the way that succeeds; the checks that explain a
    // failure better than ast-grep does run only when something is wrong.
    let serializable: SerializableRuleConfig<SupportLang> =
        match ast_grep_config::from_str(doc.text) {
            Ok(serializable) => serializable,
            Err(e) => {
                if scope.is_some_and(|s| rules_itself_out(file, doc, line, s)) {
                    return Ok(None);
                }
                explain_failure(file, doc, line)?;
                return Err(yaml::error(file, doc, "invalid rule: ", &e));
            }
        };
    if scope.is_some_and(|s| {
        is_compiled(serializable.language) && !s.has_language(serializable.language)
    }) {
        // Of another language than every file checked: never compiled.
        return Ok(None);
    }
    if !is_compiled(serializable.language) {
        // ast-grep panics when it builds a pattern for a grammar left out.
        explain_failure(file, doc, line)?;
        return Err(GateError::at(
            file,
            line,
            format!(
                "language {} is not compiled into this build of rule-fairy",
                serializable.language
            ),
        ));
    }
    if serializable.id.trim().is_empty() {
        return Err(GateError::at(file, line, "the rule has no `id`"));
    }
    let id = serializable.id.clone();
    let (files, ignores) = if serializable.files.is_some() || serializable.ignores.is_some() {
        let head: Head = yaml::parse(file, doc, "invalid rule: ")?;
        (
            glob_set(file, line, &id, "files", head.files.as_deref())?,
            glob_set(file, line, &id, "ignores", head.ignores.as_deref())?,
        )
    } else {
        (None, None)
    };
    if scope.is_some_and(|s| !s.judged(serializable.language, files.as_ref(), ignores.as_ref())) {
        return Ok(None);
    }
    let config = RuleConfig::try_from(serializable, &GlobalRules::default())
        .map_err(|e| rule_error(file, doc, line, &id, e))?;
    Ok(Some(Rule {
        config,
        file: file.to_string(),
        line,
        files,
        ignores,
    }))
}

/// Whether a rule ast-grep could not take is, by what of it reads cleanly
/// (its `language`, `files` and `ignores`), one that cannot judge the
/// scope's files: then its fault is the scan of record's to report, not a
/// check's of files it could never judge.
fn rules_itself_out(file: &str, doc: &Document<'_>, line: usize, scope: &Scope) -> bool {
    let Ok(head) = yaml::parse::<Head>(file, doc, "") else {
        return false;
    };
    let Some(Ok(lang)) = head.language.as_deref().map(parse_language) else {
        return false;
    };
    let (Ok(files), Ok(ignores)) = (
        glob_set(file, line, "", "files", head.files.as_deref()),
        glob_set(file, line, "", "ignores", head.ignores.as_deref()),
    ) else {
        return false;
    };
    !scope.judged(lang, files.as_ref(), ignores.as_ref())
}

/// Names what is wrong with a rule ast-grep could not take: an unknown key
/// (ast-grep reports a misspelt `rule:` as a missing one), a missing id or
/// language, a language unknown or not compiled in. `Ok` when none of
/// these is the problem.
fn explain_failure(file: &str, doc: &Document<'_>, line: usize) -> Result<(), GateError> {
    let keys: HashMap<String, serde::de::IgnoredAny> = yaml::parse(file, doc, "invalid rule: ")?;
    let mut unknown: Vec<&String> = keys
        .keys()
        .filter(|k| !RULE_KEYS.contains(&k.as_str()))
        .collect();
    unknown.sort();
    if let Some(key) = unknown.first() {
        return Err(GateError::at(
            file,
            key_line(doc, key).unwrap_or(line),
            format!(
                "invalid rule: unknown key `{key}` (a rule's keys are {})",
                RULE_KEYS.join(", ")
            ),
        ));
    }
    let head: Head = yaml::parse(file, doc, "invalid rule: ")?;
    if head.id.is_none() {
        return Err(GateError::at(file, line, "the rule has no `id`"));
    }
    let Some(language) = head.language else {
        return Err(GateError::at(file, line, "the rule has no `language`"));
    };
    parse_language(&language)
        .map_err(|m| GateError::at(file, key_line(doc, "language").unwrap_or(line), m))?;
    Ok(())
}

/// The line of a top-level key in a document, for messages.
fn key_line(doc: &Document<'_>, key: &str) -> Option<usize> {
    doc.text
        .lines()
        .position(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|i| doc.first_line + i)
}

fn rule_error(
    file: &str,
    doc: &Document<'_>,
    line: usize,
    id: &str,
    e: RuleConfigError,
) -> GateError {
    if let RuleConfigError::Yaml(yaml_error) = &e {
        return yaml::error(file, doc, &format!("rule `{id}`: "), yaml_error);
    }
    let mut message = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    GateError::at(file, line, format!("rule `{id}`: {message}"))
}

fn glob_set(
    file: &str,
    line: usize,
    id: &str,
    key: &str,
    globs: Option<&[FileGlob]>,
) -> Result<Option<GlobSet>, GateError> {
    let Some(globs) = globs else {
        return Ok(None);
    };
    let bad = |e: globset::Error| GateError::at(file, line, format!("rule `{id}`: `{key}`: {e}"));
    let mut builder = GlobSetBuilder::new();
    for glob in globs {
        let glob = match glob {
            FileGlob::Glob(text) => GlobBuilder::new(text).build(),
            FileGlob::Config {
                glob,
                case_insensitive,
            } => GlobBuilder::new(glob)
                .case_insensitive(*case_insensitive)
                .build(),
        }
        .map_err(bad)?;
        builder.add(glob);
    }
    builder.build().map(Some).map_err(bad)
}
