//! A rule's match in a file, as every front end reports it.

use serde::Serialize;

/// How much a finding matters; only `Error` fails a scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// `severity: hint`, ast-grep's default when a rule names none.
    Hint,
    /// `severity: info`.
    Info,
    /// `severity: warning`.
    Warning,
    /// `severity: error`, the one that fails a scan.
    Error,
    /// A rule switched off; it never produces findings.
    Off,
}

impl Severity {
    /// The name as a rule writes it and a finding prints it: `hint`,
    /// `info`, `warning`, `error` or `off`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Hint => "hint",
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Off => "off",
        }
    }
}

impl From<&ast_grep_config::Severity> for Severity {
    fn from(severity: &ast_grep_config::Severity) -> Self {
        use ast_grep_config::Severity as S;
        match severity {
            S::Hint => Severity::Hint,
            S::Info => Severity::Info,
            S::Warning => Severity::Warning,
            S::Error => Severity::Error,
            S::Off => Severity::Off,
        }
    }
}

/// One match of one rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// The `id` of the rule that matched.
    pub rule_id: String,
    /// The rule's severity.
    pub severity: Severity,
    /// Project-relative with `/` when the file is inside the project;
    /// otherwise as it was given.
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    /// 1-based line of the match's end.
    pub end_line: usize,
    /// 1-based, in characters: the column just past the match's last
    /// character.
    pub end_column: usize,
    /// The rule's `message`, with its metavariables filled in.
    pub message: String,
    /// The rule's `note`, verbatim: the defect the rule exists for.
    pub note: Option<String>,
}

impl Finding {
    /// The finding as people read it: `severity[rule-id] file:line: message`,
    /// then the note verbatim, each line indented by two spaces.
    ///
    /// ```
    /// use rule_fairy_gate::{Finding, Severity};
    /// let finding = Finding {
    ///     rule_id: "no-eval".into(), severity: Severity::Error, file: "src/a.ts".into(),
    ///     line: 3, column: 1, end_line: 3, end_column: 9,
    ///     message: "Do not call eval.".into(), note: Some("PR #12: eval ran user input.".into()),
    /// };
    /// assert_eq!(finding.human(), "error[no-eval] src/a.ts:3: Do not call eval.\n  PR #12: eval ran user input.\n");
    /// ```
    pub fn human(&self) -> String {
        rule_fairy_engine::labels::gate_finding(
            self.severity.as_str(),
            &self.rule_id,
            &self.file,
            self.line,
            &self.message,
            self.note.as_deref(),
        )
    }
}

/// Why the gate could not judge a whole file (behaviour §8.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UncheckedReason {
    /// Larger than [`MAX_SOURCE_BYTES`](crate::MAX_SOURCE_BYTES): not read
    /// or parsed. The size in bytes.
    TooLarge(u64),
    /// The parser recovered from a syntax error (an `ERROR` or `MISSING`
    /// node) starting at this 1-based line; what lies past it may be
    /// parsed as something else, so a rule can miss it.
    SyntaxError(usize),
    /// The text is not UTF-8 from this 1-based line on.
    NotUtf8(usize),
    /// Not a regular file (a FIFO, a device, a socket): never opened.
    NotRegularFile,
    /// The file could not be read: the system's words.
    Unreadable(String),
}

impl std::fmt::Display for UncheckedReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UncheckedReason::TooLarge(bytes) => write!(
                f,
                "too large to parse: {bytes} bytes, over the gate's bound of {} bytes",
                crate::MAX_SOURCE_BYTES
            ),
            UncheckedReason::SyntaxError(line) => write!(f, "syntax error at line {line}"),
            UncheckedReason::NotUtf8(line) => write!(f, "not UTF-8 at line {line}"),
            UncheckedReason::NotRegularFile => f.write_str("not a regular file"),
            UncheckedReason::Unreadable(why) => write!(f, "cannot read: {why}"),
        }
    }
}

/// A file the gate could not judge whole: it was not parsed, or parsed
/// only in part. Its findings, if any, are still reported; the scan does
/// not pass unless `allowed`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unchecked {
    /// Project-relative with `/`, as findings name files.
    pub file: String,
    /// Why.
    pub reason: UncheckedReason,
    /// True when `:gate :unchecked` in `rule-fairy.edn` lists the file: it
    /// is told, but it does not fail the scan.
    pub allowed: bool,
}

impl std::fmt::Display for Unchecked {
    /// `could not check fully: <file>: <reason>`, the file's control
    /// characters escaped so a name can never start a line of its own.
    ///
    /// ```
    /// use rule_fairy_gate::{Unchecked, UncheckedReason};
    /// let unchecked = Unchecked {
    ///     file: "src/a\nb.ts".into(), reason: UncheckedReason::SyntaxError(3), allowed: false,
    /// };
    /// assert_eq!(unchecked.to_string(), "could not check fully: src/a\\nb.ts: syntax error at line 3");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file: String = self
            .file
            .chars()
            .flat_map(|c| {
                let escaped: Vec<char> = if c.is_control() {
                    c.escape_default().collect()
                } else {
                    vec![c]
                };
                escaped
            })
            .collect();
        write!(
            f,
            "{} {file}: {}",
            rule_fairy_engine::gate_check::NOT_FULLY_CHECKED,
            self.reason
        )
    }
}
