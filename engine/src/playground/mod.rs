//! The browser playground's case: files, an event and facts, and what the
//! engine says of them.

pub mod case;
pub mod case_files;
