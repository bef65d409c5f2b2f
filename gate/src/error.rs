//! The one error type of the gate: a problem that stops a scan, a check or
//! a test run, with the place it was found when there is one.

use std::fmt;

/// A problem that stops the gate: a rule file it cannot read or parse, a
/// language it cannot check, a path that does not exist, a git ref it
/// cannot read. The gate fails closed on every one of them: a scan that
/// could not look is never reported as clean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateError {
    /// The file the problem is in, as people read it (project-relative, or
    /// `REF:path` for a rule read from git).
    pub file: Option<String>,
    /// 1-based line in `file`.
    pub line: Option<usize>,
    pub message: String,
}

impl GateError {
    /// A problem with no file to name.
    pub fn new(message: impl Into<String>) -> Self {
        GateError {
            file: None,
            line: None,
            message: message.into(),
        }
    }

    /// A problem with a whole file.
    pub fn in_file(file: impl Into<String>, message: impl Into<String>) -> Self {
        GateError {
            file: Some(file.into()),
            line: None,
            message: message.into(),
        }
    }

    /// A problem at one line of a file.
    pub fn at(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        GateError {
            file: Some(file.into()),
            line: Some(line),
            message: message.into(),
        }
    }
}

impl fmt::Display for GateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}: {}", self.message),
            (Some(file), None) => write!(f, "{file}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for GateError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_what_it_has() {
        assert_eq!(GateError::at("a.yml", 3, "bad").to_string(), "a.yml:3: bad");
        assert_eq!(GateError::in_file("a.yml", "bad").to_string(), "a.yml: bad");
        assert_eq!(GateError::new("bad").to_string(), "bad");
    }
}
