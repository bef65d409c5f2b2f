//! Other hosts' rule files as rule sources, each mapped onto the one rule
//! model: Claude Code's `.claude/rules/`, GitHub Copilot's
//! `.github/instructions/`, Windsurf's `.windsurf/rules/`, Cline's
//! `.clinerules/` and opencode-rules' `.opencode/rules/`. Each is switched on
//! by name in `rule-fairy.edn` (`:formats [:claude :copilot]`).

use crate::conditions::unquote;
use crate::frontmatter::{FieldValue, Frontmatter};

/// The dialect a rule file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Cursor's `.mdc` (and any directory configured under `:rules`).
    Cursor,
    /// `.claude/rules/**/*.md`: `paths:` globs; no `paths` means always on.
    Claude,
    /// `.github/instructions/**/*.instructions.md`: `applyTo:` globs.
    Copilot,
    /// `.windsurf/rules/*.md`: `trigger:` always_on, glob (with `globs:`),
    /// manual, model_decision.
    Windsurf,
    /// `.clinerules/` (a folder of rules, or one file): `paths:` globs; no
    /// `paths` means always on.
    Cline,
    /// `.opencode/rules/`: opencode-rules' keys; a rule with no condition
    /// is unconditional.
    Opencode,
}

/// Where a format keeps its rules, relative to the project root, and
/// which files there are rules.
pub struct Layout {
    pub format: Format,
    /// The keyword naming it in `rule-fairy.edn`.
    pub key: &'static str,
    pub dir: &'static str,
    pub suffixes: &'static [&'static str],
    /// Skip files and directories whose names start with `.`.
    pub skip_hidden: bool,
    /// The location may be one file instead of a folder.
    pub may_be_file: bool,
}

pub const LAYOUTS: &[Layout] = &[
    Layout {
        format: Format::Claude,
        key: "claude",
        dir: ".claude/rules",
        suffixes: &[".md"],
        skip_hidden: false,
        may_be_file: false,
    },
    Layout {
        format: Format::Copilot,
        key: "copilot",
        dir: ".github/instructions",
        suffixes: &[".instructions.md"],
        skip_hidden: false,
        may_be_file: false,
    },
    Layout {
        format: Format::Windsurf,
        key: "windsurf",
        dir: ".windsurf/rules",
        suffixes: &[".md"],
        skip_hidden: false,
        may_be_file: false,
    },
    Layout {
        format: Format::Cline,
        key: "cline",
        dir: ".clinerules",
        suffixes: &[".md", ".txt"],
        skip_hidden: false,
        may_be_file: true,
    },
    Layout {
        format: Format::Opencode,
        key: "opencode",
        dir: ".opencode/rules",
        suffixes: &[".md", ".mdc"],
        skip_hidden: true,
        may_be_file: false,
    },
];

pub fn layout(key: &str) -> Option<&'static Layout> {
    LAYOUTS.iter().find(|l| l.key == key)
}

/// What a format's frontmatter says about when a rule applies, before the
/// shared condition keys (which every format accepts) are added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Triggers {
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
pub fn triggers(format: Format, fm: &Frontmatter, has_conditions: bool) -> Triggers {
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
pub fn own_keys(format: Format) -> &'static [&'static str] {
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
    use crate::frontmatter::parse;

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
