//! Errors as values with a place: every problem a user can cause names the
//! file and, where there is one, the line. What went wrong is an
//! [`ErrorKind`] holding plain data (a line is a number, never text to read
//! back); its `Display` is the original's exact message, which tests and
//! users match on.

use std::fmt;

use crate::base::finding::Span;
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

/// Where a problem sits: a file and, when known, a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Place {
    /// The file as the user wrote or reached it.
    pub file: String,
    /// 1-based line, `None` when the problem concerns the whole file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl Place {
    /// A whole file, no line.
    pub fn file(file: impl Into<String>) -> Self {
        Place {
            file: file.into(),
            line: None,
        }
    }

    /// A 1-based line of a file.
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

/// Bytes that are not UTF-8: where the first invalid byte sits. Its line
/// is data, so a caller places the error without reading the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotUtf8 {
    /// Byte offset of the first invalid byte.
    pub offset: usize,
    /// 1-based line of that byte.
    pub line: usize,
}

impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not valid UTF-8 text (invalid byte at offset {}, line {})",
            self.offset, self.line
        )
    }
}

/// Every kind of problem the engine reports, with the data its message
/// needs. Keys in `rule-fairy.edn` are named as written (`:rules`,
/// `:gate :dirs`); files as the user wrote or reached them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    // rule-fairy.edn (behaviour §1.1)
    /// `rule-fairy.edn` could not be read.
    CannotReadConfig {
        /// The file system's description of the failure.
        reason: String,
    },
    /// The EDN reader refused the text; `message` is its description.
    ConfigSyntax {
        /// What the reader found wrong.
        message: String,
        /// 1-based line where the reader stopped.
        line: usize,
        /// 1-based column on that line.
        column: usize,
    },
    /// The file holds no value, or one that is not a map.
    ConfigNotMap,
    /// Keys no one reads, at the top (`section` none) or inside a section
    /// such as `:rules`.
    UnknownConfigKeys {
        /// The section holding them, like `:rules`; `None` at the top.
        section: Option<String>,
        /// The unknown keys as written, each with the known key it most
        /// likely misspells (`(":dir", Some(":dirs"))`).
        keys: Vec<(String, Option<String>)>,
    },
    /// A section such as `:rules` whose value is not a map.
    ConfigSectionNotMap {
        /// The section's key, like `:rules`.
        section: String,
    },
    /// `:rules :dirs` is not a non-empty vector of paths.
    RuleDirsValue,
    /// `:rules :extensions` is not a non-empty vector of extensions.
    RuleExtensionsValue,
    /// A `:rules :dirs` entry names a directory outside the project
    /// (absolute and elsewhere, or climbing out with `..`).
    RuleDirOutsideProject {
        /// The directory as written.
        dir: String,
    },
    /// `:formats` is not a vector; `known` are the format keywords, like
    /// `:claude`.
    FormatsValue {
        /// Every format keyword, for the message's example.
        known: Vec<String>,
    },
    /// A `:formats` entry names no format.
    UnknownFormat {
        /// The entry as written.
        format: String,
        /// Every format keyword, like `:claude`.
        known: Vec<String>,
    },
    /// `:gate :dirs` or `:gate :test-dirs` (`key`) is not a non-empty
    /// vector of paths.
    GateDirsValue {
        /// `:gate :dirs` or `:gate :test-dirs`.
        key: String,
    },
    /// `:gate :unchecked` is not a non-empty vector of globs.
    GateUncheckedValue,
    /// A `:shell-hook` value is not a boolean.
    ShellHookValue,
    /// `:subagents` is not a boolean.
    SubagentsValue,
    /// `:notify` is not a boolean.
    NotifyValue,
    /// `:instructions :files` is not a vector of file names.
    InstructionFilesValue,

    // Text
    /// A rule file or `rule-fairy.edn` that is not UTF-8.
    NotUtf8(NotUtf8),
    /// An imported document (`import` as written) that is not UTF-8.
    ImportNotUtf8 {
        /// The import path as the rule wrote it.
        import: String,
        /// Where the first invalid byte sits.
        error: NotUtf8,
    },
    /// An instruction file (`file` as shown) that is not UTF-8.
    InstructionNotUtf8 {
        /// The instruction file as shown to the user.
        file: String,
        /// Where the first invalid byte sits.
        error: NotUtf8,
    },

    // Rule files
    /// A rule file could not be read.
    CannotReadRule {
        /// The file system's description of the failure.
        reason: String,
    },
    /// A rule file or rules directory that is a symbolic link leading
    /// outside the project (and the checkout holding it).
    RuleLinksOutside {
        /// Whether it is a directory, so nothing below it is read.
        dir: bool,
    },
    /// A rule file or directory in the global rules directory that is a
    /// symbolic link leading outside that directory (behaviour §5.2.4).
    GlobalRuleLinksOutside {
        /// Whether it is a directory, so nothing below it is read.
        dir: bool,
    },
    /// A rule-named entry that is not a regular file (a FIFO, socket or
    /// device): never opened.
    RuleNotRegular,
    /// Rule names found in more than one rules directory.
    DuplicateRuleNames {
        /// The names found twice, each relative to its rules directory.
        names: Vec<String>,
    },
    /// A rule asked for by name is not in the project.
    UnknownRule {
        /// The name asked for.
        name: String,
    },
    /// A rule a bundle needs could not be read; `problem` is what its
    /// finding says.
    BundleMissesRule {
        /// The rule's own problem, as its finding reads.
        problem: String,
    },
    /// A rule left out of the project when it loaded; `problem` is what its
    /// finding says.
    RuleLeftOut {
        /// The rule's problem, as its finding reads; it is the whole message.
        problem: String,
    },

    // Globs and content patterns
    /// A glob that does not compile.
    InvalidGlob {
        /// The glob in its normalised form.
        glob: String,
    },
    /// A glob longer than the glob limit (behaviour §2.2): refused before
    /// it is compiled, so no glob can blow up the matcher.
    GlobTooLong {
        /// The glob's first characters, as the message quotes them.
        start: String,
        /// The glob's length in characters.
        chars: usize,
        /// The limit, in characters.
        limit: usize,
    },
    /// A glob whose matcher the regex engine refuses (over its size limit).
    GlobTooComplex {
        /// The glob's first characters, as the message quotes them.
        start: String,
    },
    /// A `fileContains` pattern that does not compile, and why.
    InvalidContentPattern {
        /// The pattern as the rule declares it.
        pattern: String,
        /// The regex compiler's description of what is wrong.
        why: String,
    },

    // Imports (behaviour §3)
    /// The project root could not be resolved to its real path.
    CannotResolveRoot {
        /// The root as given.
        root: String,
        /// The file system's description of the failure.
        reason: String,
    },
    /// An import path that leaves the project root as written.
    ImportEscapesRoot {
        /// The import path as the rule wrote it.
        path: String,
    },
    /// An import that names no file.
    ImportMissing {
        /// The import path as the rule wrote it.
        path: String,
    },
    /// An import whose real path lies outside the project root.
    ImportOutsideRoot {
        /// The import path as the rule wrote it.
        path: String,
    },
    /// An import whose real path could not be resolved.
    CannotResolveImport {
        /// The import path as the rule wrote it.
        path: String,
        /// The file system's description of the failure.
        reason: String,
    },
    /// An imported file that could not be read.
    CannotReadImport {
        /// The import path as the rule wrote it.
        path: String,
        /// The file system's description of the failure.
        reason: String,
    },
    /// A `#fragment` that is not valid percent-encoding, and why;
    /// `reference` is the import as written, `path#fragment`.
    ImportFragmentEncoding {
        /// The import as written, `path#fragment`.
        reference: String,
        /// The first bad escape, and what an escape must be.
        why: String,
    },
    /// A `#fragment` whose heading (decoded, lower-cased) is not in the
    /// document.
    ImportHeadingMissing {
        /// The import path as the rule wrote it, without the fragment.
        path: String,
        /// The heading looked for: decoded and lower-cased (boxed, as
        /// `nearest`: every error carries the largest kind's size).
        heading: Box<str>,
        /// The document's heading slug it most likely misspells (boxed:
        /// every error carries the largest kind's size).
        nearest: Option<Box<str>>,
    },
    /// An omission start inside an open omission block, in `document`.
    NestedOmission {
        /// The import path the document was loaded through, as written.
        document: String,
    },
    /// An omission end with no block open, in `document`.
    UnexpectedOmissionEnd {
        /// The import path the document was loaded through, as written.
        document: String,
    },
    /// An omission block never closed, in `document`.
    UnclosedOmission {
        /// The import path the document was loaded through, as written.
        document: String,
    },

    // Instruction files (behaviour §6.3)
    /// An instruction file (`file` as shown) that could not be read.
    CannotReadInstruction {
        /// The instruction file as shown to the user.
        file: String,
        /// The file system's description of the failure.
        reason: String,
    },

    // Budgets and sizes
    /// The imported documentation is larger than `limit` bytes.
    DocumentationBudget {
        /// The budget in bytes.
        limit: usize,
    },
    /// A review bundle's documentation is larger than `limit` bytes:
    /// `bytes` imported by `rules` rules for `paths` changed paths.
    BundleBudget {
        /// The budget in bytes.
        limit: usize,
        /// Bytes of documentation the bundle imported.
        bytes: usize,
        /// How many applicable rules imported them.
        rules: usize,
        /// How many changed paths the bundle covers.
        paths: usize,
    },

    // Frames and splitting (behaviour §4.3, §4.4)
    /// A rule block's heading leaves no room in a frame.
    HeadingTooLong,
    /// A fenced block, which is never cut, is larger than a frame.
    FenceTooLong,
    /// One Markdown line is larger than a frame.
    LineTooLong,
    /// A rendered part is larger than a frame.
    PartTooLong,
    /// The hook context prefix leaves no room in a frame.
    PrefixTooLong,
    /// A frame is larger than the configured limit.
    FrameTooLong,
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind::*;
        match self {
            CannotReadConfig { reason } => write!(f, "Cannot read: {reason}"),
            ConfigSyntax {
                message,
                line,
                column,
            } => write!(f, "{message} (line {line}, column {column})"),
            ConfigNotMap => f.write_str("rule-fairy.edn must contain a map"),
            UnknownConfigKeys { section, keys } => {
                let keys: Vec<String> = keys
                    .iter()
                    .map(|(key, near)| match near {
                        Some(near) => format!("{key} (did you mean {near}?)"),
                        None => key.clone(),
                    })
                    .collect();
                match section {
                    Some(section) => write!(
                        f,
                        "Unknown {section} keys in rule-fairy.edn: {}",
                        keys.join(", ")
                    ),
                    None => write!(f, "Unknown keys in rule-fairy.edn: {}", keys.join(", ")),
                }
            }
            ConfigSectionNotMap { section } => {
                write!(f, "{section} in rule-fairy.edn must be a map")
            }
            RuleDirsValue => f.write_str(
                ":rules :dirs in rule-fairy.edn must be a non-empty vector of directory paths",
            ),
            RuleDirOutsideProject { dir } => write!(
                f,
                ":rules :dirs in rule-fairy.edn names a directory outside the project: {dir}"
            ),
            RuleExtensionsValue => f.write_str(
                ":rules :extensions in rule-fairy.edn must be a non-empty vector of extensions with a leading dot, like [\".mdc\"]",
            ),
            FormatsValue { known } => write!(
                f,
                ":formats in rule-fairy.edn must be a vector of rule formats, like [{}]",
                known.join(" ")
            ),
            UnknownFormat { format, known } => write!(
                f,
                "Unknown rule format in rule-fairy.edn: {format} (known: {})",
                known.join(" ")
            ),
            GateDirsValue { key } => write!(
                f,
                "{key} in rule-fairy.edn must be a non-empty vector of directory paths relative to the project, like [\"rules/ast-grep\"]"
            ),
            GateUncheckedValue => f.write_str(
                ":gate :unchecked in rule-fairy.edn must be a non-empty vector of globs relative to the project, like [\"vendor/**\"]",
            ),
            ShellHookValue => {
                f.write_str(":shell-hook values in rule-fairy.edn must be true or false")
            }
            SubagentsValue => f.write_str(":subagents in rule-fairy.edn must be true or false"),
            NotifyValue => f.write_str(":notify in rule-fairy.edn must be true or false"),
            InstructionFilesValue => f.write_str(
                ":instructions :files in rule-fairy.edn must be a vector of file names relative to a directory, like [\"AGENTS.md\" \"CLAUDE.md\"]",
            ),
            NotUtf8(error) => error.fmt(f),
            ImportNotUtf8 { import, error } => write!(f, "Rule import {import} is {error}"),
            InstructionNotUtf8 { file, error } => write!(f, "Instruction file {file} is {error}"),
            CannotReadRule { reason } => write!(f, "Cannot read the rule file: {reason}"),
            RuleLinksOutside { dir: true } => f.write_str(
                "Links outside the project, so no rule below it is read",
            ),
            RuleLinksOutside { dir: false } => {
                f.write_str("Links outside the project, so it is not read as a rule")
            }
            GlobalRuleLinksOutside { dir: true } => f.write_str(
                "Links outside the global rules directory, so no rule below it is read",
            ),
            GlobalRuleLinksOutside { dir: false } => f.write_str(
                "Links outside the global rules directory, so it is not read as a rule",
            ),
            RuleNotRegular => f.write_str(
                "Not a regular file (a FIFO, socket or device), so it is not read as a rule",
            ),
            DuplicateRuleNames { names } => write!(
                f,
                "Rule names defined in more than one rules directory: {}",
                names.join(", ")
            ),
            UnknownRule { name } => write!(f, "Rule does not exist: {name}"),
            BundleMissesRule { problem } => {
                write!(f, "{problem} (the bundle would miss this rule)")
            }
            RuleLeftOut { problem } => f.write_str(problem),
            InvalidGlob { glob } => write!(f, "Invalid rule glob: {glob}"),
            GlobTooLong {
                start,
                chars,
                limit,
            } => write!(
                f,
                "Rule glob is {chars} characters long, over the limit of {limit}: {start}..."
            ),
            GlobTooComplex { start } => write!(
                f,
                "Rule glob is too complex to match (its matcher is over the size limit): {start}..."
            ),
            InvalidContentPattern { pattern, why } => {
                write!(f, "Invalid fileContains pattern: {pattern} ({why})")
            }
            CannotResolveRoot { root, reason } => {
                write!(f, "Cannot resolve the project root {root}: {reason}")
            }
            ImportEscapesRoot { path } => write!(f, "Rule import escapes the project root: {path}"),
            ImportMissing { path } => write!(f, "Rule import does not exist: {path}"),
            ImportOutsideRoot { path } => {
                write!(f, "Rule import resolves outside the project root: {path}")
            }
            CannotResolveImport { path, reason } => {
                write!(f, "Cannot resolve rule import {path}: {reason}")
            }
            CannotReadImport { path, reason } => {
                write!(f, "Cannot read rule import {path}: {reason}")
            }
            ImportFragmentEncoding { reference, why } => write!(
                f,
                "Rule import fragment is not valid percent-encoding: {reference} ({why})"
            ),
            ImportHeadingMissing {
                path,
                heading,
                nearest,
            } => {
                write!(f, "Rule import heading does not exist: {path}#{heading}")?;
                match nearest {
                    Some(near) => write!(f, "; did you mean {path}#{near}?"),
                    None => Ok(()),
                }
            }
            NestedOmission { document } => {
                write!(f, "Nested agent-context omission in {document}")
            }
            UnexpectedOmissionEnd { document } => {
                write!(f, "Unexpected agent-context omission end in {document}")
            }
            UnclosedOmission { document } => {
                write!(f, "Unclosed agent-context omission in {document}")
            }
            CannotReadInstruction { file, reason } => {
                write!(f, "Cannot read instruction file {file}: {reason}")
            }
            DocumentationBudget { limit } => {
                write!(f, "Expanded rule documentation exceeds {limit} bytes")
            }
            BundleBudget {
                limit,
                bytes,
                rules,
                paths,
            } => write!(
                f,
                "Expanded rule documentation exceeds {limit} bytes: {bytes} bytes of documentation imported by {} for {}; \
                 bundle part of the change at a time, or import smaller sections",
                plural(*rules, "applicable rule"),
                plural(*paths, "changed path"),
            ),
            HeadingTooLong => {
                f.write_str("Rule block heading exceeds the hook context frame limit")
            }
            FenceTooLong => {
                f.write_str("A fenced Markdown block exceeds the hook context frame limit")
            }
            LineTooLong => f.write_str("A Markdown line exceeds the hook context frame limit"),
            PartTooLong => {
                f.write_str("Rendered rule part exceeds the hook context frame limit")
            }
            PrefixTooLong => f.write_str("Hook context prefix exceeds the frame limit"),
            FrameTooLong => f.write_str("Hook context frame exceeds the configured limit"),
        }
    }
}

/// An engine error: what went wrong and, when the problem is in a file,
/// where. It serializes as `{ message, place }`, the message being the
/// kind's text, so the WebAssembly boundary's shape does not depend on the
/// kinds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong, with the data of its message.
    pub kind: ErrorKind,
    /// The file and line, when the problem is in a file.
    pub place: Option<Place>,
    /// Where on the place's line, when the reader knows (a key or value of
    /// `rule-fairy.edn`); `check` carries it to the finding. Boxed, so an
    /// error stays small enough to return by value.
    pub span: Option<Box<Span>>,
}

impl Error {
    /// An error with no place yet.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            kind,
            place: None,
            span: None,
        }
    }

    /// An error at a file or line.
    pub fn at(place: Place, kind: ErrorKind) -> Self {
        Error {
            kind,
            place: Some(place),
            span: None,
        }
    }

    /// The same error, pointing at `span` on its line.
    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(Box::new(span));
        self
    }

    /// Adds a place unless the error already has one.
    pub fn or_at(mut self, place: Place) -> Self {
        if self.place.is_none() {
            self.place = Some(place);
        }
        self
    }

    /// The message without the place: the kind's text.
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Some(place) => write!(f, "{}: {}", place, self.kind),
            None => self.kind.fmt(f),
        }
    }
}

impl Serialize for Error {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut state = serializer.serialize_struct("Error", 2)?;
        state.serialize_field("message", &self.message())?;
        match &self.place {
            Some(place) => state.serialize_field("place", place)?,
            None => state.skip_field("place")?,
        }
        state.end()
    }
}

// The TypeScript declaration of what the `Serialize` above writes (the
// other boundary types derive theirs; this one is written by hand, so it
// stays beside the code it describes).
#[cfg(feature = "ts")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const ERROR_TS: &str = r#"/**
 * An engine error: the message, and where when the problem is in a file.
 */
export interface Error {
    message: string;
    place?: Place;
}"#;

impl std::error::Error for Error {}

/// The engine's result, its error an [`Error`] unless named.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn text(kind: ErrorKind) -> String {
        kind.to_string()
    }

    #[test]
    fn config_kinds_read_as_the_original() {
        assert_eq!(
            text(ErrorKind::ConfigSyntax {
                message: "EOF while reading a map started on line 1".to_string(),
                line: 1,
                column: 6,
            }),
            "EOF while reading a map started on line 1 (line 1, column 6)"
        );
        assert_eq!(
            text(ErrorKind::UnknownConfigKeys {
                section: None,
                keys: vec![
                    (":rule".to_string(), Some(":rules".to_string())),
                    (":x".to_string(), None)
                ],
            }),
            "Unknown keys in rule-fairy.edn: :rule (did you mean :rules?), :x"
        );
        assert_eq!(
            text(ErrorKind::UnknownConfigKeys {
                section: Some(":rules".to_string()),
                keys: vec![(":dir".to_string(), None)],
            }),
            "Unknown :rules keys in rule-fairy.edn: :dir"
        );
        assert_eq!(
            text(ErrorKind::ConfigSectionNotMap {
                section: ":gate".to_string()
            }),
            ":gate in rule-fairy.edn must be a map"
        );
        assert_eq!(
            text(ErrorKind::UnknownFormat {
                format: ":cursorrules".to_string(),
                known: vec![":claude".to_string(), ":copilot".to_string()],
            }),
            "Unknown rule format in rule-fairy.edn: :cursorrules (known: :claude :copilot)"
        );
        assert_eq!(
            text(ErrorKind::CannotReadConfig {
                reason: "denied".to_string()
            }),
            "Cannot read: denied"
        );
    }

    #[test]
    fn text_kinds_name_the_line_they_carry() {
        let error = NotUtf8 {
            offset: 12,
            line: 3,
        };
        let expected = "not valid UTF-8 text (invalid byte at offset 12, line 3)";
        assert_eq!(text(ErrorKind::NotUtf8(error)), expected);
        assert_eq!(
            text(ErrorKind::ImportNotUtf8 {
                import: "doc/bad.md".to_string(),
                error,
            }),
            format!("Rule import doc/bad.md is {expected}")
        );
        assert_eq!(
            text(ErrorKind::InstructionNotUtf8 {
                file: "AGENTS.md".to_string(),
                error,
            }),
            format!("Instruction file AGENTS.md is {expected}")
        );
    }

    #[test]
    fn import_and_glob_kinds_read_as_the_original() {
        let path = || "doc/a.md".to_string();
        assert_eq!(
            text(ErrorKind::ImportMissing { path: path() }),
            "Rule import does not exist: doc/a.md"
        );
        assert_eq!(
            text(ErrorKind::ImportEscapesRoot { path: path() }),
            "Rule import escapes the project root: doc/a.md"
        );
        assert_eq!(
            text(ErrorKind::ImportHeadingMissing {
                path: path(),
                heading: "setup".into(),
                nearest: None,
            }),
            "Rule import heading does not exist: doc/a.md#setup"
        );
        assert_eq!(
            text(ErrorKind::ImportHeadingMissing {
                path: path(),
                heading: "rollback".into(),
                nearest: Some("roll-back".into()),
            }),
            "Rule import heading does not exist: doc/a.md#rollback; did you mean doc/a.md#roll-back?"
        );
        assert_eq!(
            text(ErrorKind::ImportFragmentEncoding {
                reference: "doc/a.md#%zz".to_string(),
                why: "`%zz` is not a percent escape (% and two hex digits)".to_string(),
            }),
            "Rule import fragment is not valid percent-encoding: doc/a.md#%zz (`%zz` is not a percent escape (% and two hex digits))"
        );
        assert_eq!(
            text(ErrorKind::UnclosedOmission { document: path() }),
            "Unclosed agent-context omission in doc/a.md"
        );
        assert_eq!(
            text(ErrorKind::InvalidGlob {
                glob: "src/[a".to_string()
            }),
            "Invalid rule glob: src/[a"
        );
        assert_eq!(
            text(ErrorKind::UnknownRule {
                name: "gone.mdc".to_string()
            }),
            "Rule does not exist: gone.mdc"
        );
    }

    #[test]
    fn budget_and_frame_kinds_read_as_the_original() {
        assert_eq!(
            text(ErrorKind::DocumentationBudget { limit: 65_536 }),
            "Expanded rule documentation exceeds 65536 bytes"
        );
        assert_eq!(
            text(ErrorKind::BundleBudget {
                limit: 65_536,
                bytes: 70_000,
                rules: 1,
                paths: 2,
            }),
            "Expanded rule documentation exceeds 65536 bytes: 70000 bytes of documentation \
             imported by 1 applicable rule for 2 changed paths; bundle part of the change at a \
             time, or import smaller sections"
        );
        assert_eq!(
            text(ErrorKind::FenceTooLong),
            "A fenced Markdown block exceeds the hook context frame limit"
        );
        assert_eq!(
            text(ErrorKind::FrameTooLong),
            "Hook context frame exceeds the configured limit"
        );
    }

    #[test]
    fn an_error_shows_its_place_before_its_kind() {
        let kind = ErrorKind::InvalidGlob {
            glob: "src/[".to_string(),
        };
        let error = Error::at(Place::line("a.mdc", 2), kind.clone());
        assert_eq!(error.to_string(), "a.mdc:2: Invalid rule glob: src/[");
        assert_eq!(error.message(), "Invalid rule glob: src/[");
        assert_eq!(Error::new(kind).to_string(), "Invalid rule glob: src/[");
    }

    #[test]
    fn an_error_serializes_as_message_and_place() {
        let error = Error::at(
            Place::line("a.mdc", 2),
            ErrorKind::InvalidGlob {
                glob: "src/[".to_string(),
            },
        );
        assert_eq!(
            serde_json::to_value(&error).unwrap(),
            serde_json::json!({
                "message": "Invalid rule glob: src/[",
                "place": { "file": "a.mdc", "line": 2 },
            })
        );
        assert_eq!(
            serde_json::to_value(Error::new(ErrorKind::PrefixTooLong)).unwrap(),
            serde_json::json!({ "message": "Hook context prefix exceeds the frame limit" })
        );
    }
}
