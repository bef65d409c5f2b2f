//! Shared by the Codex hook tests: projects, a hook process with its JSON
//! on standard input, the hooks' inputs, and Codex's output schema.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Map, Value};

use super::{stderr, Project, RuleFairy};

pub(crate) const PROMPT: &str = "UserPromptSubmit";
pub(crate) const POST_TOOL: &str = "PostToolUse";
pub(crate) const SESSION_START: &str = "SessionStart";
pub(crate) const SUBAGENT_START: &str = "SubagentStart";

/// An empty project that is its own checkout (a `.git` directory, no
/// repository).
pub(crate) fn project() -> Project {
    let p = Project::new();
    p.dir(".git");
    p
}

/// A project in a real git repository with one commit, for the shell check.
pub(crate) fn git_project() -> Project {
    let p = Project::new();
    p.init_git();
    p.git(&["commit", "-q", "--allow-empty", "-m", "start"]);
    p
}

/// The Codex hooks run in a project, and the state they keep there.
pub(crate) trait Codex {
    /// Runs `rule-fairy codex <hook>` in `cwd` with `stdin` and `env`.
    fn hook_raw(&self, cwd: &Path, hook: &str, stdin: &[u8], env: &[(&str, &str)]) -> Output;

    /// Runs `rule-fairy codex <hook>` in `cwd` with `input` on stdin.
    fn hook_in(&self, cwd: &Path, hook: &str, input: &Value) -> Output {
        self.hook_raw(cwd, hook, input.to_string().as_bytes(), &[])
    }

    /// Runs `rule-fairy codex <hook>` in the project with `input` on stdin.
    fn hook(&self, hook: &str, input: &Value) -> Output;

    /// Where the hooks keep their state.
    fn state_dir(&self) -> PathBuf;

    /// The state file of `session`.
    fn state(&self, session: &str) -> Value {
        let text = fs::read_to_string(self.state_dir().join(format!("{session}.json"))).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

impl Codex for Project {
    fn hook_raw(&self, cwd: &Path, hook: &str, stdin: &[u8], env: &[(&str, &str)]) -> Output {
        self.rule_fairy()
            .cwd(cwd)
            .args(["codex", hook])
            .envs(env)
            .stdin(stdin)
            .output()
    }

    fn hook(&self, hook: &str, input: &Value) -> Output {
        self.hook_in(self.root(), hook, input)
    }

    fn state_dir(&self) -> PathBuf {
        self.path(".rule-fairy/codex")
    }
}

pub(crate) fn prompt_input(session: &str, prompt: &str, transcript: Option<&Path>) -> Value {
    json!({"session_id": session, "turn_id": "t1", "transcript_path": transcript,
           "cwd": "/ignored", "hook_event_name": PROMPT, "model": "gpt-5.5",
           "permission_mode": "bypassPermissions", "prompt": prompt})
}

pub(crate) fn patch_input(session: &str, patch: &str, transcript: Option<&Path>) -> Value {
    json!({"session_id": session, "turn_id": "t1", "transcript_path": transcript,
           "cwd": "/ignored", "hook_event_name": POST_TOOL, "model": "gpt-5.5",
           "permission_mode": "bypassPermissions", "tool_name": "apply_patch",
           "tool_input": {"command": patch}, "tool_response": "Success.", "tool_use_id": "call_1"})
}

pub(crate) fn add_file_patch(path: &str) -> String {
    format!("*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n")
}

pub(crate) fn bash_input(session: &str, command: &str, transcript: Option<&Path>) -> Value {
    json!({"session_id": session, "turn_id": "t1", "transcript_path": transcript,
           "cwd": "/ignored", "hook_event_name": POST_TOOL, "model": "gpt-5.5",
           "permission_mode": "bypassPermissions", "tool_name": "Bash",
           "tool_input": {"command": command}, "tool_response": "", "tool_use_id": "call_2"})
}

pub(crate) fn session_start_input(session: &str, source: &str, transcript: Option<&Path>) -> Value {
    json!({"session_id": session, "transcript_path": transcript, "cwd": "/ignored",
           "hook_event_name": SESSION_START, "model": "gpt-5.5",
           "permission_mode": "bypassPermissions", "source": source})
}

/// Checks a hook's result the way Codex 0.169 reads it (its output schema
/// has `additionalProperties: false`, and one violation drops the whole
/// output): exit 0, and standard output empty or exactly one JSON object
/// with only the event's keys and the right `hookEventName`. Returns the
/// additional context, if any.
pub(crate) fn codex_accepts(event: &str, out: &Output) -> Option<String> {
    assert_eq!(
        out.status.code(),
        Some(0),
        "a hook that delivers must exit 0; stderr: {}",
        stderr(out)
    );
    let text = String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8");
    if text.trim().is_empty() {
        return None;
    }
    let mut stream = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
    let value = stream
        .next()
        .expect("one value")
        .unwrap_or_else(|e| panic!("stdout is not pure JSON ({e}): {text:?}"));
    assert!(
        stream.next().is_none(),
        "more than one JSON value: {text:?}"
    );
    let object = value.as_object().expect("a JSON object");
    let allowed: &[&str] = match event {
        SESSION_START | SUBAGENT_START => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "hookSpecificOutput",
        ],
        PROMPT => &[
            "continue",
            "decision",
            "reason",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "hookSpecificOutput",
        ],
        POST_TOOL => &[
            "continue",
            "decision",
            "reason",
            "stopReason",
            "systemMessage",
            "hookSpecificOutput",
        ],
        other => panic!("no schema for {other}"),
    };
    check_keys(object, allowed, "top level");
    if object.contains_key("reason") {
        assert_eq!(
            object.get("decision"),
            Some(&json!("block")),
            "reason without decision:block"
        );
    }
    if let Some(value) = object.get("systemMessage") {
        assert!(value.is_string(), "systemMessage is a string");
    }
    // Rule Fairy never blocks: post-edit context is plain context.
    for key in [
        "continue",
        "decision",
        "reason",
        "stopReason",
        "suppressOutput",
    ] {
        assert!(!object.contains_key(key), "unexpected {key}: {text}");
    }
    let specific = object
        .get("hookSpecificOutput")?
        .as_object()
        .expect("an object");
    check_keys(
        specific,
        &["hookEventName", "additionalContext"],
        "hookSpecificOutput",
    );
    assert_eq!(specific.get("hookEventName"), Some(&json!(event)));
    Some(
        specific
            .get("additionalContext")
            .and_then(Value::as_str)
            .expect("additionalContext is a string")
            .to_string(),
    )
}

fn check_keys(object: &Map<String, Value>, allowed: &[&str], what: &str) {
    for key in object.keys() {
        assert!(
            allowed.contains(&key.as_str()),
            "{what} key {key} is not in Codex's schema"
        );
    }
}

/// The rule names a context's `injected` markers list.
pub(crate) fn injected(context: &str) -> Vec<String> {
    context
        .lines()
        .filter_map(|line| line.strip_prefix("[rule-fairy injected: "))
        .filter_map(|rest| rest.strip_suffix(']'))
        .map(str::to_string)
        .collect()
}

/// Appends a line to a transcript file.
pub(crate) fn append(path: &Path, line: &str) {
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    file.write_all(line.as_bytes()).unwrap();
    file.write_all(b"\n").unwrap();
}

pub(crate) const COMPACTED: &str = r#"{"timestamp":"2026-11-30T02:00:47.000Z","ordinal":22,"type":"compacted","payload":{"message":"summary","replacement_history":[]}}"#;
pub(crate) const EVENT_LINE: &str = r#"{"timestamp":"2026-11-30T02:00:46.000Z","ordinal":21,"type":"event_msg","payload":{"type":"token_count"}}"#;
