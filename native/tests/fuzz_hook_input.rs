//! The Codex hooks' standard input, fuzzed (behaviour §5.3): mutated real
//! inputs and generated ones with hostile fields, apply_patch texts among
//! them, each run through the built program. Whatever arrives, a hook
//! answers within a generous bound, never panics, and keeps Codex's
//! output contract: exit 0 with nothing or exactly one JSON object of the
//! event's schema, or exit 1 with nothing on standard output and the
//! reason on standard error.

use std::io::Write;
use std::path::Path;
use std::process::Output;
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::util::codex::*;
use crate::util::*;

/// The mutations and seeds the engine's fuzz suite uses.
#[path = "../../engine/tests/fuzz/inputs.rs"]
#[allow(dead_code)]
mod inputs;

use inputs::{config, mutated, token_soup, CASE_LIMIT};

/// One project for every case: the hooks keep their state in it, so later
/// cases meet what earlier ones saved.
fn shared_project() -> &'static Project {
    static PROJECT: OnceLock<Project> = OnceLock::new();
    PROJECT.get_or_init(|| {
        let p = project();
        p.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
        p.rule(
            "src.mdc",
            "---\nglobs: src/**\nfileContains: TODO\n---\n# Src",
        );
        p.rule(
            "ts.mdc",
            "---\nglobs: \"*.ts\"\npromptAnyOf: deploy\n---\n# TS\n\n@docs/guide.md#one",
        );
        p.write("docs/guide.md", "# Guide\n\n## One\n\none\n");
        p.write("src/a.ts", "// TODO\n");
        p
    })
}

/// Runs `rule-fairy codex <hook>` with `stdin`, killed past the bound.
fn hook(p: &Project, hook: &str, stdin: Vec<u8>) -> Output {
    hook_within(p, hook, stdin, CASE_LIMIT)
}

/// Runs `rule-fairy codex <hook>` with `stdin`, killed past `limit`.
fn hook_within(p: &Project, hook: &str, stdin: Vec<u8>, limit: Duration) -> Output {
    let mut child = p.rule_fairy().cwd(p.root()).args(["codex", hook]).spawn();
    let mut pipe = child.stdin.take().expect("a pipe to standard input");
    // The hook may stop reading early (input it refuses): a closed pipe
    // is its right, not a failure of the case.
    let writer = thread::spawn(move || {
        let _ = pipe.write_all(&stdin);
    });
    let start = Instant::now();
    loop {
        if child.try_wait().expect("the hook's status").is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("codex {hook}: no answer within {limit:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
    let _ = writer.join();
    child.wait_with_output().expect("the hook's output")
}

fn event_name(hook: &str) -> &'static str {
    match hook {
        "prompt" => PROMPT,
        "post-tool" => POST_TOOL,
        _ => SESSION_START,
    }
}

/// Codex's contract for one hook's result.
fn keeps_the_contract(hook: &str, out: &Output) -> Result<(), TestCaseError> {
    match out.status.code() {
        Some(0) => {
            // Panics (and so fails the case) on anything Codex would drop.
            codex_accepts(event_name(hook), out);
        }
        Some(1) => {
            prop_assert!(out.stdout.is_empty(), "a refusal printed {:?}", stdout(out));
            prop_assert!(stderr(out).starts_with("rule-fairy: "), "{}", stderr(out));
        }
        other => prop_assert!(false, "codex {} exited {:?}: {}", hook, other, stderr(out)),
    }
    Ok(())
}

const SEEDS: &[&[u8]] = &[
    br#"{"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"/ignored","hook_event_name":"UserPromptSubmit","model":"gpt-5.5","permission_mode":"bypassPermissions","prompt":"deploy the handler"}"#,
    br#"{"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"/ignored","hook_event_name":"PostToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: src/c.ts\n+created\n*** Update File: old/a.clj\n*** Move to: src/new/a.ts\n@@\n-x\n+y\n*** Delete File:  gone.txt \n*** End Patch\n"},"tool_response":"Success.","tool_use_id":"call_1"}"#,
    br#"{"session_id":"s2","turn_id":"t1","cwd":"/ignored","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"src/a.ts","path":"src/b.ts","patch":"*** Update File: c.ts\n"},"tool_use_id":"call_2"}"#,
    br#"{"session_id":"s3","transcript_path":null,"cwd":"/ignored","hook_event_name":"SessionStart","model":"gpt-5.5","permission_mode":"bypassPermissions","source":"compact"}"#,
];

/// An apply_patch text naming hostile paths.
fn apply_patch() -> impl Strategy<Value = String> {
    let header = prop::sample::select(vec![
        "*** Add File: ",
        "*** Update File: ",
        "*** Delete File: ",
        "*** Move to: ",
    ]);
    let path = prop_oneof![
        prop::sample::select(vec![
            "src/a.ts",
            "src/x.ts",
            "../outside/evil.ts",
            "/etc/passwd",
            "src/../../x.ts",
            "",
            " ",
            "src/",
            ".rule-fairy/codex/s1.json",
            "src/a.ts\n[rule-fairy injected: x.mdc]",
        ])
        .prop_map(str::to_string),
        token_soup().prop_map(|s| format!("src/{s}")),
    ];
    prop::collection::vec((header, path, token_soup()), 0..6).prop_map(|sections| {
        let mut text = String::from("*** Begin Patch\n");
        for (header, path, body) in sections {
            text.push_str(&format!("{header}{path}\n+{body}\n"));
        }
        text.push_str("*** End Patch\n");
        text
    })
}

/// A hook input with generated fields, some of the wrong type.
fn generated_input() -> impl Strategy<Value = (&'static str, Value)> {
    let session = prop_oneof![
        4 => prop::sample::select(vec!["s1", "s2", "s-3_x.y"]).prop_map(Value::from),
        1 => token_soup().prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => Just(Value::Null),
    ];
    let transcript = prop_oneof![
        3 => Just(Value::Null),
        1 => prop::sample::select(vec!["/nonexistent/t.jsonl", ".", "src", "src/a.ts", ""]).prop_map(Value::from),
    ];
    let tool_input = prop_oneof![
        apply_patch().prop_map(|p| json!({"command": p})),
        apply_patch().prop_map(|p| json!({"patch": p, "file_path": "src/a.ts"})),
        token_soup().prop_map(|s| json!({"file_path": s})),
        token_soup().prop_map(|s| json!({"command": s})),
        Just(json!([1, 2])),
        Just(json!("text")),
    ];
    (
        prop::sample::select(vec!["prompt", "post-tool", "session-start"]),
        session,
        transcript,
        token_soup(),
        tool_input,
        prop::sample::select(vec!["apply_patch", "Edit", "Write", "mcp__x__edit"]),
        prop::sample::select(vec!["startup", "resume", "compact", "clear", ""]),
    )
        .prop_map(
            |(hook, session, transcript, prompt, tool_input, tool, source)| {
                let input = json!({
                    "session_id": session, "turn_id": "t1", "transcript_path": transcript,
                    "cwd": "/ignored", "hook_event_name": event_name(hook), "model": "gpt-5.5",
                    "permission_mode": "bypassPermissions", "prompt": prompt, "tool_name": tool,
                    "tool_input": tool_input, "tool_response": "Success.", "tool_use_id": "call_1",
                    "source": source,
                });
                (hook, input)
            },
        )
}

fn project_root_files_intact(p: &Project) -> Result<(), TestCaseError> {
    prop_assert_eq!(p.read("src/a.ts"), "// TODO\n");
    prop_assert!(!p.root().join("../outside").exists());
    prop_assert!(!Path::new("/etc/passwd.json").exists());
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    /// Mutated real inputs, given to every hook.
    #[test]
    fn mutated_hook_inputs_keep_the_contract(
        bytes in mutated(SEEDS),
        hook_name in prop::sample::select(vec!["prompt", "post-tool", "session-start"]),
    ) {
        let p = shared_project();
        let out = hook(p, hook_name, bytes);
        keeps_the_contract(hook_name, &out)?;
        project_root_files_intact(p)?;
    }

    /// Generated inputs with hostile fields and apply_patch texts.
    #[test]
    fn generated_hook_inputs_keep_the_contract((hook_name, input) in generated_input()) {
        let p = shared_project();
        let out = hook(p, hook_name, input.to_string().into_bytes());
        keeps_the_contract(hook_name, &out)?;
        project_root_files_intact(p)?;
    }
}

proptest! {
    #![proptest_config(config(4))]

    /// A hook input naming a FIFO or a device (as the edited file or as the
    /// transcript) answers within the hook's budget and reads nothing of it
    /// (issue 20: such a read hung the hook, or grew without bound).
    #[test]
    fn special_files_named_by_the_input_are_not_read(
        (hook_name, field) in prop::sample::select(vec![
            ("post-tool", "file_path"), ("prompt", "transcript_path"), ("session-start", "transcript_path"),
        ]),
        device in any::<bool>(),
    ) {
        let p = project();
        p.rule("src.mdc", "---\nglobs: src/**\nfileContains: TODO\n---\n# Src");
        p.dir("src");
        p.sh("mkfifo src/pipe.ts");
        let fifo = p.root().join("src/pipe.ts");
        let target = if device { "/dev/zero".to_string() } else { fifo.display().to_string() };
        let mut input = json!({
            "session_id": "special", "turn_id": "t1", "transcript_path": null, "cwd": "/ignored",
            "hook_event_name": event_name(hook_name), "prompt": "hi", "source": "compact",
            "tool_name": "Write", "tool_input": {}, "tool_use_id": "call_1",
        });
        if field == "file_path" {
            input["tool_input"] = json!({"file_path": target});
        } else {
            input[field] = json!(target);
        }
        // Short: the device grows the hook's memory for as long as it runs.
        let out = hook_within(&p, hook_name, input.to_string().into_bytes(), Duration::from_secs(5));
        keeps_the_contract(hook_name, &out)?;
    }
}
