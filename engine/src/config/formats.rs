//! Other hosts' rule files as rule sources, each mapped onto the one rule
//! model: Claude Code's `.claude/rules/`, GitHub Copilot's
//! `.github/instructions/`, Windsurf's `.windsurf/rules/`, Cline's
//! `.clinerules/` and opencode-rules' `.opencode/rules/`. Each is switched on
//! by name in `rule-fairy.edn` (`:formats [:claude :copilot]`).

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
}

pub(crate) const LAYOUTS: &[Layout] = &[
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

pub(crate) fn layout(key: &str) -> Option<&'static Layout> {
    LAYOUTS.iter().find(|l| l.key == key)
}
