//! What each host adapter asks of the engine, and what they share: shell
//! change detection and reading the gate's check. `claude` and `codex`
//! never import each other.

pub mod claude;
pub mod codex;
pub mod gate_check;
pub mod shell;
