//! The Claude Code mod's side of the engine: one decision per event
//! (`Workspace.decide` in the WebAssembly build), session state, facts,
//! labels, the gate's answer and the conversation's read-back.

pub mod context;
pub mod event;
pub mod facts;
pub mod gate;
pub mod labels;
pub mod state;
pub mod workspace;
