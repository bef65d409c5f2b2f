//! What an event delivers: the selection and what is due, the broken rules
//! left out, Claude Code's frames and what fits them, Codex's text, reading
//! deliveries back, and the preview shared by `explain --render` and the
//! playground.

pub(crate) mod broken;
pub(crate) mod codex_text;
pub(crate) mod fit;
pub(crate) mod frames;
pub(crate) mod notice;
pub(crate) mod preview;
pub(crate) mod readback;
pub(crate) mod selection;
pub(crate) mod upfront;
