//! What a rule is: the rule model, what each format's frontmatter means,
//! the conditions a rule declares, where rule files and instruction files
//! are found.

pub mod conditions;
pub mod discovery;
pub mod instructions;
pub mod rule;
pub mod triggers;
