//! The Codex hooks' side of the engine: session state and the transcript
//! scan that notices compactions.

pub mod state;
pub mod transcript;
