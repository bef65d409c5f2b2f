//! The integration tests: the built `rule-fairy` binary run as whole
//! processes on temporary projects, and the plugin's files as they ship.
//! One test binary, one module per area; `util` holds what they share.

mod util;

mod cli;
mod codex_conditions;
mod codex_faults;
mod codex_hooks;
mod codex_hostile;
mod codex_kills;
mod codex_packaging;
mod codex_version;
mod diagnostics;
mod doctor;
mod fuzz_hook_input;
mod gate;
mod gate_launcher;
mod gate_unchecked;
mod hostile_reads;
mod nested_folders;
mod npm_lookup;
mod project_cache;
mod requested;
mod review_bundle;
mod review_fetch;
mod review_json;
mod review_layout;
mod review_plan;
mod rule_formats;
mod rule_sources;
mod rule_tests;
mod status;
mod why_not;
