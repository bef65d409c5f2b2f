//! One rule: its name, frontmatter, body, and the triggers read from the
//! frontmatter (behaviour §1.3).

use crate::base::error::{Error, ErrorKind, Place, Result};
use crate::base::paths;
use crate::base::text;
use crate::config::formats::{self, Format};
use crate::rules::conditions::{unquote, Conditions, RuleConditions};
use crate::rules::triggers;
use crate::syntax::frontmatter::{self, Document, FieldValue, Frontmatter};

/// A glob as a rule declares it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GlobSpec {
    /// Normalised for matching (behaviour §2.1); errors name this form.
    pub pattern: String,
    /// 1-based line of the field that declared it.
    pub line: usize,
    /// Written as an item of a YAML sequence, where `{a,b}` alternation is
    /// understood; in a comma-separated line braces are literal, as in Cursor.
    pub from_sequence: bool,
}

/// The prompt trigger: any of `any_of`, and all of `requires`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PromptTrigger {
    pub any_of: Vec<String>,
    pub requires: Vec<String>,
}

/// A rule file read: what it is called, where it lives, its text, and
/// the triggers and conditions its frontmatter declares.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rule {
    /// Path relative to its rules directory, `/`-separated, extension kept.
    pub name: String,
    /// The file it was read from.
    pub path: String,
    /// The file split into frontmatter and body.
    pub document: Document,
    /// The path globs it declares, normalised; empty ones are dropped.
    pub globs: Vec<GlobSpec>,
    /// Whether every prompt selects it (Cursor's `alwaysApply: true`, or
    /// the format's own way of saying so).
    pub always_apply: bool,
    /// The prompt terms that select it, lower-cased; `None` without any-of
    /// terms (`promptAnyOf` or `keywords`).
    pub trigger: Option<PromptTrigger>,
    /// The conditions beyond globs, keywords and alwaysApply.
    pub conditions: RuleConditions,
    /// The dialect the file is written in.
    pub format: Format,
    /// Reached only when a person names it (`@name`): Cline's
    /// `.clinerules/workflows/`, Windsurf's `trigger: manual`. Such a rule
    /// has no trigger of its own and is not offered to the model.
    pub mention_only: bool,
    /// For a rule of a nested rules folder (behaviour §1.2), the directory
    /// holding that folder, project-relative (`packages/web` for
    /// `packages/web/.cursor/rules/ui.mdc`): its globs match paths below
    /// it, and its always-on part holds for paths below it. `None` for the
    /// project's own rules directories.
    pub base: Option<String>,
}

/// Frontmatter keys whose values are globs: Cursor's `globs`, and Claude
/// Code's `paths` as another name for it.
pub(crate) const GLOB_KEYS: &[&str] = &["globs", "paths"];

impl Rule {
    /// Reads a rule from its file's bytes; text that is not UTF-8 is an
    /// error naming the file and line.
    pub fn from_bytes(name: &str, path: &str, bytes: &[u8]) -> Result<Rule> {
        Rule::from_bytes_as(Format::Cursor, name, path, bytes)
    }

    /// Reads a rule written in `format` from its file's bytes.
    pub fn from_bytes_as(format: Format, name: &str, path: &str, bytes: &[u8]) -> Result<Rule> {
        let text = text::decode(bytes)
            .map_err(|e| Error::at(Place::line(path, e.line), ErrorKind::NotUtf8(e)))?;
        Ok(Rule::parse_as(format, name, path, &text))
    }

    /// Reads a rule from its text.
    ///
    /// ```
    /// use rule_fairy_engine::Rule;
    /// let rule = Rule::parse("ui.mdc", "/p/.cursor/rules/ui.mdc",
    ///     "---\nglobs: src/ui/**\nalwaysApply: True\npromptAnyOf: Widget, HTMX\n---\n# UI");
    /// assert_eq!(rule.globs[0].pattern, "src/ui/**");
    /// assert!(rule.always_apply);
    /// assert_eq!(rule.trigger.unwrap().any_of, vec!["widget", "htmx"]);
    /// ```
    pub fn parse(name: &str, path: &str, text: &str) -> Rule {
        Rule::parse_as(Format::Cursor, name, path, text)
    }

    /// Reads a rule written in `format`. Every format accepts the shared
    /// condition keys and `keywords`; globs and always-on come from the
    /// format's own keys.
    pub fn parse_as(format: Format, name: &str, path: &str, text: &str) -> Rule {
        let document = frontmatter::parse(text);
        let empty = Frontmatter::default();
        let fm = document.frontmatter().unwrap_or(&empty);
        let mut conditions = Conditions::from_frontmatter(fm);
        let terms = |key: &str| {
            fm.list(key)
                .iter()
                .map(|t| t.to_lowercase())
                .collect::<Vec<_>>()
        };
        // `keywords` (opencode-rules' name) are YAML values: quotes go.
        let keywords: Vec<String> = fm
            .list("keywords")
            .iter()
            .map(|t| unquote(t).to_lowercase())
            .filter(|t| !t.is_empty())
            .collect();
        let mut any_of = terms("promptAnyOf");
        any_of.extend(
            keywords
                .iter()
                .filter(|k| !any_of.contains(k))
                .cloned()
                .collect::<Vec<_>>(),
        );
        let trigger = (!any_of.is_empty()).then(|| PromptTrigger {
            any_of,
            requires: terms("promptRequires"),
        });
        let mut mention_only = false;
        let mut trigger = trigger;
        let (globs, always_apply) = match format {
            Format::Cursor if !formats::is_legacy_file(format, path) => (
                cursor_globs(fm),
                fm.text("alwaysApply")
                    .is_some_and(|v| v.to_lowercase() == "true"),
            ),
            _ => {
                let has_conditions = trigger.is_some() || conditions.declares_any();
                let triggers = triggers::triggers(format, fm, path, has_conditions);
                mention_only = triggers.mention_only;
                if mention_only {
                    // Named by a person or not at all: nothing else fires it.
                    trigger = None;
                    conditions = Conditions::default();
                }
                if triggers.file_contains.is_declared() && !conditions.file_contains.is_declared() {
                    conditions.file_contains = triggers.file_contains;
                }
                if triggers.agent.is_declared() && !conditions.agent.is_declared() {
                    conditions.agent = triggers.agent;
                }
                conditions.match_all |= triggers.match_all;
                let globs = triggers
                    .globs
                    .into_iter()
                    .map(|(glob, line, braces)| GlobSpec {
                        pattern: paths::normalize_for_match(&glob),
                        line,
                        from_sequence: braces,
                    })
                    .filter(|glob| !glob.pattern.is_empty())
                    .collect();
                (globs, triggers.always_apply)
            }
        };
        Rule {
            name: name.to_string(),
            path: path.to_string(),
            document,
            globs,
            always_apply,
            trigger,
            conditions: conditions.into(),
            format,
            mention_only,
            base: None,
        }
    }

    /// The frontmatter, `None` when the file has no frontmatter block.
    pub fn frontmatter(&self) -> Option<&Frontmatter> {
        self.document.frontmatter()
    }

    /// Everything after the frontmatter block, trimmed.
    pub fn body(&self) -> &str {
        &self.document.body
    }
}

/// Cursor's `globs` and Claude Code's `paths`: comma lines (braces
/// literal, as in Cursor) or YAML sequences (braces alternate).
fn cursor_globs(fm: &Frontmatter) -> Vec<GlobSpec> {
    GLOB_KEYS
        .iter()
        .filter_map(|key| fm.get(key))
        .flat_map(|field| {
            let from_sequence = matches!(field.value, FieldValue::List(_));
            field.value.items().into_iter().map(move |item| GlobSpec {
                pattern: paths::normalize_for_match(&item),
                line: field.line,
                from_sequence,
            })
        })
        .filter(|glob| !glob.pattern.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> Rule {
        Rule::parse("r.mdc", "/p/r.mdc", text)
    }

    fn patterns(rule: &Rule) -> Vec<&str> {
        rule.globs.iter().map(|g| g.pattern.as_str()).collect()
    }

    #[test]
    fn a_rule_kept_and_read_back_is_the_same_rule() {
        // With and without conditions (kept as nothing when none), with
        // and without a frontmatter block (kept as its text, read later).
        for text in [
            "---\nglobs: src/**\nos: linux\nbranch: main, feat/*\nmatch: all\n---\n# A",
            "---\ndescription: x\nglobs: [a, \"b\"]\n---\n# B",
            "# no frontmatter",
        ] {
            let rule = rule(text);
            let kept = serde_json::to_string(&rule).unwrap();
            let back: Rule = serde_json::from_str(&kept).unwrap();
            assert_eq!(back, rule, "{text}");
            assert_eq!(back.frontmatter(), rule.frontmatter(), "{text}");
            assert_eq!(back.conditions, rule.conditions, "{text}");
        }
        // A rule declaring none holds nothing, not an empty set.
        assert_eq!(rule("# none").conditions, RuleConditions::default());
        assert_eq!(*rule("# none").conditions, Conditions::default());
        assert_ne!(
            rule("---\nos: linux\n---\n").conditions,
            RuleConditions::default()
        );
    }

    #[test]
    fn original_globs_always_apply_and_triggers() {
        let case_14 = rule("---\nglobs: apps/**/ui/**/*.clj, **/*.cljs\npromptAnyOf: Widget, HTMX\npromptRequires: UI\n---\n");
        assert_eq!(patterns(&case_14), vec!["apps/**/ui/**/*.clj", "**/*.cljs"]);
        assert_eq!(
            case_14.trigger,
            Some(PromptTrigger {
                any_of: vec!["widget".into(), "htmx".into()],
                requires: vec!["ui".into()]
            })
        );
        assert!(patterns(&rule("# none")).is_empty());
        assert!(patterns(&rule("---\nglobs:  , \n---\n")).is_empty());
        for (value, expected) in [
            ("true", true),
            ("True", true),
            ("TRUE", true),
            ("yes", false),
            ("1", false),
            ("\"true\"", false),
            ("false", false),
        ] {
            assert_eq!(
                rule(&format!("---\nalwaysApply: {value}\n---\n")).always_apply,
                expected,
                "{value}"
            );
        }
        assert!(!rule("---\n---\n").always_apply);
        assert_eq!(rule("---\npromptRequires: ui\n---\n").trigger, None);
        assert_eq!(
            rule("---\npromptAnyOf: a, ,\n---\n").trigger,
            Some(PromptTrigger {
                any_of: vec!["a".into()],
                requires: vec![]
            })
        );
    }

    #[test]
    fn paths_is_another_name_for_globs_and_sequences_work() {
        let both = rule("---\nglobs: a/**\npaths:\n  - \"src/**/*.{ts,tsx}\"\n---\n");
        assert_eq!(patterns(&both), vec!["a/**", "src/**/*.{ts,tsx}"]);
        assert!(!both.globs[0].from_sequence && both.globs[1].from_sequence);
        assert_eq!(
            patterns(&rule("---\nglobs: ['./src/*.ts', '\\win\\*.ts']\n---\n")),
            vec!["src/*.ts", "win/*.ts"]
        );
    }

    #[test]
    fn non_utf8_names_file_and_line() {
        let err =
            Rule::from_bytes("bad.mdc", "/p/bad.mdc", b"---\nglobs: a\n---\n\xc3\x28").unwrap_err();
        assert_eq!(err.place, Some(Place::line("/p/bad.mdc", 4)));
        assert!(err.message().contains("not valid UTF-8"));
    }

    #[test]
    fn a_decode_error_carries_its_line_as_data() {
        let err = Rule::from_bytes("bad.mdc", "/p/bad.mdc", b"# R\n\nok\n\xff").unwrap_err();
        assert_eq!(
            err.kind,
            ErrorKind::NotUtf8(crate::base::error::NotUtf8 { offset: 8, line: 4 })
        );
        assert_eq!(err.place, Some(Place::line("/p/bad.mdc", 4)));
        assert_eq!(
            err.to_string(),
            "/p/bad.mdc:4: not valid UTF-8 text (invalid byte at offset 8, line 4)"
        );
    }
}
