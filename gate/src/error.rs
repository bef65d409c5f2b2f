//! The one error type of the gate: a problem that stops a scan, a check or
//! a test run, with the place it was found when there is one.

use std::fmt;

use rule_fairy_engine::Place;

/// A problem that stops the gate: a rule file it cannot read or parse, a
/// language it cannot check, a path that does not exist, a git ref it
/// cannot read. The gate fails closed on every one of them: a scan that
/// could not look is never reported as clean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateError {
    /// Where the problem is, when it is in a file: the file as people read
    /// it (project-relative, or `REF:path` for a rule read from git) and,
    /// when known, the 1-based line.
    pub place: Option<Place>,
    /// What is wrong, in words for people; the place is not in it
    /// (`Display` puts it in front).
    pub message: String,
}

impl GateError {
    /// A problem with no file to name.
    pub fn new(message: impl Into<String>) -> Self {
        GateError {
            place: None,
            message: message.into(),
        }
    }

    /// A problem with a whole file.
    pub fn in_file(file: impl Into<String>, message: impl Into<String>) -> Self {
        GateError {
            place: Some(Place::file(file)),
            message: message.into(),
        }
    }

    /// A problem at one line of a file.
    pub fn at(file: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        GateError {
            place: Some(Place::line(file, line)),
            message: message.into(),
        }
    }

    /// The file the problem is in, when there is one.
    pub fn file(&self) -> Option<&str> {
        self.place.as_ref().map(|place| place.file.as_str())
    }

    /// The 1-based line in [`GateError::file`], when known.
    pub fn line(&self) -> Option<usize> {
        self.place.as_ref().and_then(|place| place.line)
    }
}

impl fmt::Display for GateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Some(place) => write!(f, "{place}: {}", self.message),
            None => f.write_str(&self.message),
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

    #[test]
    fn the_place_is_the_engines() {
        let err = GateError::at("a.yml", 3, "bad");
        assert_eq!(err.place, Some(Place::line("a.yml", 3)));
        assert_eq!((err.file(), err.line()), (Some("a.yml"), Some(3)));
        let whole = GateError::in_file("a.yml", "bad");
        assert_eq!((whole.file(), whole.line()), (Some("a.yml"), None));
        assert_eq!(GateError::new("bad").file(), None);
    }
}
