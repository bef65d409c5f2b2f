//! Rule Fairy's engine: which of a repository's rules apply to an event,
//! and why. Pure: files come through [`fs::FileSource`], and nothing here
//! reads a clock or starts a process, so the same code runs natively and in
//! WebAssembly.

pub mod block;
pub mod bundle;
pub mod case;
pub mod case_files;
pub mod check;
pub mod claude_context;
pub mod claude_event;
pub mod claude_facts;
pub mod claude_gate;
pub mod claude_labels;
pub mod claude_state;
pub mod claude_workspace;
pub mod codex_state;
pub mod codex_text;
pub mod conditions;
pub mod config;
pub mod content_index;
pub mod dedup;
pub mod delivery;
pub mod edn;
pub mod error;
pub mod explain;
pub mod finding;
pub mod fit;
pub mod formats;
pub mod frames;
pub mod frontmatter;
pub mod fs;
pub mod gate_check;
pub mod glob;
pub mod glob_index;
pub mod import_paths;
pub mod imports;
pub mod index;
pub mod instructions;
pub mod keywords;
pub mod labels;
pub mod lint;
pub mod locate;
pub mod markdown;
pub mod patch;
pub mod paths;
pub mod plan;
pub mod prefix;
pub mod preview;
pub mod project;
pub mod readback;
pub mod rule;
pub mod shell;
pub mod source;
pub mod split;
pub mod text;
pub mod transcript;
pub mod yaml_list;

pub use error::{Error, Place, Result};
