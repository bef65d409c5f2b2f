//! The Claude Code mod's event request, as the engine reads it from the
//! wire, and the decision over the example project (behaviour §5.2.2).

use std::sync::{Mutex, OnceLock, PoisonError};

use proptest::prelude::*;
use rule_fairy_engine::claude::{ClaudeWorkspace, EventRequest};
use rule_fairy_engine::MemoryFs;
use serde_json::{json, Value};

use crate::inputs::{bounded, config, mutated, token_soup, WEBSHOP};

/// Workspaces of the example project, loaded once each and reused: a
/// decision only reads the project, and loading it for every case would
/// cost most of the run. A case that never finishes keeps its workspace,
/// so it cannot hold up the others.
fn pool() -> &'static Mutex<Vec<ClaudeWorkspace>> {
    static POOL: OnceLock<Mutex<Vec<ClaudeWorkspace>>> = OnceLock::new();
    POOL.get_or_init(|| Mutex::new(Vec::new()))
}

fn workspace() -> ClaudeWorkspace {
    let mut fs = MemoryFs::new();
    fs.add_dir("/p/.git");
    for (path, bytes) in WEBSHOP {
        fs.add_file(&format!("/p/{path}"), bytes);
    }
    let mut ws = ClaudeWorkspace::new("/p", "/p");
    ws.mark_checkout("/p");
    ws.refresh_from(&fs);
    for (path, bytes) in WEBSHOP {
        ws.put_document(&format!("/p/{path}"), bytes);
    }
    ws
}

const RULES: &[&str] = &[
    "base.mdc",
    "testing.mdc",
    "api/handlers.mdc",
    "db/migrations.mdc",
    "ui/components.mdc",
];

/// Entries as Claude Code shows them to the model.
fn as_reminder(entries: &[String]) -> String {
    format!(
        "<system-reminder>\ntool.call hook additional context: {}\n</system-reminder>",
        entries.join("\n")
    )
}

const SEEDS: &[&[u8]] = &[
    br#"{"kind":"prompt","key":"s1-p1-1","prompt":"add an endpoint and a test","context":[],"state":"","stateFile":".rule-fairy/claude/s1.json","now":1000,"facts":{"model":"claude-opus","platform":"linux","ciEnv":[null,"true"],"branch":"main","agent":null,"tools":["Bash","Edit"]},"contents":[]}"#,
    br#"{"kind":"edit","key":"s1-e1-2","file":"/p/src/api/orders.ts","context":["[rule-fairy shard 1/1 abc]\n[rule-fairy injected: base.mdc]"],"state":"{\"version\":1,\"delivered\":{\"base.mdc\":1000}}","stateFile":"s.json","now":2000,"contents":["export const x = 1;",null]}"#,
    br#"{"kind":"shell","key":"k","shell":{"started":1,"toplevel":"/p","changed":[["src/ui/Button.tsx",5],["db/migrations/001_init.sql",-1]]},"now":9223372036854775807}"#,
];

/// A request of any kind with generated fields, some hostile.
fn request() -> impl Strategy<Value = Value> {
    let path = prop_oneof![
        prop::sample::select(vec![
            "/p/src/api/orders.ts",
            "/p/src/ui/Button.tsx",
            "/p/db/migrations/001_init.sql",
            "/p/../outside/x.ts",
            "/outside/x.ts",
            "src/api/x.ts",
            "",
            "/p",
        ])
        .prop_map(str::to_string),
        token_soup().prop_map(|s| format!("/p/src/{s}")),
    ];
    (
        prop::sample::select(vec!["prompt", "edit", "shell"]),
        token_soup(),
        prop::option::of(path.clone()),
        prop::collection::vec(token_soup(), 0..3),
        prop_oneof![Just(String::new()), token_soup(), Just("{\"version\":1,\"delivered\":{\"base.mdc\":-9223372036854775808}}".to_string())],
        any::<i64>(),
        prop::collection::vec((path, any::<i64>()), 0..4),
        prop::collection::vec(prop::option::of(token_soup()), 0..3),
    )
        .prop_map(|(kind, prompt, file, context, state, now, changed, contents)| {
            json!({
                "kind": kind, "key": format!("k-{now}"), "prompt": prompt, "file": file,
                "shell": {"started": now.saturating_sub(10), "toplevel": "/p", "changed": changed},
                "context": context, "state": state, "stateFile": ".rule-fairy/claude/s.json",
                "now": now, "contents": contents,
            })
        })
}

/// What a decision answered (the response type is the mod's, not named
/// outside the engine).
struct Response {
    entries: Vec<String>,
    delivered: Vec<String>,
    deferred: Vec<String>,
    state: Option<String>,
}

/// The request read from the wire and decided; `None` when it is not a
/// request.
fn decide(bytes: Vec<u8>) -> Option<(EventRequest, Response)> {
    bounded("claude request", move || {
        let request: EventRequest = serde_json::from_slice(&bytes).ok()?;
        let taken = pool().lock().unwrap_or_else(PoisonError::into_inner).pop();
        let mut ws = taken.unwrap_or_else(workspace);
        let r = ws.decide(&request);
        pool()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(ws);
        let response = Response {
            entries: r.entries,
            delivered: r.delivered,
            deferred: r.deferred,
            state: r.state,
        };
        Some((request, response))
    })
}

fn check_response(response: &Response) -> Result<(), TestCaseError> {
    for name in response.delivered.iter().chain(&response.deferred) {
        prop_assert!(RULES.contains(&name.as_str()), "{}", name);
    }
    if let Some(state) = &response.state {
        prop_assert!(
            serde_json::from_str::<Value>(state).is_ok(),
            "the state saved is not JSON: {}",
            state
        );
    }
    for entry in &response.entries {
        prop_assert!(entry.starts_with("[rule-fairy "), "{}", entry);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    /// Mutated real requests: read or refused, and a decision names only
    /// the project's rules and saves a state that is JSON.
    #[test]
    fn mutated_requests_are_decided(bytes in mutated(SEEDS)) {
        if let Some((_, response)) = decide(bytes) {
            check_response(&response)?;
        }
    }

    /// Generated requests, hostile fields included.
    #[test]
    fn generated_requests_are_decided(request in request()) {
        let (_, response) = decide(request.to_string().into_bytes()).expect("a well-formed request");
        check_response(&response)?;
    }

    /// A rule delivered once is not delivered again while its frames are
    /// in the conversation and the state says so.
    #[test]
    fn a_delivery_is_not_repeated(
        request in request(),
        kind in prop::sample::select(vec![
            ("prompt", "/p/src/api/orders.ts"), ("edit", "/p/src/api/orders.ts"),
            ("edit", "/p/src/ui/Button.tsx"), ("edit", "/p/db/migrations/001_init.sql"),
        ]),
        prompt in "(endpoint|handler|test|migration|component|[a-z]{1,5}| ){1,6}",
        now in 1..4_000_000_000_000i64,
        later in 1..59_000i64,
    ) {
        let mut request = request;
        request["kind"] = json!(kind.0);
        request["file"] = json!(kind.1);
        request["prompt"] = json!(prompt);
        request["now"] = json!(now);
        request["state"] = json!("");
        let Some((first, response)) = decide(request.to_string().into_bytes()) else {
            return Ok(());
        };
        prop_assume!(!response.delivered.is_empty());
        let mut again = request.clone();
        again["key"] = json!(format!("again-{}", first.now));
        again["now"] = json!(first.now + later);
        again["context"] = json!([as_reminder(&response.entries)]);
        again["state"] = json!(response.state.clone().unwrap_or_default());
        let (_, second) = decide(again.to_string().into_bytes()).expect("a well-formed request");
        for name in &second.delivered {
            prop_assert!(!response.delivered.contains(name), "{} delivered twice", name);
        }
    }
}
