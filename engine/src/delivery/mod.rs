//! What an event delivers: the selection and what is due, Claude Code's
//! frames and what fits them, Codex's text, reading deliveries back, and
//! the preview shared by `explain --render` and the playground.

pub mod codex_text;
pub mod fit;
pub mod frames;
pub mod preview;
pub mod readback;
pub mod selection;
