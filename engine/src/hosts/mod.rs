//! What each host adapter asks of the engine, and what they share: shell
//! change detection, reading the gate's check, a failed delivery's entry,
//! which session ids may name a file, and whether the plugin's version is
//! the program's; and which host an in-memory workspace serves.
//! `claude` and `codex` never import each other.

pub(crate) mod claude;
pub(crate) mod codex;
pub(crate) mod failure;
pub mod gate_check;
pub(crate) mod journal;
pub(crate) mod session_id;
pub mod shell;
pub(crate) mod status;
pub mod version;
pub(crate) mod workspace_host;
