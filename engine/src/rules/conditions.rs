//! What a rule declares beyond Cursor's keys, named as opencode-rules
//! names them: `fileContains`, `command`, `project`, `os`, `ci`, `branch`,
//! `model`, `agent`, `tools`, and `match: any | all`. How they are judged
//! against an event is `matching::conditions`.

use crate::syntax::frontmatter::{FieldValue, Frontmatter};

/// A condition value list with the line that declared it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Declared {
    pub values: Vec<String>,
    pub line: usize,
}

impl Declared {
    /// Nothing declared.
    pub(crate) const NONE: Declared = Declared {
        values: Vec::new(),
        line: 0,
    };

    pub fn is_declared(&self) -> bool {
        !self.values.is_empty()
    }
}

/// The conditions a rule declares besides globs, keywords and alwaysApply.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// The condition keys this module reads.
pub(crate) const CONDITION_KEYS: &[&str] = &[
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
pub(crate) const PROJECT_TAGS: &[&str] = &[
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
    /// No condition declared: [`Conditions::default`], as a constant.
    pub(crate) const NONE: Conditions = Conditions {
        file_contains: Declared::NONE,
        command: Declared::NONE,
        project: Declared::NONE,
        os: Declared::NONE,
        ci: None,
        branch: Declared::NONE,
        model: Declared::NONE,
        agent: Declared::NONE,
        tools: Declared::NONE,
        match_all: false,
    };

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

/// A rule's conditions as a rule holds them: most rules declare none, and
/// those hold nothing instead of ten empty values (a pointer beside
/// about 280 bytes, in every rule of a 10,000-rule project). Reads as
/// [`Conditions`]; kept in the cache as an optional value, so a rule
/// declaring none costs one byte there too.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleConditions(Option<Box<Conditions>>);

/// What a rule declaring no condition reads as.
static NO_CONDITIONS: Conditions = Conditions::NONE;

impl From<Conditions> for RuleConditions {
    fn from(conditions: Conditions) -> RuleConditions {
        RuleConditions((conditions != Conditions::NONE).then(|| Box::new(conditions)))
    }
}

impl RuleConditions {
    /// The conditions, `None` when the rule declares none.
    pub(crate) fn declared(&self) -> Option<&Conditions> {
        self.0.as_deref()
    }
}

impl std::ops::Deref for RuleConditions {
    type Target = Conditions;

    fn deref(&self) -> &Conditions {
        self.0.as_deref().unwrap_or(&NO_CONDITIONS)
    }
}

impl serde::Serialize for RuleConditions {
    fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(to)
    }
}

impl<'de> serde::Deserialize<'de> for RuleConditions {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<RuleConditions, D::Error> {
        // Through `From`: a kept empty set still holds nothing.
        Ok(match Option::<Conditions>::deserialize(from)? {
            Some(conditions) => conditions.into(),
            None => RuleConditions(None),
        })
    }
}

/// A value as YAML would read it: one pair of surrounding quotes removed.
/// Condition values are new keys, so they are read the way opencode-rules
/// and every YAML tool read them, not with Cursor's raw-text dialect.
pub(crate) fn unquote(value: &str) -> &str {
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
