//! The browser playground's case: files, an event and facts, and what the
//! engine says of them.

pub(crate) mod case;
pub(crate) mod case_files;
