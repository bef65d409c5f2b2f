//! Readers of the formats rule files are written in: EDN (the config),
//! frontmatter and its YAML lists, Markdown, and unified diffs. Each knows
//! its syntax and nothing of rules.

pub mod edn;
pub mod frontmatter;
pub mod markdown;
pub mod patch;
pub mod yaml_list;
