//! What each format's frontmatter says about when a rule applies
//! (`paths:`, `applyTo:`, Windsurf's `trigger:`, Continue's `alwaysApply`,
//! Roo's mode folders, ...), before the shared condition keys are added.

use crate::config::formats::{self, Format};
use crate::rules::conditions::{unquote, Declared};
use crate::syntax::frontmatter::{FieldValue, Frontmatter};

/// What a format's frontmatter says about when a rule applies, before the
/// shared condition keys (which every format accepts) are added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Triggers {
    /// Glob items with their line, and whether braces alternate.
    pub globs: Vec<(String, usize, bool)>,
    pub always_apply: bool,
    /// Reached only when a person names it (Cline's workflows, Windsurf's
    /// `trigger: manual`): no trigger of its own, not requestable.
    pub mention_only: bool,
    /// Content patterns the format declares (Continue's `regex`), joined to
    /// `fileContains`.
    pub file_contains: Declared,
    /// The agent (mode) the format ties the rule to (Roo's `rules-<mode>/`).
    pub agent: Declared,
    /// Every declared condition must hold (Continue's globs with `regex`,
    /// Roo's always-on rule with its mode).
    pub match_all: bool,
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

/// Comma-separated globs that may be quoted as a whole (`applyTo: "a,b"`),
/// split at the commas outside braces, so `**/*.{ts,tsx}` stays one glob.
/// Unbalanced braces leave the rest of the line one glob, which then
/// fails to compile and is reported with its line.
fn comma_globs(value: &FieldValue) -> Vec<String> {
    match value {
        FieldValue::Text(text) => split_outside_braces(unquote(text))
            .into_iter()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        FieldValue::List(_) => items_with_braces(value),
    }
}

/// Splits at every `,` not inside `{...}`.
pub(crate) fn split_outside_braces(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A YAML value's text items (a scalar read as YAML reads it, or a
/// sequence's items), with the field's line.
fn declared(fm: &Frontmatter, key: &str) -> Declared {
    let Some(field) = fm.get(key) else {
        return Declared::default();
    };
    let values = match &field.value {
        FieldValue::List(items) => items.clone(),
        FieldValue::Text(_) => fm.scalar(key).into_iter().collect(),
    };
    Declared {
        values: values.into_iter().filter(|v| !v.is_empty()).collect(),
        line: field.line,
    }
}

/// `alwaysApply` as YAML reads it: `Some(true)`, `Some(false)` or absent.
fn tri_state(fm: &Frontmatter, key: &str) -> Option<bool> {
    match fm.scalar(key)?.to_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// Whether a path lies below a `.clinerules/workflows/` folder: Cline runs
/// those only when a person types `/name.md`.
fn is_cline_workflow(path: &str) -> bool {
    let segments: Vec<&str> = path.split('/').collect();
    segments
        .windows(3)
        .any(|w| w[0] == ".clinerules" && w[1] == "workflows" && !w[2].is_empty())
}

/// The Roo mode of a rule file, from the folder below `.roo` it lies in.
fn roo_mode(path: &str) -> Option<&str> {
    let at = path
        .rfind("/.roo/")
        .map(|i| i + 6)
        .or_else(|| path.starts_with(".roo/").then_some(5))?;
    formats::roo_mode(&path[at..])
}

/// The triggers of a non-Cursor format (and of a legacy root file).
/// `has_conditions` says whether the rule declares any shared condition
/// (keywords, os, ...), which for some formats decides whether a rule is
/// unconditional; `path` is the rule file's, whose folder may say more.
pub(crate) fn triggers(
    format: Format,
    fm: &Frontmatter,
    path: &str,
    has_conditions: bool,
) -> Triggers {
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
    if formats::is_legacy_file(format, path) {
        return Triggers {
            always_apply: true,
            ..Triggers::default()
        };
    }
    match format {
        Format::Cursor => Triggers::default(),
        Format::Cline if is_cline_workflow(path) => Triggers {
            mention_only: true,
            ..Triggers::default()
        },
        Format::Claude | Format::Cline => {
            let globs = globs_of("paths", single_globs);
            let always_apply = globs.is_empty() && fm.get("paths").is_none() && !has_conditions;
            Triggers {
                globs,
                always_apply,
                ..Triggers::default()
            }
        }
        Format::Copilot => {
            let globs = globs_of("applyTo", comma_globs);
            // VS Code attaches `applyTo: "**"` to every request.
            if globs.iter().any(|(glob, _, _)| glob == "**") {
                return Triggers {
                    always_apply: true,
                    ..Triggers::default()
                };
            }
            Triggers {
                globs,
                ..Triggers::default()
            }
        }
        Format::Windsurf => {
            let trigger = fm
                .text("trigger")
                .map(|t| unquote(t).to_string())
                .unwrap_or_default();
            match trigger.as_str() {
                "always_on" => Triggers {
                    always_apply: true,
                    ..Triggers::default()
                },
                "glob" => Triggers {
                    globs: globs_of("globs", comma_globs),
                    ..Triggers::default()
                },
                "manual" => Triggers {
                    mention_only: true,
                    ..Triggers::default()
                },
                _ => Triggers::default(),
            }
        }
        Format::Opencode => {
            let globs = globs_of("globs", single_globs);
            Triggers {
                always_apply: globs.is_empty() && !has_conditions,
                globs,
                ..Triggers::default()
            }
        }
        Format::Continue => {
            // Continue: `alwaysApply: true` always; `false` only by globs
            // (or the model, by the description); absent: by globs, and
            // always when there are none. `regex` tests the file's content,
            // together with the globs when both are given.
            let globs = globs_of("globs", single_globs);
            let file_contains = declared(fm, "regex");
            let conditional = !globs.is_empty() || file_contains.is_declared() || has_conditions;
            let always_apply = match tri_state(fm, "alwaysApply") {
                Some(always) => always,
                None => !conditional,
            };
            Triggers {
                match_all: !globs.is_empty() && file_contains.is_declared(),
                always_apply,
                globs,
                file_contains,
                ..Triggers::default()
            }
        }
        Format::Roo => match roo_mode(path) {
            Some("") | None => Triggers {
                always_apply: !has_conditions,
                ..Triggers::default()
            },
            Some(mode) => Triggers {
                always_apply: true,
                agent: Declared {
                    values: vec![mode.to_string()],
                    line: 1,
                },
                match_all: true,
                ..Triggers::default()
            },
        },
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
        Format::Continue => &[
            "description",
            "globs",
            "regex",
            "alwaysApply",
            "name",
            "version",
            "schema",
        ],
        Format::Roo => &["description"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::frontmatter::parse;

    fn triggers_of(format: Format, text: &str, has_conditions: bool) -> Triggers {
        let fm = parse(text).frontmatter().cloned().unwrap_or_default();
        triggers(format, &fm, "/p/rule.md", has_conditions)
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
        let manual = triggers_of(Format::Windsurf, "---\ntrigger: manual\n---\n", false);
        assert!(manual.mention_only && !manual.always_apply && manual.globs.is_empty());
    }

    #[test]
    fn copilot_splits_at_commas_outside_braces() {
        let t = triggers_of(
            Format::Copilot,
            "---\napplyTo: '**/*.{ts,tsx}, docs/**'\n---\n",
            false,
        );
        assert_eq!(globs(&t), vec!["**/*.{ts,tsx}", "docs/**"]);
        // Unbalanced braces: the rest stays one glob, which fails to compile.
        let t = triggers_of(Format::Copilot, "---\napplyTo: \"src/{a,b\"\n---\n", false);
        assert_eq!(globs(&t), vec!["src/{a,b"]);
        assert_eq!(split_outside_braces("a}},b{c,d}"), vec!["a}}", "b{c,d}"]);
    }

    #[test]
    fn copilot_everything_is_always_on() {
        for value in ["\"**\"", "'**'", "**", "src/**, **"] {
            let t = triggers_of(
                Format::Copilot,
                &format!("---\napplyTo: {value}\n---\n"),
                false,
            );
            assert!(t.always_apply && t.globs.is_empty(), "{value}");
        }
        assert!(!triggers_of(Format::Copilot, "---\napplyTo: \"**/*\"\n---\n", false).always_apply);
    }

    #[test]
    fn continue_always_apply_is_tri_state() {
        let of = |fm: &str| triggers_of(Format::Continue, &format!("---\n{fm}---\n"), false);
        assert!(of("name: x\n").always_apply);
        assert!(!of("globs: \"**/*.ts\"\n").always_apply);
        assert!(of("globs: \"**/*.ts\"\nalwaysApply: true\n").always_apply);
        let off = of("alwaysApply: false\ndescription: When migrating\n");
        assert!(!off.always_apply && off.globs.is_empty());
        let both = of("globs: [\"src/**\"]\nregex: \"^import .* from '.*';$\"\n");
        assert!(!both.always_apply && both.match_all);
        assert_eq!(both.file_contains.values, vec!["^import .* from '.*';$"]);
        let regex_only = of("regex:\n  - \"\\\\bTODO\\\\b\"\n");
        assert!(!regex_only.always_apply && !regex_only.match_all);
        assert_eq!(regex_only.file_contains.values, vec!["\\bTODO\\b"]);
    }

    #[test]
    fn roo_mode_folders_are_an_agent_condition() {
        let fm = Frontmatter::default();
        let general = triggers(Format::Roo, &fm, "/p/.roo/rules/a.md", false);
        assert!(general.always_apply && !general.agent.is_declared());
        let code = triggers(Format::Roo, &fm, "/p/.roo/rules-code/a.md", false);
        assert!(code.always_apply && code.match_all);
        assert_eq!(code.agent.values, vec!["code"]);
    }

    #[test]
    fn cline_workflows_and_legacy_files() {
        let fm = Frontmatter::default();
        assert!(triggers(Format::Cline, &fm, "/p/.clinerules/workflows/x.md", false).mention_only);
        assert!(triggers(Format::Cline, &fm, "/p/.clinerules/x.md", false).always_apply);
        assert!(triggers(Format::Windsurf, &fm, "/p/.windsurfrules", false).always_apply);
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
