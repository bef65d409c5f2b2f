//! Rule Fairy's engine: which of a repository's rules apply to an event,
//! and why. Pure: files come through [`base::fs::FileSource`], and nothing here
//! reads a clock or starts a process, so the same code runs natively and in
//! WebAssembly.

pub mod base;
pub mod check;
pub mod config;
pub mod delivery;
pub mod hosts;
pub mod matching;
pub mod playground;
pub mod render;
pub mod review;
pub mod rules;
pub mod syntax;

pub use base::error::{Error, ErrorKind, Place, Result};
