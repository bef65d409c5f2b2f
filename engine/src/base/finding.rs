//! Findings: what `check` reports and what loading the rules found wrong,
//! each with a place, a message and, where we can say it, what to write
//! instead.

use serde::{Deserialize, Serialize};

use crate::base::error::{Error, ErrorKind, Place};

/// Declares [`Code`]: each variant with its stable name and what it
/// means, so the name, the description and the list of all codes cannot
/// drift apart.
macro_rules! codes {
    ($($variant:ident = $name:literal: $description:literal,)*) => {
        /// What kind of problem a finding is, by a stable name
        /// (`rule/invalid-glob`): SARIF's `ruleId`, the title of a GitHub
        /// annotation, `code` in JSON. Names never change meaning; a new
        /// kind of finding gets a new name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(tsify::Tsify))]
        pub enum Code {
            $(
                #[doc = $description]
                #[serde(rename = $name)]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in the order the docs list them.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable name, `area/what`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// What a finding of this code means, in one line.
            pub fn description(self) -> &'static str {
                match self {
                    $(Code::$variant => $description,)*
                }
            }
        }
    };
}

codes! {
    ConfigUnreadable = "config/unreadable": "rule-fairy.edn cannot be read",
    ConfigSyntax = "config/syntax": "rule-fairy.edn is not an EDN map",
    ConfigUnknownKey = "config/unknown-key": "A rule-fairy.edn key Rule Fairy does not know",
    ConfigInvalidValue = "config/invalid-value": "A rule-fairy.edn value of the wrong shape or outside what the key takes",
    ConfigDirOutside = "config/dir-outside-project": "A rules directory outside the project",
    RuleUnreadable = "rule/unreadable": "A rule file or rules directory that is not read: not UTF-8, not a regular file, outside the project, a link loop",
    RuleDuplicateName = "rule/duplicate-name": "Two rules directories define a rule of the same name",
    RuleNothingFound = "rule/nothing-found": "No rule files where the configuration looks",
    RuleEmpty = "rule/empty": "An empty rule file, a rule with no body, or one holding NUL bytes",
    RuleByteOrderMark = "rule/byte-order-mark": "The file starts with a byte order mark, which hides Cursor's frontmatter",
    RuleUnclosedFrontmatter = "rule/unclosed-frontmatter": "The frontmatter has no closing `---` line",
    RuleUnreadLine = "rule/unread-line": "A frontmatter line that is not read as a field",
    RuleUnreadableList = "rule/unreadable-list": "A list under a key that cannot be read",
    RuleDuplicateKey = "rule/duplicate-key": "A frontmatter key written twice; the last one is read",
    RuleKeyCase = "rule/key-case": "A known key in the wrong case, so it is ignored",
    RuleUnknownKey = "rule/unknown-key": "A frontmatter key nothing reads",
    RuleNotAList = "rule/not-a-list": "A list under a key that takes one value",
    RuleAlwaysApply = "rule/always-apply": "An alwaysApply value that reads as false",
    RuleQuoted = "rule/quoted": "A glob or prompt term that keeps its quotes",
    RuleInvalidGlob = "rule/invalid-glob": "A glob that does not compile, or is too long or complex",
    RuleSplitBraces = "rule/split-braces": "A brace group split by the comma of a comma-separated line",
    RuleGlobList = "rule/glob-list": "A globs list, which Cursor may not read",
    RuleLiteralGlob = "rule/literal-glob": "A glob character that is literal where it looks special (`!`, braces, `[^`)",
    RuleGlobMatchesNothing = "rule/glob-matches-nothing": "A glob that matches no file of the project",
    RuleInvalidCondition = "rule/invalid-condition": "A condition value that never holds or is not read",
    RuleRequiresAlone = "rule/requires-alone": "promptRequires without promptAnyOf, which never selects the rule",
    RuleNoTrigger = "rule/no-trigger": "A rule that never fires on its own",
    RuleRequestable = "rule/requestable": "A rule with no trigger, offered to the model by its description",
    RuleMentionOnly = "rule/mention-only": "A rule that comes only when a prompt names it",
    RuleCodeOutsideFence = "rule/code-outside-fence": "An annotation or decorator outside a code fence",
    RuleTooLong = "rule/too-long": "A heading, fence, line or part too long to deliver",
    ImportMissing = "import/missing": "An imported file that does not exist or cannot be read",
    ImportHeadingMissing = "import/heading-missing": "An imported heading the document does not have",
    ImportOutsideProject = "import/outside-project": "An import that leads outside the project",
    ImportOmission = "import/omission": "An agent-context omission that is unclosed, nested or ends unopened",
    InstructionUnreadable = "instruction/unreadable": "An instruction file that cannot be read",
    TestMissing = "test/missing": "A rule no rule test names",
}

impl Code {
    /// The code of a finding made from an engine error.
    pub fn of_error(kind: &ErrorKind) -> Code {
        use ErrorKind as K;
        match kind {
            K::CannotReadConfig { .. } => Code::ConfigUnreadable,
            K::ConfigSyntax { .. } | K::ConfigNotMap => Code::ConfigSyntax,
            K::UnknownConfigKeys { .. } => Code::ConfigUnknownKey,
            K::ConfigSectionNotMap { .. }
            | K::RuleDirsValue
            | K::RuleExtensionsValue
            | K::FormatsValue { .. }
            | K::UnknownFormat { .. }
            | K::GateDirsValue { .. }
            | K::GateUncheckedValue
            | K::ShellHookValue
            | K::SubagentsValue
            | K::NotifyValue
            | K::InstructionFilesValue => Code::ConfigInvalidValue,
            K::RuleDirOutsideProject { .. } => Code::ConfigDirOutside,
            K::NotUtf8(_)
            | K::CannotReadRule { .. }
            | K::RuleLinksOutside { .. }
            | K::GlobalRuleLinksOutside { .. }
            | K::RuleNotRegular
            | K::UnknownRule { .. }
            | K::BundleMissesRule { .. }
            | K::RuleLeftOut { .. }
            | K::CannotResolveRoot { .. } => Code::RuleUnreadable,
            K::DuplicateRuleNames { .. } => Code::RuleDuplicateName,
            K::InvalidGlob { .. } | K::GlobTooLong { .. } | K::GlobTooComplex { .. } => {
                Code::RuleInvalidGlob
            }
            K::InvalidContentPattern { .. } => Code::RuleInvalidCondition,
            K::ImportMissing { .. }
            | K::CannotResolveImport { .. }
            | K::CannotReadImport { .. }
            | K::ImportNotUtf8 { .. } => Code::ImportMissing,
            K::ImportHeadingMissing { .. } | K::ImportFragmentEncoding { .. } => {
                Code::ImportHeadingMissing
            }
            K::ImportEscapesRoot { .. } | K::ImportOutsideRoot { .. } => Code::ImportOutsideProject,
            K::NestedOmission { .. }
            | K::UnexpectedOmissionEnd { .. }
            | K::UnclosedOmission { .. } => Code::ImportOmission,
            K::CannotReadInstruction { .. } | K::InstructionNotUtf8 { .. } => {
                Code::InstructionUnreadable
            }
            K::DocumentationBudget { .. }
            | K::BundleBudget { .. }
            | K::HeadingTooLong
            | K::FenceTooLong
            | K::LineTooLong
            | K::PartTooLong
            | K::PrefixTooLong
            | K::FrameTooLong => Code::RuleTooLong,
        }
    }
}

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
/// flat: `severity`, `code`, `file`, `line`, `column` and `endColumn`
/// where the span on the line is known, `message`, `hint`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Finding {
    /// Whether it fails `check`.
    pub severity: Severity,
    /// What kind of problem it is.
    pub code: Code,
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
    pub fn error(code: Code, place: Place, message: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Error,
            code,
            place,
            span: None,
            message: message.into(),
            hint: None,
        }
    }

    /// A warning finding with no hint.
    pub fn warning(code: Code, place: Place, message: impl Into<String>) -> Self {
        Finding {
            severity: Severity::Warning,
            code,
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
        Finding::error(Code::of_error(&error.kind), place, error.message())
            .with_span(error.span.as_deref().copied())
    }

    /// Whether its severity is [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
