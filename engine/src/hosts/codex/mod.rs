//! The Codex hooks' side of the engine: one hook's whole decision, the
//! session state, and the transcript scan that notices compactions.

pub(crate) mod hook;
pub(crate) mod state;
pub(crate) mod transcript;
