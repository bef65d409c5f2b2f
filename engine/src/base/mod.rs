//! The bottom layer: errors with a place, findings, the file-source trait,
//! path arithmetic and text decoding. Imports nothing else of the engine.

pub(crate) mod contain;
pub(crate) mod error;
pub(crate) mod finding;
pub(crate) mod fs;
pub(crate) mod packed;
pub mod paths;
pub mod text;
