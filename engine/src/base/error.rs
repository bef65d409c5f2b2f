//! Errors as values with a place: every problem a user can cause names the
//! file and, where there is one, the line.

use std::fmt;

use serde::Serialize;

/// Where a problem sits: a file and, when known, a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Place {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl Place {
    pub fn file(file: impl Into<String>) -> Self {
        Place {
            file: file.into(),
            line: None,
        }
    }

    pub fn line(file: impl Into<String>, line: usize) -> Self {
        Place {
            file: file.into(),
            line: Some(line),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}", self.file, line),
            None => f.write_str(&self.file),
        }
    }
}

/// An engine error. `message` is the original's exact text (tests and
/// users match on it); `place` says where, when the problem is in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Error {
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            place: None,
        }
    }

    pub fn at(place: Place, message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            place: Some(place),
        }
    }

    /// Adds a place unless the error already has one.
    pub fn or_at(mut self, place: Place) -> Self {
        if self.place.is_none() {
            self.place = Some(place);
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Some(place) => write!(f, "{}: {}", place, self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;
