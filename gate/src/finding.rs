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
