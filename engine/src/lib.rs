//! Rule Fairy's engine: which of a repository's rules apply to an event,
//! and why. Pure: files come through [`FileSource`], and nothing here reads
//! a clock or starts a process, so the same code runs natively and in
//! WebAssembly.
//!
//! # The layers
//!
//! The modules are private and sit in folders, bottom up; this page
//! re-exports what the other crates use.
//!
//! | layer | what it holds |
//! | --- | --- |
//! | `base` | errors with a place ([`Error`], [`ErrorKind`], [`Place`]), findings, the file trait, lexical [`paths`], [`text`] decoding |
//! | `syntax` | readers: EDN, frontmatter and its YAML lists, Markdown, unified diffs ([`patch`]) |
//! | `config` | `rule-fairy.edn` ([`Config`]) and the rule formats ([`Format`]) |
//! | `rules` | the rule model ([`Rule`]), what each format's frontmatter means, declared conditions, discovery and where rules come from ([`rule_sources`]), instruction files |
//! | `matching` | the one [`Event`] and its [`Query`], globs, keywords, content patterns, [`Facts`], the [`Project`] and its index, [`explain`] and [`describe`], [`why_not`] |
//! | `render` | blocks, [`labels`], prefixes, splitting, documentation imports |
//! | `delivery` | [`select`] and the [`Selection`], frames, fitting, read-back, the Codex text, the [`preview`] |
//! | `check` | [`check_project`]: every problem of a project, with file and line |
//! | `hosts` | [`claude`] and [`codex`], each host's whole decision, and what they share ([`shell`], the gate's check, failure entries, session ids, the plugin's [`version`] against the program's) |
//! | `review` | [`bundle`] and [`plan_paths`]: the rules and instruction files a diff or a plan meets |
//! | `playground` | [`Case`]: one playground case answered whole |
//!
//! **The layer rule:** a module imports only from its own layer and the
//! layers below it; `hosts`, `review` and `playground` sit side by side at
//! the top and never import each other, nor do the two hosts.
//! `engine/tests/layers.rs` reads every file's `crate::` paths and fails on
//! an upward or sideways import.

#![warn(missing_docs)]

mod base;
mod check;
mod config;
mod delivery;
mod hosts;
mod matching;
mod playground;
mod render;
mod review;
mod rules;
mod syntax;

pub use base::contain::{escapes, Containment, Refusal, MAX_PATH_BYTES, MAX_READ_BYTES};
pub use base::error::{Error, ErrorKind, Place, Result};
pub use base::finding::{Code, Finding, Severity, Span};
pub use base::fs::{FileSource, Kind, MemoryFs, Metadata};
pub use base::{paths, text};
pub use syntax::patch;

pub use config::formats::{opencode_global_rules, Format, GlobalRules};
pub use config::{Config, RulesSource, CONFIG_FILE};

pub use rules::conditions::normalize_os;
pub use rules::discovery::{scan_rule_files, RuleSet, MAX_DEPTH};
pub use rules::freshness;
pub use rules::kept::{Decode, KeptRules};
pub use rules::nested;
pub use rules::rule::Rule;
pub use rules::sources::{rule_sources, RuleSource, SourceKind};
pub use rules::steps::{AskKind, Asks, HostEntry, HostKind, HostStat};

pub use matching::conditions::Outcome;
pub use matching::describe::{
    describe, describe_briefly, describe_check, describe_condition, describe_no_rule,
    describe_why_not,
};
pub use matching::event::{Event, EventKind, Query};
pub use matching::explain::{explain, Explanation, FiredRule, Reason};
pub use matching::facts::{
    branch_from_symbolic_ref, ci_from_env, os_name, project_tags, Facts, CI_VARIABLES,
};
pub use matching::find_rule::NoRule;
pub use matching::held_back::{Delivery, HeldBy, HoldBack, HoldReason};
pub use matching::index::RuleIndex;
pub use matching::locate::{locate, real_path, Located};
pub use matching::project::{checkout_root, discover_root, project_relative_path, Project};
pub use matching::requests::{paths_in_command, MentionHint, Requestable};
pub use matching::why_not::{
    why_not, Check, ContentOutcome, GlobOutcome, PathVerdict, RuleKind, Term, WhyNot,
};

pub use render::labels;

pub use delivery::frames::FrameLimits;
pub use delivery::preview::{preview, ClaudePreview, Hosts, Preview};
pub use delivery::selection::{
    claude_delivery, codex_text, read_contents, select, unloaded_by_claude_code,
    unread_instruction_files, Selection,
};

pub use check::{check_project, check_project_with, Report};

/// `rule-fairy test`: the project's rule tests read, judged by the
/// selection the hooks make, and reported rule by rule; the rules no test
/// names; a starter test of a rule.
pub mod rule_tests {
    pub use crate::check::rule_tests::{
        describe_event, read_test_file, run_rule_tests, starter, test_dirs, test_files,
        untested_rules, Failure, RuleReport, RuleTest, Starter, TestEvent, TestFile, TestProblem,
        TestRun, MAX_EVENTS, TEST_DIR,
    };
}

pub use hosts::failure::{delivery_failed, failure_summary};
pub use hosts::gate_check;
pub use hosts::journal::{DeliveryRecord, Journal, ProblemRecord, RuleRecord, Totals};

/// `rule-fairy status`: one session's state file read as a report, and
/// what delivering every rule up front would cost beside it.
pub mod status {
    pub use crate::delivery::upfront::{upfront_cost, UpfrontCost};
    pub use crate::hosts::status::{estimated_tokens, SessionHost, SessionReport, CHARS_PER_TOKEN};
}
pub use hosts::session_id::session_id_problem;
pub use hosts::shell;
pub use hosts::version;

/// Claude Code's side: the in-memory workspace the mod drives, one
/// decision per event.
pub mod claude {
    pub use crate::hosts::claude::gate::gate_answer;
    pub use crate::hosts::claude::state::{after_compaction, held_by, session_report};
    pub use crate::hosts::claude::workspace::{ClaudeWorkspace, EventRequest, RequestKind};
    pub use crate::hosts::workspace_host::WorkspaceHost;
}

/// Codex's side: one hook's whole decision over the process's [`Host`](codex::Host),
/// the session state and the transcript scan.
pub mod codex {
    pub use crate::hosts::codex::hook::{decide, decide_shell, Answer, Delivered, Host};
    pub use crate::hosts::codex::state::{held_by, session_report, Metrics, SessionState};
    pub use crate::hosts::codex::transcript::{advance, resume, ScanCursor};
}

pub use review::bundle;
pub use review::plan::{place, plan_paths, PlanPaths};

pub use playground::case::{Case, EventInput, FactInputs, WhyNotAnswer};
pub use playground::case_files::rule_files_in;
