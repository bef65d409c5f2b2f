//! `rule-fairy.edn`: reading it and validating each key with the
//! original's exact messages (behaviour §1.1). Each consumer validates its
//! own key when it reads it, so a bad `:instructions` never stops a hook.

pub(crate) mod formats;

use crate::base::contain::Containment;
use crate::base::error::{Error, ErrorKind, Place, Result};
use crate::base::finding::Span;
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::base::text::closest;
use crate::config::formats::{Format, GlobalRules};
use crate::syntax::edn::{self, Edn, Value};

/// The configuration file's name, at the project root (behaviour §1.1).
pub const CONFIG_FILE: &str = "rule-fairy.edn";

const TOP_LEVEL_KEYS: &[&str] = &[
    "rules",
    "instructions",
    "shell-hook",
    "subagents",
    "notify",
    "formats",
    "gate",
];
pub(crate) const DEFAULT_RULE_DIRS: &[&str] = &[".cursor/rules"];
/// Cursor reads `.md` rules beside `.mdc` ones, and `<name>/RULE.md` folders.
pub(crate) const DEFAULT_RULE_EXTENSIONS: &[&str] = &[".mdc", ".md"];
pub(crate) const DEFAULT_INSTRUCTION_FILES: &[&str] = &[
    "AGENTS.override.md",
    "AGENTS.md",
    ".claude/AGENTS.md",
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    "CLAUDE.local.md",
];

/// The top-level map of `rule-fairy.edn`, checked for unknown keys; each
/// key's value is validated by the accessor that reads it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Config {
    entries: Vec<(Edn, Edn)>,
    /// The file errors name: `rule-fairy.edn`, or its path once loaded.
    file: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            entries: Vec::new(),
            file: CONFIG_FILE.to_string(),
        }
    }
}

/// Where rules come from: the project root as given, the resolved rule
/// directories in configured order, and the extensions in configured order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RulesSource {
    /// The project root as given.
    pub root: String,
    /// The rule directories, resolved, in configured order.
    pub dirs: Vec<String>,
    /// The rule file extensions, in configured order.
    pub extensions: Vec<String>,
    /// Other hosts' rule layouts switched on by `:formats`, in that order.
    pub formats: Vec<Format>,
    /// A rules directory outside the project its host reads after the
    /// project's own (behaviour §5.2.4); never from `rule-fairy.edn`.
    pub global: Option<GlobalRules>,
}

/// Where the gate's ast-grep rules and rule tests live beyond `sgconfig.yml`
/// and `.kairoku/rules`: directories as written, relative to the project
/// root (the gate reads them from the working tree or from a git ref).
/// `unchecked` holds the globs of files the gate may leave unchecked
/// (behaviour §8.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GateDirs {
    pub dirs: Vec<String>,
    pub test_dirs: Vec<String>,
    pub unchecked: Vec<String>,
}

/// Whether each harness's shell hook is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShellHook {
    pub claude: bool,
    pub codex: bool,
}

fn at_line(file: &str, line: usize, kind: ErrorKind) -> Error {
    Error::at(Place::line(file, line), kind)
}

/// An error pointing at a key or value as written: its line and columns.
fn at(file: &str, written: &Edn, kind: ErrorKind) -> Error {
    at_line(file, written.line, kind).with_span(written.span())
}

fn unknown_keys(entries: &[(Edn, Edn)], allowed: &[&str]) -> Vec<String> {
    entries
        .iter()
        .filter(|(key, _)| !allowed.iter().any(|name| key.value.is_keyword(name)))
        .map(|(key, _)| key.to_string())
        .collect()
}

/// Each unknown key (as written, `:dir`) with the allowed key it most
/// likely misspells (`:dirs`).
fn with_nearest(unknown: Vec<String>, allowed: &[&str]) -> Vec<(String, Option<String>)> {
    unknown
        .into_iter()
        .map(|key| {
            let near = closest(key.trim_start_matches(':'), allowed.iter().copied())
                .map(|near| format!(":{near}"));
            (key, near)
        })
        .collect()
}

fn first_unknown<'a>(entries: &'a [(Edn, Edn)], allowed: &[&str]) -> Option<&'a Edn> {
    entries
        .iter()
        .find(|(key, _)| !allowed.iter().any(|name| key.value.is_keyword(name)))
        .map(|(key, _)| key)
}

/// Checks a nested map's keys; `label` is the key as it appears in messages.
fn nested_map<'a>(
    file: &str,
    value: &'a Edn,
    label: &str,
    allowed: &[&str],
) -> Result<&'a [(Edn, Edn)]> {
    let entries = value.value.as_map().ok_or_else(|| {
        at(
            file,
            value,
            ErrorKind::ConfigSectionNotMap {
                section: label.to_string(),
            },
        )
    })?;
    if let Some(first) = first_unknown(entries, allowed) {
        return Err(at(
            file,
            first,
            ErrorKind::UnknownConfigKeys {
                section: Some(label.to_string()),
                keys: with_nearest(unknown_keys(entries, allowed), allowed),
            },
        ));
    }
    Ok(entries)
}

fn lookup<'a>(entries: &'a [(Edn, Edn)], name: &str) -> Option<&'a Edn> {
    entries
        .iter()
        .find(|(key, _)| key.value.is_keyword(name))
        .map(|(_, value)| value)
}

/// A vector or list of strings that each pass `valid`.
fn strings(value: &Edn, non_empty: bool, valid: impl Fn(&str) -> bool) -> Option<Vec<String>> {
    let items = value.value.as_sequential()?;
    if non_empty && items.is_empty() {
        return None;
    }
    items
        .iter()
        .map(|item| match &item.value {
            Value::Str(s) if valid(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// Whether `dir`, as configured, names the project root or a directory
/// below it, lexically: joined to the root and normalised, it keeps the
/// root as its base. Links are the walk's to judge (behaviour §1.2).
fn within(root: &str, dir: &str) -> bool {
    let root = paths::normalize_lexically(root);
    let joined = paths::normalize_lexically(&paths::join(&root, dir));
    let escapes = |path: &str| path == ".." || path.starts_with("../");
    if root == "." {
        return !paths::is_absolute(&joined) && !escapes(&joined);
    }
    paths::strip_base(&joined, &root).is_some()
}

fn is_extension(ext: &str) -> bool {
    ext.len() > 1 && ext.starts_with('.') && ext[1..].chars().all(|c| c.is_ascii_alphanumeric())
}

impl Config {
    /// Parses the text of `rule-fairy.edn` and checks its top-level keys.
    ///
    /// ```
    /// use rule_fairy_engine::Config;
    /// let err = Config::parse("{:rule {:dirs [\"x\"]}}").unwrap_err();
    /// assert_eq!(err.message(), "Unknown keys in rule-fairy.edn: :rule (did you mean :rules?)");
    /// assert_eq!(err.to_string(), "rule-fairy.edn:1: Unknown keys in rule-fairy.edn: :rule (did you mean :rules?)");
    /// ```
    pub fn parse(text: &str) -> Result<Config> {
        Config::parse_file(text, CONFIG_FILE)
    }

    /// Like [`Config::parse`], naming `file` in every error.
    pub fn parse_file(text: &str, file: &str) -> Result<Config> {
        let form = edn::read(text).map_err(|e| {
            at_line(
                file,
                e.line,
                ErrorKind::ConfigSyntax {
                    message: e.message,
                    line: e.line,
                    column: e.column,
                },
            )
            .with_span(Span::at(e.column, 1))
        })?;
        let Some(form) = form else {
            return Err(at_line(file, 1, ErrorKind::ConfigNotMap));
        };
        let not_map = at(file, &form, ErrorKind::ConfigNotMap);
        let Value::Map(entries) = form.value else {
            return Err(not_map);
        };
        if let Some(first) = first_unknown(&entries, TOP_LEVEL_KEYS) {
            return Err(at(
                file,
                first,
                ErrorKind::UnknownConfigKeys {
                    section: None,
                    keys: with_nearest(unknown_keys(&entries, TOP_LEVEL_KEYS), TOP_LEVEL_KEYS),
                },
            ));
        }
        Ok(Config {
            entries,
            file: file.to_string(),
        })
    }

    /// Reads `<root>/rule-fairy.edn` when it is a regular file; otherwise the
    /// defaults.
    pub fn load(fs: &dyn FileSource, root: &str) -> Result<Config> {
        let path = paths::join(root, CONFIG_FILE);
        if !fs.is_file(&path) {
            return Ok(Config::default());
        }
        // Inside the project, within the read bound (behaviour §0.1).
        let bytes = Containment::project(fs, root)
            .read(fs, &path)
            .map_err(|why| {
                Error::at(
                    Place::file(&path),
                    ErrorKind::CannotReadConfig {
                        reason: why.to_string(),
                    },
                )
            })?;
        let text = crate::base::text::decode(&bytes)
            .map_err(|e| Error::at(Place::line(&path, e.line), ErrorKind::NotUtf8(e)))?;
        Config::parse_file(&text, &path)
    }

    fn get(&self, name: &str) -> Option<&Edn> {
        lookup(&self.entries, name).filter(|value| !matches!(value.value, Value::Nil))
    }

    /// True when the configuration has a key, even one set to nil.
    pub fn has(&self, name: &str) -> bool {
        lookup(&self.entries, name).is_some()
    }

    /// The rules source for a project root (behaviour §1.1, `:rules`).
    pub fn rules_source(&self, root: &str) -> Result<RulesSource> {
        let mut dirs: Vec<String> = DEFAULT_RULE_DIRS
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        let mut extensions: Vec<String> = DEFAULT_RULE_EXTENSIONS
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        if let Some(rules) = self.get("rules") {
            let entries = nested_map(&self.file, rules, ":rules", &["dirs", "extensions"])?;
            if let Some(value) = lookup(entries, "dirs") {
                dirs = strings(value, true, |s| !s.is_empty())
                    .ok_or_else(|| at(&self.file, value, ErrorKind::RuleDirsValue))?;
                // Rule sources stay inside the project (behaviour §1.1):
                // the line is the offending entry's own.
                let items = value.value.as_sequential().unwrap_or_default();
                for (dir, item) in dirs.iter().zip(items) {
                    if !within(root, dir) {
                        return Err(at(
                            &self.file,
                            item,
                            ErrorKind::RuleDirOutsideProject { dir: dir.clone() },
                        ));
                    }
                }
            }
            if let Some(value) = lookup(entries, "extensions") {
                extensions = strings(value, true, is_extension)
                    .ok_or_else(|| at(&self.file, value, ErrorKind::RuleExtensionsValue))?;
            }
        }
        let dirs = dirs
            .iter()
            .map(|dir| paths::normalize_lexically(&paths::join(root, dir)))
            .collect();
        Ok(RulesSource {
            root: root.to_string(),
            dirs,
            extensions,
            formats: self.formats()?,
            global: None,
        })
    }

    /// The other hosts' rule layouts `:formats` switches on, like
    /// `[:claude :copilot]`.
    pub fn formats(&self) -> Result<Vec<Format>> {
        let Some(value) = self.get("formats") else {
            return Ok(Vec::new());
        };
        let known = || {
            formats::LAYOUTS
                .iter()
                .map(|l| format!(":{}", l.key))
                .collect::<Vec<_>>()
        };
        let items = value.value.as_sequential().ok_or_else(|| {
            at(
                &self.file,
                value,
                ErrorKind::FormatsValue { known: known() },
            )
        })?;
        let mut chosen = Vec::new();
        for item in items {
            let layout = match &item.value {
                Value::Keyword(key) => formats::layout(key),
                _ => None,
            };
            let Some(layout) = layout else {
                return Err(at(
                    &self.file,
                    item,
                    ErrorKind::UnknownFormat {
                        format: item.to_string(),
                        known: known(),
                    },
                ));
            };
            if !chosen.contains(&layout.format) {
                chosen.push(layout.format);
            }
        }
        Ok(chosen)
    }

    /// Whether the configuration has a `:gate` entry, valid or not.
    pub fn has_gate(&self) -> bool {
        self.get("gate").is_some()
    }

    /// The gate's rule and test directories and the files it may leave
    /// unchecked, `:gate {:dirs [...] :test-dirs [...] :unchecked [...]}`;
    /// none when the key is absent.
    pub fn gate_dirs(&self) -> Result<GateDirs> {
        let Some(value) = self.get("gate") else {
            return Ok(GateDirs::default());
        };
        let entries = nested_map(
            &self.file,
            value,
            ":gate",
            &["dirs", "test-dirs", "unchecked"],
        )?;
        let mut gate = GateDirs::default();
        for (key, field, target) in [
            ("dirs", ":gate :dirs", &mut gate.dirs),
            ("test-dirs", ":gate :test-dirs", &mut gate.test_dirs),
        ] {
            if let Some(value) = lookup(entries, key) {
                *target = strings(value, true, |s| !s.trim().is_empty()).ok_or_else(|| {
                    at(
                        &self.file,
                        value,
                        ErrorKind::GateDirsValue {
                            key: field.to_string(),
                        },
                    )
                })?;
            }
        }
        if let Some(value) = lookup(entries, "unchecked") {
            gate.unchecked = strings(value, true, |s| !s.trim().is_empty())
                .ok_or_else(|| at(&self.file, value, ErrorKind::GateUncheckedValue))?;
        }
        Ok(gate)
    }

    /// The shell-hook switch per harness (behaviour §1.1, `:shell-hook`).
    pub fn shell_hook(&self) -> Result<ShellHook> {
        let mut hook = ShellHook {
            claude: true,
            codex: false,
        };
        if let Some(value) = lookup(&self.entries, "shell-hook") {
            let entries = nested_map(&self.file, value, ":shell-hook", &["claude", "codex"])?;
            for (key, value) in entries {
                let Value::Bool(on) = value.value else {
                    return Err(at(&self.file, value, ErrorKind::ShellHookValue));
                };
                if key.value.is_keyword("claude") {
                    hook.claude = on;
                } else {
                    hook.codex = on;
                }
            }
        }
        Ok(hook)
    }

    /// Whether subagents get the rules as the main thread does (behaviour
    /// §1.1, `:subagents`; on unless `false`).
    pub fn subagents(&self) -> Result<bool> {
        match lookup(&self.entries, "subagents") {
            None => Ok(true),
            Some(value) => match value.value {
                Value::Bool(on) => Ok(on),
                _ => Err(at(&self.file, value, ErrorKind::SubagentsValue)),
            },
        }
    }

    /// Whether the person sees a line for each delivery (behaviour §1.1,
    /// `:notify`; on unless `false`).
    pub fn notify_setting(&self) -> Result<bool> {
        match lookup(&self.entries, "notify") {
            None => Ok(true),
            Some(value) => match value.value {
                Value::Bool(on) => Ok(on),
                _ => Err(at(&self.file, value, ErrorKind::NotifyValue)),
            },
        }
    }

    /// Whether a host shows the delivery lines: a bad `:notify` is for
    /// `check` to tell, and the lines stay on, since they only inform.
    pub fn notify(&self) -> bool {
        self.notify_setting().unwrap_or(true)
    }

    /// The instruction file names the review reads, normalised (behaviour §6.3).
    pub fn instruction_files(&self) -> Result<Vec<String>> {
        let Some(value) = self.get("instructions") else {
            return Ok(DEFAULT_INSTRUCTION_FILES
                .iter()
                .map(std::string::ToString::to_string)
                .collect());
        };
        let entries = nested_map(&self.file, value, ":instructions", &["files"])?;
        let Some(files) = lookup(entries, "files") else {
            return Ok(DEFAULT_INSTRUCTION_FILES
                .iter()
                .map(std::string::ToString::to_string)
                .collect());
        };
        let names = strings(files, false, |s| !s.trim().is_empty())
            .ok_or_else(|| at(&self.file, files, ErrorKind::InstructionFilesValue))?;
        Ok(names
            .iter()
            .map(|name| paths::normalize_for_match(name))
            .collect())
    }

    /// The file this configuration was read from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Every key's validation at once, for `check`.
    pub fn validate(&self, root: &str) -> Vec<Error> {
        [
            self.rules_source(root).err(),
            self.shell_hook().err(),
            self.subagents().err(),
            self.notify_setting().err(),
            self.instruction_files().err(),
            self.gate_dirs().err(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str, check: impl Fn(&Config) -> Result<()>) -> String {
        match Config::parse(text) {
            Err(e) => e.message(),
            Ok(config) => check(&config).unwrap_err().message(),
        }
    }

    fn rules_error(text: &str) -> String {
        message(text, |c| c.rules_source("/p").map(|_| ()))
    }

    #[test]
    fn defaults_without_a_config() {
        let source = Config::default().rules_source("/p").unwrap();
        assert_eq!(source.dirs, vec!["/p/.cursor/rules"]);
        assert_eq!(source.extensions, vec![".mdc", ".md"]);
        assert_eq!(
            Config::default().rules_source(".").unwrap().dirs,
            vec![".cursor/rules"]
        );
    }

    #[test]
    fn configured_dirs_resolve_against_the_root() {
        let config = Config::parse(
            "{:rules {:dirs [\"docs/rules\" \"/p/abs/elsewhere\"] :extensions [\".md\" \".mdc\"]}}",
        )
        .unwrap();
        let source = config.rules_source("/p").unwrap();
        assert_eq!(source.dirs, vec!["/p/docs/rules", "/p/abs/elsewhere"]);
        assert_eq!(source.extensions, vec![".md", ".mdc"]);
        let lexical = Config::parse("{:rules {:dirs [\"./a/../b\"]}}").unwrap();
        assert_eq!(lexical.rules_source("/p").unwrap().dirs, vec!["/p/b"]);
    }

    #[test]
    fn a_rules_directory_outside_the_project_is_an_error_at_its_line() {
        // issue 20: `{:rules {:dirs ["/"]}}` walked the whole file system.
        for (dir, root) in [
            ("/", "/p"),
            ("../shared", "/p"),
            ("/etc/rules", "/p"),
            ("/pp", "/p"),
            ("a/../../b", "/p"),
            ("..", "."),
            ("/abs", "."),
        ] {
            let text = format!("{{:rules\n {{:dirs [\".cursor/rules\"\n         \"{dir}\"]}}}}");
            let config = Config::parse_file(&text, "/p/rule-fairy.edn").unwrap();
            let error = config.rules_source(root).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("/p/rule-fairy.edn:3: :rules :dirs in rule-fairy.edn names a directory outside the project: {dir}"),
                "{dir} under {root}"
            );
            assert!(!config.validate(root).is_empty(), "check reports it");
        }
        for inside in [".", "./a/../b", "/p", "/p/x"] {
            let text = format!("{{:rules {{:dirs [\"{inside}\"]}}}}");
            assert!(
                Config::parse(&text).unwrap().rules_source("/p").is_ok(),
                "{inside}"
            );
        }
    }

    #[test]
    fn original_messages_for_bad_rules() {
        assert!(rules_error("[:not :a :map]").contains("must contain a map"));
        assert_eq!(rules_error(""), "rule-fairy.edn must contain a map");
        assert_eq!(rules_error("nil"), "rule-fairy.edn must contain a map");
        assert_eq!(
            rules_error("{:rules [:dirs]}"),
            ":rules in rule-fairy.edn must be a map"
        );
        for bad in [
            "{:rules {:dirs []}}",
            "{:rules {:dirs \"docs\"}}",
            "{:rules {:dirs [\"\"]}}",
            "{:rules {:dirs nil}}",
        ] {
            assert!(
                rules_error(bad).contains(":dirs in rule-fairy.edn"),
                "{bad}"
            );
        }
        for bad in [
            "{:rules {:extensions [\"md\"]}}",
            "{:rules {:extensions []}}",
            "{:rules {:extensions [\".tar.gz\"]}}",
            "{:rules {:extensions [\".\"]}}",
        ] {
            assert!(
                rules_error(bad).contains(":extensions in rule-fairy.edn"),
                "{bad}"
            );
        }
        assert_eq!(
            rules_error("{:rules {:dir \"x\"}}"),
            "Unknown :rules keys in rule-fairy.edn: :dir (did you mean :dirs?)"
        );
        assert_eq!(
            rules_error("{:rule {:dirs [\"x\"]}}"),
            "Unknown keys in rule-fairy.edn: :rule (did you mean :rules?)"
        );
        assert_eq!(
            rules_error("{:rule 1 \"x\" 2 :rules nil}"),
            "Unknown keys in rule-fairy.edn: :rule (did you mean :rules?), \"x\""
        );
        assert!(Config::parse("{:rules nil}")
            .unwrap()
            .rules_source("/p")
            .is_ok());
        assert!(Config::parse("{:rules {:dirs (\"a\")}}")
            .unwrap()
            .rules_source("/p")
            .is_ok());
    }

    #[test]
    fn errors_name_the_line() {
        let err = Config::parse("{:rules\n {:dirs\n  []}}")
            .unwrap()
            .rules_source("/p")
            .unwrap_err();
        assert_eq!(err.place, Some(Place::line(CONFIG_FILE, 3)));
        let syntax = Config::parse("{:rules\n {:dirs [\"a\"}}").unwrap_err();
        assert_eq!(syntax.place, Some(Place::line(CONFIG_FILE, 2)));
    }

    #[test]
    fn errors_point_at_the_key_or_value_as_written() {
        // (text, the error's line, the columns it marks)
        let cases: [(&str, usize, (usize, usize)); 8] = [
            ("{:rules {:dirs [\"a\"]}\n :notifi true}", 2, (2, 9)),
            ("{:rules {:dir [\"a\"]}}", 1, (10, 14)),
            ("{:notify \"no\"}", 1, (10, 14)),
            ("{:formats [:claude :cursorrules]}", 1, (20, 32)),
            ("{:formats :claude}", 1, (11, 18)),
            ("{:rules {:dirs [\"a\" \"../x\"]}}", 1, (21, 27)),
            ("{:shell-hook {:codex \"yes\"}}", 1, (22, 27)),
            ("{:gate\n  {:dirs\n   [\n  ]}}", 3, (4, 5)),
        ];
        for (text, line, (column, end_column)) in cases {
            let config = Config::parse(text);
            let error = match config {
                Err(e) => e,
                Ok(config) => config.validate("/p").remove(0),
            };
            assert_eq!(error.place, Some(Place::line(CONFIG_FILE, line)), "{text}");
            assert_eq!(
                error.span.as_deref(),
                Some(&Span { column, end_column }),
                "{text}: {}",
                error.message()
            );
        }
        let syntax = Config::parse("{:a 1\n :b}").unwrap_err();
        assert_eq!(
            syntax.span.as_deref(),
            Some(&Span::at(1, 1)),
            "the map that is odd"
        );
    }

    #[test]
    fn formats_switch_on_other_hosts_layouts() {
        let config = Config::parse("{:formats [:claude :copilot :claude]}").unwrap();
        assert_eq!(
            config.rules_source("/p").unwrap().formats,
            vec![Format::Claude, Format::Copilot]
        );
        assert!(Config::default()
            .rules_source("/p")
            .unwrap()
            .formats
            .is_empty());
        let unknown = Config::parse("{:formats [:cursorrules]}")
            .unwrap()
            .rules_source("/p")
            .unwrap_err();
        assert_eq!(unknown.message(), "Unknown rule format in rule-fairy.edn: :cursorrules (known: :claude :copilot :windsurf :cline :opencode :continue :roo)");
        let shape = Config::parse("{:formats :claude}")
            .unwrap()
            .formats()
            .unwrap_err();
        assert!(shape
            .message()
            .starts_with(":formats in rule-fairy.edn must be a vector of rule formats"));
    }

    #[test]
    fn gate_dirs_are_read_and_validated() {
        assert_eq!(Config::default().gate_dirs().unwrap(), GateDirs::default());
        let config =
            Config::parse("{:gate {:dirs [\"lint/ast\" \"more\"] :test-dirs [\"lint/tests\"]}}")
                .unwrap();
        assert_eq!(
            config.gate_dirs().unwrap(),
            GateDirs {
                dirs: vec!["lint/ast".into(), "more".into()],
                test_dirs: vec!["lint/tests".into()],
                unchecked: Vec::new(),
            }
        );
        let config = Config::parse("{:gate {:unchecked [\"vendor/**\"]}}").unwrap();
        assert_eq!(config.gate_dirs().unwrap().unchecked, vec!["vendor/**"]);
        for bad in ["[]", "\"vendor/**\"", "[\"\"]", "[:vendor]"] {
            let text = format!("{{:gate {{:unchecked {bad}}}}}");
            assert_eq!(
                message(&text, |c| c.gate_dirs().map(|_| ())),
                ":gate :unchecked in rule-fairy.edn must be a non-empty vector of globs relative to the project, like [\"vendor/**\"]",
                "{bad}"
            );
        }
        let gate = |text: &str| message(text, |c| c.gate_dirs().map(|_| ()));
        assert_eq!(
            gate("{:gate [\"rules\"]}"),
            ":gate in rule-fairy.edn must be a map"
        );
        assert_eq!(
            gate("{:gate {:dir [\"x\"]}}"),
            "Unknown :gate keys in rule-fairy.edn: :dir (did you mean :dirs?)"
        );
        for bad in [
            "{:gate {:dirs []}}",
            "{:gate {:dirs \"rules\"}}",
            "{:gate {:dirs [\" \"]}}",
            "{:gate {:dirs [:rules]}}",
        ] {
            assert!(
                gate(bad).starts_with(":gate :dirs in rule-fairy.edn must be a non-empty vector"),
                "{bad}"
            );
        }
        assert!(gate("{:gate {:test-dirs []}}").starts_with(":gate :test-dirs in rule-fairy.edn"));
        // The error names the line of the bad value, and `check` sees it.
        let config = Config::parse("{:gate\n {:dirs\n  []}}").unwrap();
        assert_eq!(
            config.gate_dirs().unwrap_err().place,
            Some(Place::line(CONFIG_FILE, 3))
        );
        assert_eq!(config.validate("/p").len(), 1);
        // A bad :gate leaves the rules usable.
        assert!(config.rules_source("/p").is_ok());
    }

    #[test]
    fn notify_defaults_to_on_and_a_bad_value_is_told_by_check() {
        assert!(Config::parse("{}").unwrap().notify());
        assert!(!Config::parse("{:notify false}").unwrap().notify());
        let bad = Config::parse("{:notify \"no\"}").unwrap();
        assert!(bad.notify());
        assert_eq!(
            bad.notify_setting().unwrap_err().to_string(),
            "rule-fairy.edn:1: :notify in rule-fairy.edn must be true or false"
        );
        assert_eq!(bad.validate("/p").len(), 1);
    }

    #[test]
    fn shell_hook_defaults_and_errors() {
        assert_eq!(
            Config::default().shell_hook().unwrap(),
            ShellHook {
                claude: true,
                codex: false
            }
        );
        assert!(Config::parse("{}").unwrap().subagents().unwrap());
        assert!(!Config::parse("{:subagents false}")
            .unwrap()
            .subagents()
            .unwrap());
        assert_eq!(
            message("{:subagents \"no\"}", |c| c.subagents().map(drop)),
            ":subagents in rule-fairy.edn must be true or false"
        );
        let both = Config::parse("{:shell-hook {:claude false :codex true}}").unwrap();
        assert_eq!(
            both.shell_hook().unwrap(),
            ShellHook {
                claude: false,
                codex: true
            }
        );
        let codex = Config::parse("{:shell-hook {:codex true}}").unwrap();
        assert_eq!(
            codex.shell_hook().unwrap(),
            ShellHook {
                claude: true,
                codex: true
            }
        );
        let shell = |text: &str| message(text, |c| c.shell_hook().map(|_| ()));
        assert_eq!(
            shell("{:shell-hook true}"),
            ":shell-hook in rule-fairy.edn must be a map"
        );
        assert_eq!(
            shell("{:shell-hook {:cursor true}}"),
            "Unknown :shell-hook keys in rule-fairy.edn: :cursor"
        );
        assert_eq!(
            shell("{:shell-hook {:codex \"yes\"}}"),
            ":shell-hook values in rule-fairy.edn must be true or false"
        );
        assert_eq!(
            shell("{:shell-hook nil}"),
            ":shell-hook in rule-fairy.edn must be a map"
        );
    }

    #[test]
    fn instructions_are_validated_only_when_read() {
        let instructions = |text: &str| message(text, |c| c.instruction_files().map(|_| ()));
        assert_eq!(
            instructions("{:instructions [:files]}"),
            ":instructions in rule-fairy.edn must be a map"
        );
        assert_eq!(
            instructions("{:instructions {:file [\"x\"]}}"),
            "Unknown :instructions keys in rule-fairy.edn: :file (did you mean :files?)"
        );
        assert!(instructions("{:instructions {:files \"CLAUDE.md\"}}")
            .contains(":instructions :files in rule-fairy.edn"));
        assert!(instructions("{:instructions {:files [\"\"]}}")
            .contains(":instructions :files in rule-fairy.edn"));
        assert_eq!(
            instructions("{:instruction {}}"),
            "Unknown keys in rule-fairy.edn: :instruction (did you mean :instructions?)"
        );
        // A bad :instructions leaves the rules and the shell hook usable (7.1 case 13).
        let config = Config::parse("{:instructions [:files]}").unwrap();
        assert!(config.rules_source("/p").is_ok() && config.shell_hook().is_ok());
        assert_eq!(config.validate("/p").len(), 1);
        let empty = Config::parse("{:instructions {:files []}}").unwrap();
        assert!(empty.instruction_files().unwrap().is_empty());
        let custom = Config::parse("{:instructions {:files [\"./AGENTS.md\"]}}").unwrap();
        assert_eq!(custom.instruction_files().unwrap(), vec!["AGENTS.md"]);
    }
}
