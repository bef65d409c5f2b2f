//! A matched rule as text: blocks, labels, the first frame's prefix lines,
//! splitting, and documentation imports resolved and merged.

pub(crate) mod block;
pub(crate) mod import_paths;
pub(crate) mod imports;
pub(crate) mod index_entry;
pub mod labels;
pub(crate) mod prefix;
pub(crate) mod split;
