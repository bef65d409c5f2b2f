//! A matched rule as text: blocks, labels, the first frame's prefix lines,
//! splitting, and documentation imports resolved and merged.

pub mod block;
pub mod import_paths;
pub mod imports;
pub mod labels;
pub mod prefix;
pub mod split;
