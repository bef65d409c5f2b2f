//! Readers of the formats rule files are written in: EDN (the config),
//! frontmatter and its YAML lists, Markdown, and unified diffs. Each knows
//! its syntax and nothing of rules.

pub(crate) mod edn;
pub(crate) mod frontmatter;
pub(crate) mod markdown;
pub mod patch;
pub(crate) mod yaml_list;
