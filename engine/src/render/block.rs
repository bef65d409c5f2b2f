//! Semantic blocks, the unit rendering works in (behaviour §4.1): one block
//! per rule, then one per merged documentation range.

use crate::base::error::Error;

/// The documentation budget: rendered documentation blocks joined together
/// may be at most this many UTF-8 bytes (behaviour §3.8).
pub(crate) const DOCUMENTATION_BUDGET: usize = 65_536;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BlockKind {
    /// A rule's body; heading `# <rule name>`.
    Rule { name: String },
    /// A merged documentation range; heading `## Required context: ...`.
    /// `paths` are the normalised path parts of the references, as written.
    Documentation { paths: Vec<String> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    pub kind: BlockKind,
    pub heading: String,
    pub content: String,
}

impl Block {
    /// Heading, a blank line, content.
    pub(crate) fn render(&self) -> String {
        format!("{}\n\n{}", self.heading, self.content)
    }
}

/// Why rendering a set of rules failed. The documentation budget is told
/// apart because fitting a delivery reacts to it by dropping rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError {
    pub error: Error,
    /// Set when the failure is the documentation budget: the bytes the
    /// documentation expanded to.
    pub expanded_bytes: Option<usize>,
}

impl From<Error> for RenderError {
    fn from(error: Error) -> Self {
        RenderError {
            error,
            expanded_bytes: None,
        }
    }
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for RenderError {}
