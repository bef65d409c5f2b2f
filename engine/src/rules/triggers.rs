//! What each format's frontmatter says about when a rule applies
//! (`paths:`, `applyTo:`, Windsurf's `trigger:`, ...), before the shared
//! condition keys are added.

use crate::config::formats::Format;
use crate::rules::conditions::unquote;
use crate::syntax::frontmatter::{FieldValue, Frontmatter};

/// What a format's frontmatter says about when a rule applies, before the
/// shared condition keys (which every format accepts) are added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Triggers {
    /// Glob items with their line, and whether braces alternate.
    pub globs: Vec<(String, usize, bool)>,
    pub always_apply: bool,
}

fn items_with_braces(value: &FieldValue) -> Vec<String> {
    value
        .items()
        .iter()
        .map(|item| unquote(item).to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A YAML scalar or list holding one glob per item (`paths: "src/**"` is
/// one glob; braces may hold commas).
fn single_globs(value: &FieldValue) -> Vec<String> {
    match value {
        FieldValue::Text(text) => vec![unquote(text).to_string()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect(),
        FieldValue::List(_) => items_with_braces(value),
    }
}

/// Comma-separated globs that may be quoted as a whole (`applyTo: "a,b"`).
fn comma_globs(value: &FieldValue) -> Vec<String> {
    match value {
        FieldValue::Text(text) => unquote(text)
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        FieldValue::List(_) => items_with_braces(value),
    }
}

/// The triggers of a non-Cursor format. `has_conditions` says whether the
/// rule declares any shared condition (keywords, os, ...), which for
/// opencode-rules decides whether a rule is unconditional.
pub(crate) fn triggers(format: Format, fm: &Frontmatter, has_conditions: bool) -> Triggers {
    let globs_of =
        |key: &str, read: fn(&FieldValue) -> Vec<String>| -> Vec<(String, usize, bool)> {
            fm.get(key)
                .map(|f| {
                    read(&f.value)
                        .into_iter()
                        .map(|g| (g, f.line, true))
                        .collect()
                })
                .unwrap_or_default()
        };
    match format {
        Format::Cursor => Triggers::default(),
        Format::Claude | Format::Cline => {
            let globs = globs_of("paths", single_globs);
            let always_apply = globs.is_empty() && fm.get("paths").is_none() && !has_conditions;
            Triggers {
                globs,
                always_apply,
            }
        }
        Format::Copilot => Triggers {
            globs: globs_of("applyTo", comma_globs),
            always_apply: false,
        },
        Format::Windsurf => {
            let trigger = fm
                .text("trigger")
                .map(|t| unquote(t).to_string())
                .unwrap_or_default();
            match trigger.as_str() {
                "always_on" => Triggers {
                    globs: Vec::new(),
                    always_apply: true,
                },
                "glob" => Triggers {
                    globs: globs_of("globs", comma_globs),
                    always_apply: false,
                },
                _ => Triggers::default(),
            }
        }
        Format::Opencode => {
            let globs = globs_of("globs", single_globs);
            Triggers {
                always_apply: globs.is_empty() && !has_conditions,
                globs,
            }
        }
    }
}

/// The keys each format defines, beyond the shared condition keys.
pub(crate) fn own_keys(format: Format) -> &'static [&'static str] {
    match format {
        Format::Cursor => &[
            "description",
            "globs",
            "paths",
            "alwaysApply",
            "promptAnyOf",
            "promptRequires",
        ],
        Format::Claude | Format::Cline => &["description", "paths"],
        Format::Copilot => &["description", "applyTo", "excludeAgent", "name"],
        Format::Windsurf => &["description", "trigger", "globs"],
        Format::Opencode => &["description", "globs", "name"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::frontmatter::parse;

    fn triggers_of(format: Format, text: &str, has_conditions: bool) -> Triggers {
        let fm = parse(text).frontmatter.unwrap_or_default();
        triggers(format, &fm, has_conditions)
    }

    fn globs(t: &Triggers) -> Vec<&str> {
        t.globs.iter().map(|(g, _, _)| g.as_str()).collect()
    }

    #[test]
    fn claude_and_cline_paths() {
        let t = triggers_of(
            Format::Claude,
            "---\npaths:\n  - \"src/**/*.{ts,tsx}\"\n  - lib/**\n---\n",
            false,
        );
        assert_eq!(globs(&t), vec!["src/**/*.{ts,tsx}", "lib/**"]);
        assert!(!t.always_apply);
        assert_eq!(
            globs(&triggers_of(
                Format::Claude,
                "---\npaths: \"src/**\"\n---\n",
                false
            )),
            vec!["src/**"]
        );
        assert!(triggers_of(Format::Claude, "# No frontmatter", false).always_apply);
        assert!(triggers_of(Format::Cline, "---\ndescription: x\n---\n", false).always_apply);
    }

    #[test]
    fn copilot_apply_to() {
        let t = triggers_of(
            Format::Copilot,
            "---\napplyTo: \"**/*.ts,**/*.tsx\"\n---\n",
            false,
        );
        assert_eq!(globs(&t), vec!["**/*.ts", "**/*.tsx"]);
        assert_eq!(
            triggers_of(Format::Copilot, "---\n---\n", false),
            Triggers::default()
        );
    }

    #[test]
    fn windsurf_triggers() {
        assert!(
            triggers_of(Format::Windsurf, "---\ntrigger: always_on\n---\n", false).always_apply
        );
        assert_eq!(
            globs(&triggers_of(
                Format::Windsurf,
                "---\ntrigger: glob\nglobs: *.ts, *.tsx\n---\n",
                false
            )),
            vec!["*.ts", "*.tsx"]
        );
        assert_eq!(
            triggers_of(
                Format::Windsurf,
                "---\ntrigger: model_decision\ndescription: x\n---\n",
                false
            ),
            Triggers::default()
        );
        assert_eq!(
            triggers_of(Format::Windsurf, "---\ntrigger: manual\n---\n", false),
            Triggers::default()
        );
    }

    #[test]
    fn opencode_rules_without_conditions_are_unconditional() {
        assert!(triggers_of(Format::Opencode, "# body", false).always_apply);
        assert!(!triggers_of(Format::Opencode, "---\nkeywords: [a]\n---\n", true).always_apply);
        let t = triggers_of(
            Format::Opencode,
            "---\nglobs: [\"**/*.ts\", 123, true]\n---\n",
            false,
        );
        assert_eq!(globs(&t), vec!["**/*.ts"]);
    }
}
