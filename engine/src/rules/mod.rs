//! What a rule is: the rule model, what each format's frontmatter means,
//! the conditions a rule declares, where rule files and instruction files
//! are found, and the walk in steps for hosts that answer it.

pub(crate) mod conditions;
pub(crate) mod discovery;
pub mod freshness;
pub(crate) mod instructions;
pub(crate) mod kept;
pub mod nested;
pub(crate) mod reach;
pub(crate) mod rule;
pub(crate) mod sources;
pub(crate) mod steps;
pub(crate) mod triggers;
