//! Findings as a linter prints them, for `check` and the gate: one
//! [`Diagnostic`] shape that each command fills from its own findings,
//! printed in the `--format` asked for (`human` with a code frame,
//! `github` workflow commands, `sarif`; `json` stays each command's own).

use std::io::IsTerminal;

use clap::{Args, ValueEnum};

pub(crate) mod github;
pub(crate) mod human;
pub(crate) mod sarif;

/// How much a finding matters, in the words every format maps from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Error,
    Warning,
    /// The gate's `info` and `hint`.
    Note,
}

/// One finding, placed: what every format prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Diagnostic {
    pub level: Level,
    /// The rule that found it: a gate rule's id, or `check`.
    pub rule: String,
    /// Relative to the project root, with `/`.
    pub file: String,
    /// 1-based; `None` when it concerns the whole file.
    pub line: Option<usize>,
    /// 1-based columns in characters on `line` and `end_line`, the end
    /// just past the last character; `None` when only the line is known.
    pub span: Option<Span>,
    pub message: String,
    /// What follows the message: the gate rule's note, check's fix.
    pub note: Option<Note>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Note {
    /// Told as it is (a gate rule's `note`).
    Note(String),
    /// What to write instead (check's hint).
    Fix(String),
}

impl Note {
    pub(crate) fn text(&self) -> &str {
        match self {
            Note::Note(text) | Note::Fix(text) => text,
        }
    }
}

/// A rule the findings came from, for SARIF's list of rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RuleInfo {
    pub id: String,
    pub description: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// For people: `file:line:column`, the source line, a marker under the span.
    Human,
    /// The command's own JSON (what `--json` prints).
    Json,
    /// One line per finding (and its note), without the code frame: for
    /// grep, and the very lines the gate hands an agent at the write.
    Short,
    /// GitHub Actions workflow commands, which annotate a pull request.
    Github,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// When standard output is a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

/// `--format`, `--json` (its alias) and `--color`, shared by the commands
/// that print findings.
#[derive(Args, Debug, Clone)]
pub(crate) struct OutputArgs {
    /// How findings are printed.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Human)]
    format: Format,
    /// The same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Colour in the human format.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

impl OutputArgs {
    pub(crate) fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.format
        }
    }

    /// Whether the human format is coloured: `NO_COLOR` (any value but
    /// empty, as no-color.org says) and a standard output that is no
    /// terminal turn `auto` off.
    pub(crate) fn colored(&self) -> bool {
        match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }
}

/// The findings in `format` (not `Json`, each command's own): `root` is
/// the project root the files are relative to.
pub(crate) fn render(
    format: Format,
    diagnostics: &[Diagnostic],
    rules: &[RuleInfo],
    root: &std::path::Path,
    colored: bool,
) -> String {
    match format {
        Format::Short => short(diagnostics),
        Format::Human | Format::Json => {
            human::render(diagnostics, &mut human::Sources::new(root), colored)
        }
        Format::Github => github::render(diagnostics),
        Format::Sarif => sarif::render(diagnostics, rules, &root.to_string_lossy()),
    }
}

/// `file:line: severity: message`, then `  fix: ...` for check; the gate
/// prints its findings as its engine labels them at the write.
fn short(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let level = match d.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        };
        let place = match d.line {
            Some(line) => format!("{}:{line}", d.file),
            None => d.file.clone(),
        };
        out.push_str(&format!("{place}: {level}: {}\n", d.message));
        if let Some(Note::Fix(hint)) = &d.note {
            out.push_str(&format!("  fix: {hint}\n"));
        }
    }
    out
}
