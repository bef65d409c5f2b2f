//! The Codex hooks' side of the engine: one hook's whole decision, the
//! session state, and the transcript scan that notices compactions.

pub mod hook;
pub mod state;
pub mod transcript;
