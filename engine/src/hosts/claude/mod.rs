//! The Claude Code mod's side of the engine: one decision per event
//! (`Workspace.decide` in the WebAssembly build), session state, facts,
//! labels, the gate's answer and the conversation's read-back.

pub(crate) mod context;
pub(crate) mod event;
pub(crate) mod facts;
pub(crate) mod gate;
pub(crate) mod labels;
pub(crate) mod state;
pub(crate) mod watch;
pub(crate) mod workspace;
