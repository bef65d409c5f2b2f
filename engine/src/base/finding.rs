//! Findings: what `check` reports and what loading the rules found wrong,
//! each with a place, a message and, where we can say it, what to write
//! instead.

use serde::Serialize;

use crate::base::error::{Error, Place};

/// How bad a finding is; errors sort before warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub enum Severity {
    /// Something wrong: `check` fails on it.
    Error,
    /// Worth telling, but `check` still passes.
    Warning,
}

/// Where on its line a finding points: 1-based columns in characters,
/// `end_column` just past the last character (as the gate's findings
/// count them). It serializes as `column` and `endColumn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Span {
    /// The first character's column.
    pub column: usize,
    /// The column just past the last character.
    pub end_column: usize,
}

impl Span {
    /// `chars` characters from `column` on (at least one).
    pub fn at(column: usize, chars: usize) -> Self {
        Span {
            column,
            end_column: column + chars.max(1),
        }
    }
}

/// One problem found, at a file and, where known, a line. It serializes
/// flat: `severity`, `file`, `line`, `column` and `endColumn` where the
/// span on the line is known, `message`, `hint`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Finding {
    /// Whether it fails `check`.
    pub severity: Severity,
    /// The file and line it is about.
    #[serde(flatten)]
    pub place: Place,
    /// Where on the place's line, when the lint knows (a key, a glob).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// What is wrong, without the place.
    pub message: String,
    /// What to write instead, when there is a clear fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Finding {
    /// An error finding with no hint.
    pub fn error(place: Place, message: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Error,
            place,
            span: None,
            message: message.into(),
            hint: None,
        }
    }

    /// A warning finding with no hint.
    pub fn warning(place: Place, message: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Warning,
            place,
            span: None,
            message: message.into(),
            hint: None,
        }
    }

    /// The same finding, saying what to write instead.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The same finding, pointing at `span` on its line.
    pub fn with_span(mut self, span: Option<Span>) -> Self {
        self.span = span;
        self
    }

    /// An engine error as a finding; `fallback` places it when it has no
    /// place of its own.
    pub fn from_error(error: &Error, fallback: &Place) -> Self {
        let place = error.place.clone().unwrap_or_else(|| fallback.clone());
        Finding::error(place, error.message())
    }

    /// Whether its severity is [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
