//! Other hosts' rule files as rule sources, each mapped onto the one rule
//! model: Claude Code's `.claude/rules/`, GitHub Copilot's
//! `.github/instructions/`, Windsurf's `.windsurf/rules/`, Cline's
//! `.clinerules/`, opencode-rules' `.opencode/rules/`, Continue's
//! `.continue/rules/` and Roo Code's `.roo/rules*/`. Each is switched on by
//! name in `rule-fairy.edn` (`:formats [:claude :copilot]`). The legacy
//! one-file forms at the project root (`.cursorrules`, `.windsurfrules`)
//! are listed here too, so every format's places live in one table.

/// The dialect a rule file is written in.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
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
    /// `.continue/rules/**/*.md`: `globs`, `regex` on content,
    /// `description`, and `alwaysApply` true, false or absent.
    Continue,
    /// `.roo/rules/` (always on) and `.roo/rules-<mode>/` (on in that mode,
    /// an `agent` condition).
    Roo,
}

impl Format {
    /// The tool whose dialect this is, as people call it.
    ///
    /// ```
    /// use rule_fairy_engine::Format;
    /// assert_eq!(Format::Copilot.name(), "GitHub Copilot");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Format::Cursor => "Cursor",
            Format::Claude => "Claude Code",
            Format::Copilot => "GitHub Copilot",
            Format::Windsurf => "Windsurf",
            Format::Cline => "Cline",
            Format::Opencode => "opencode-rules",
            Format::Continue => "Continue",
            Format::Roo => "Roo Code",
        }
    }
}

/// Where a format keeps its rules, relative to the project root, and
/// which files there are rules.
pub(crate) struct Layout {
    pub format: Format,
    /// The keyword naming it in `rule-fairy.edn`.
    pub key: &'static str,
    pub dir: &'static str,
    pub suffixes: &'static [&'static str],
    /// Skip files and directories whose names start with `.`.
    pub skip_hidden: bool,
    /// The location may be one file instead of a folder.
    pub may_be_file: bool,
    /// Which paths below the folder (relative, `/`-separated) may hold
    /// rules: Roo keeps only `rules/` and `rules-<mode>/` under `.roo`.
    pub holds: fn(&str) -> bool,
}

fn anywhere(_: &str) -> bool {
    true
}

/// Roo Code's rule folders under `.roo`: `rules/` and `rules-<mode>/`.
fn roo_rule_folders(rel: &str) -> bool {
    roo_mode(rel).is_some()
}

/// The folder a Roo rule lies in, below `.roo`: `Some("")` for `rules/`,
/// `Some(mode)` for `rules-<mode>/`; `None` elsewhere.
pub(crate) fn roo_mode(rel: &str) -> Option<&str> {
    let (first, rest) = rel.split_once('/')?;
    if rest.is_empty() {
        return None;
    }
    match first.strip_prefix("rules") {
        Some("") => Some(""),
        Some(mode) => mode.strip_prefix('-').filter(|m| !m.is_empty()),
        None => None,
    }
}

pub(crate) const LAYOUTS: &[Layout] = &[
    Layout {
        format: Format::Claude,
        key: "claude",
        dir: ".claude/rules",
        suffixes: &[".md"],
        skip_hidden: false,
        may_be_file: false,
        holds: anywhere,
    },
    Layout {
        format: Format::Copilot,
        key: "copilot",
        dir: ".github/instructions",
        suffixes: &[".instructions.md"],
        skip_hidden: false,
        may_be_file: false,
        holds: anywhere,
    },
    Layout {
        format: Format::Windsurf,
        key: "windsurf",
        dir: ".windsurf/rules",
        suffixes: &[".md"],
        skip_hidden: false,
        may_be_file: false,
        holds: anywhere,
    },
    Layout {
        format: Format::Cline,
        key: "cline",
        dir: ".clinerules",
        suffixes: &[".md", ".txt"],
        skip_hidden: false,
        may_be_file: true,
        holds: anywhere,
    },
    Layout {
        format: Format::Opencode,
        key: "opencode",
        dir: ".opencode/rules",
        suffixes: &[".md", ".mdc"],
        skip_hidden: true,
        may_be_file: false,
        holds: anywhere,
    },
    Layout {
        format: Format::Continue,
        key: "continue",
        dir: ".continue/rules",
        suffixes: &[".md"],
        skip_hidden: false,
        may_be_file: false,
        holds: anywhere,
    },
    Layout {
        format: Format::Roo,
        key: "roo",
        dir: ".roo",
        suffixes: &[".md", ".txt"],
        skip_hidden: false,
        may_be_file: false,
        holds: roo_rule_folders,
    },
];

/// A legacy one-file rule at the project root, always on: Cursor's
/// `.cursorrules` (read with Cursor's folder, `.cursor/rules`) and
/// Windsurf's `.windsurfrules` (read with `:windsurf`).
pub(crate) struct LegacyFile {
    pub file: &'static str,
    pub format: Format,
}

pub(crate) const LEGACY_FILES: &[LegacyFile] = &[
    LegacyFile {
        file: ".cursorrules",
        format: Format::Cursor,
    },
    LegacyFile {
        file: ".windsurfrules",
        format: Format::Windsurf,
    },
];

/// Cursor's own folder, whose presence among `:rules :dirs` (the default)
/// brings `.cursorrules` along.
pub(crate) const CURSOR_DIR: &str = ".cursor/rules";

/// Whether `path` is a format's legacy root file (by its file name).
pub(crate) fn is_legacy_file(format: Format, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    LEGACY_FILES
        .iter()
        .any(|legacy| legacy.format == format && legacy.file == name)
}

pub(crate) fn layout(key: &str) -> Option<&'static Layout> {
    LAYOUTS.iter().find(|l| l.key == key)
}

/// A rules directory outside the project that a host reads as one more
/// source, after the project's, with opencode-rules' semantics (behaviour
/// §5.2.4): opencode-rules' global rules directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GlobalRules {
    /// The directory, absolute and normalised.
    pub dir: String,
    /// How the names of its rules begin: the directory with the home
    /// directory shown as `~`, so a name says where the file is and never
    /// equals a project rule's (those are relative to a rules folder).
    pub shown: String,
}

impl GlobalRules {
    /// The global rules directory `dir`, its names shown from `home`;
    /// `None` when `dir` is not absolute (it could be read from nowhere).
    ///
    /// ```
    /// use rule_fairy_engine::GlobalRules;
    /// let global = GlobalRules::new("/home/u/.config/opencode/rules", Some("/home/u")).unwrap();
    /// assert_eq!(global.shown, "~/.config/opencode/rules");
    /// let elsewhere = GlobalRules::new("/etc/opencode/rules/", Some("/home/u")).unwrap();
    /// assert_eq!(elsewhere.shown, "/etc/opencode/rules");
    /// assert_eq!(GlobalRules::new("rules", None), None);
    /// ```
    pub fn new(dir: &str, home: Option<&str>) -> Option<GlobalRules> {
        if !crate::base::paths::is_absolute(dir) {
            return None;
        }
        let dir = crate::base::paths::normalize_lexically(dir);
        let below_home = home
            .filter(|home| crate::base::paths::is_absolute(home))
            .map(crate::base::paths::normalize_lexically)
            .and_then(|home| crate::base::paths::strip_base(&dir, &home).map(str::to_string));
        let shown = match below_home {
            Some(rest) if rest.is_empty() => "~".to_string(),
            Some(rest) => format!("~/{rest}"),
            None => dir.clone(),
        };
        Some(GlobalRules { dir, shown })
    }

    /// The name of the rule at `rel` (relative to the directory).
    pub(crate) fn name(&self, rel: &str) -> String {
        format!("{}/{rel}", self.shown)
    }
}

/// opencode-rules' global rules directory (behaviour §5.2.4): the first
/// that applies of `$OPENCODE_CONFIG_DIR/rules`,
/// `$XDG_CONFIG_HOME/opencode/rules` and `$HOME/.config/opencode/rules`,
/// given each variable's value. A variable applies when it is set to an
/// absolute path; an empty or relative value is passed over, as the XDG
/// specification says of relative ones. `None` when none applies.
///
/// ```
/// use rule_fairy_engine::opencode_global_rules;
/// assert_eq!(opencode_global_rules(Some("/x"), Some("/xdg"), Some("/h")).as_deref(), Some("/x/rules"));
/// assert_eq!(opencode_global_rules(None, Some("/xdg"), Some("/h")).as_deref(), Some("/xdg/opencode/rules"));
/// assert_eq!(opencode_global_rules(Some(""), None, Some("/h")).as_deref(), Some("/h/.config/opencode/rules"));
/// assert_eq!(opencode_global_rules(None, None, None), None);
/// ```
pub fn opencode_global_rules(
    config_dir: Option<&str>,
    xdg_config_home: Option<&str>,
    home: Option<&str>,
) -> Option<String> {
    fn applies(value: Option<&str>) -> Option<&str> {
        value.filter(|v| crate::base::paths::is_absolute(v))
    }
    let under = |base: &str, rest: &str| {
        crate::base::paths::normalize_lexically(&crate::base::paths::join(base, rest))
    };
    applies(config_dir)
        .map(|dir| under(dir, "rules"))
        .or_else(|| applies(xdg_config_home).map(|dir| under(dir, "opencode/rules")))
        .or_else(|| applies(home).map(|dir| under(dir, ".config/opencode/rules")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_global_directory_is_the_first_variable_that_applies() {
        let all = (Some("/c"), Some("/x"), Some("/h"));
        assert_eq!(
            opencode_global_rules(all.0, all.1, all.2).as_deref(),
            Some("/c/rules")
        );
        // Unset, empty and relative values are passed over in turn.
        for config_dir in [None, Some(""), Some("conf")] {
            assert_eq!(
                opencode_global_rules(config_dir, all.1, all.2).as_deref(),
                Some("/x/opencode/rules")
            );
            for xdg in [None, Some(""), Some("./xdg")] {
                assert_eq!(
                    opencode_global_rules(config_dir, xdg, all.2).as_deref(),
                    Some("/h/.config/opencode/rules")
                );
                assert_eq!(opencode_global_rules(config_dir, xdg, Some("")), None);
            }
        }
        assert_eq!(
            opencode_global_rules(Some("/c/"), None, None).as_deref(),
            Some("/c/rules")
        );
    }

    #[test]
    fn global_rules_are_named_from_the_home_directory() {
        let global = GlobalRules::new("/h/.config/opencode/rules", Some("/h/")).unwrap();
        assert_eq!(global.name("style.md"), "~/.config/opencode/rules/style.md");
        // A home that is only a prefix of the directory's name is not its home.
        let other = GlobalRules::new("/home2/rules", Some("/home")).unwrap();
        assert_eq!(other.name("a/b.md"), "/home2/rules/a/b.md");
        assert_eq!(GlobalRules::new("/h", Some("/h")).unwrap().shown, "~");
        assert_eq!(
            GlobalRules::new("/x/rules", Some("relative"))
                .unwrap()
                .shown,
            "/x/rules"
        );
    }

    #[test]
    fn roo_keeps_its_rule_folders_only() {
        assert_eq!(roo_mode("rules/a.md"), Some(""));
        assert_eq!(roo_mode("rules/deep/a.md"), Some(""));
        assert_eq!(roo_mode("rules-code/a.md"), Some("code"));
        for other in [
            "rules-/a.md",
            "rulesx/a.md",
            "commands/a.md",
            "a.md",
            "rules",
        ] {
            assert_eq!(roo_mode(other), None, "{other}");
        }
        assert!(is_legacy_file(Format::Cursor, "/p/.cursorrules"));
        assert!(!is_legacy_file(Format::Windsurf, "/p/.cursorrules"));
        assert!(is_legacy_file(Format::Windsurf, ".windsurfrules"));
    }
}
