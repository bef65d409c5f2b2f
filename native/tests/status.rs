//! What the person sees (behaviour §10): the line a Codex delivery shows,
//! `:notify`, and `rule-fairy status` over the state files of both hosts,
//! bad ones among them, never writing.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::{json, Value};

use crate::util::codex::*;
use crate::util::*;

fn rules_project() -> Project {
    let p = project();
    p.rule(
        "base.mdc",
        "---\nalwaysApply: true\n---\n# Base\n\nBase rule.",
    );
    p.rule(
        "ui/components.mdc",
        "---\npromptAnyOf: button\n---\n# Components\n\nButtons.",
    );
    p.rule(
        "testing.mdc",
        "---\nglobs: *.test.ts\n---\n# Tests\n\nTest well.",
    );
    p
}

fn status_json(p: &Project, args: &[&str]) -> Value {
    let mut all = vec!["status", "--json"];
    all.extend_from_slice(args);
    let out = p.run(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

/// Every file below `dir` with its bytes, so a test can tell nothing was
/// written, moved or removed.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in fs::read_dir(&at).unwrap().flatten() {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                stack.push(path.clone());
            }
            let bytes = if kind.is_file() {
                fs::read(&path).unwrap()
            } else {
                Vec::new()
            };
            files.insert(path.display().to_string(), bytes);
        }
    }
    files
}

#[test]
fn a_delivery_shows_the_person_one_line_naming_the_rules_and_why() {
    let p = rules_project();
    let out = p.hook("prompt", &prompt_input("s1", "a blue button", None));
    codex_accepts(PROMPT, &out).unwrap();
    let message: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        message["systemMessage"],
        "Rule Fairy: base.mdc (always on), ui/components.mdc (keyword \"button\")"
    );
    p.write("src/a.test.ts", "test()");
    let out = p.hook(
        "post-tool",
        &patch_input("s1", &add_file_patch("src/a.test.ts"), None),
    );
    let message: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        message["systemMessage"],
        "Rule Fairy: testing.mdc (glob *.test.ts)"
    );
    // Nothing due: no delivery, no line.
    let out = p.hook("prompt", &prompt_input("s1", "a blue button", None));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
}

#[test]
fn notify_false_silences_the_delivery_line_but_not_the_problems() {
    let p = rules_project();
    p.write("rule-fairy.edn", "{:notify false}");
    p.rule(
        "broken.mdc",
        "---\nalwaysApply: true\n---\n# Broken\n\n@docs/missing.md\n",
    );
    let out = p.hook("prompt", &prompt_input("s1", "hi", None));
    let context = codex_accepts(PROMPT, &out).unwrap();
    assert_eq!(injected(&context), vec!["base.mdc"]);
    let message: Value = serde_json::from_slice(&out.stdout).unwrap();
    let shown = message["systemMessage"].as_str().unwrap();
    assert!(!shown.contains("base.mdc"), "{shown}");
    assert!(
        shown.starts_with("Rule Fairy: 1 broken rule left out: "),
        "{shown}"
    );
    // A bad value keeps the lines on, and `check` names it.
    p.write("rule-fairy.edn", "{:notify \"quiet\"}");
    let out = p.hook("prompt", &prompt_input("s2", "hi", None));
    let message: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(message["systemMessage"]
        .as_str()
        .unwrap()
        .starts_with("Rule Fairy: base.mdc (always on)\n"));
    let check = p.run(&["check", "--format", "short"]);
    assert!(
        stdout(&check)
            .contains("rule-fairy.edn:1: error: :notify in rule-fairy.edn must be true or false"),
        "{}",
        stdout(&check)
    );
}

#[test]
fn status_lists_what_a_session_received_and_what_every_rule_up_front_would_cost() {
    let p = rules_project();
    p.hook("prompt", &prompt_input("s1", "a blue button", None));
    p.write("src/a.test.ts", "test()");
    p.hook(
        "post-tool",
        &patch_input("s1", &add_file_patch("src/a.test.ts"), None),
    );
    let status = status_json(&p, &[]);
    let session = &status["sessions"][0];
    assert_eq!(
        (&session["host"], &session["id"]),
        (&json!("codex"), &json!("s1"))
    );
    let delivered: Vec<(&str, &str)> = session["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| {
            let event = d["event"].as_str().unwrap();
            d["rules"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |r| (event, r["name"].as_str().unwrap()))
        })
        .collect();
    assert_eq!(
        delivered,
        vec![
            ("prompt", "base.mdc"),
            ("prompt", "ui/components.mdc"),
            ("edit", "testing.mdc")
        ]
    );
    let edit = &session["deliveries"][1];
    assert_eq!(
        edit["rules"][0]["reasons"],
        json!([{"kind": "glob", "glob": "*.test.ts", "path": "src/a.test.ts"}])
    );
    assert!(edit["rules"][0]["chars"].as_u64().unwrap() > 0);
    let totals = &session["totals"];
    assert_eq!(
        (&totals["deliveries"], &totals["rules"]),
        (&json!(2), &json!(3))
    );
    let chars = totals["chars"].as_u64().unwrap();
    assert_eq!(session["estimatedTokens"], json!(chars.div_ceil(4)));
    let upfront = &status["everyRuleAtStart"];
    assert_eq!(upfront["rules"], json!(3));
    assert!(upfront["chars"].as_u64().unwrap() > 0);
    // The text names the same.
    let text = stdout(&p.run(&["status"]));
    assert!(text.contains("Codex session s1"), "{text}");
    assert!(
        text.contains("    testing.mdc (glob `*.test.ts` on src/a.test.ts), "),
        "{text}"
    );
    assert!(
        text.contains("every rule at session start would be 3 rules"),
        "{text}"
    );
}

#[test]
fn status_reads_bad_session_files_reports_them_and_writes_nothing() {
    let p = rules_project();
    p.hook("prompt", &prompt_input("s1", "a blue button", None));
    let codex = ".rule-fairy/codex";
    p.write(&format!("{codex}/empty.json"), "");
    p.write(&format!("{codex}/corrupt.json"), "{\"injected\": {");
    p.write(
        &format!("{codex}/foreign.json"),
        "{\"name\": \"a package\"}",
    );
    // Larger than any state a hook writes: refused unread.
    let huge = fs::File::create(p.path(format!("{codex}/huge.json"))).unwrap();
    huge.set_len(50 * 1024 * 1024).unwrap();
    mkfifo(&p.path(format!("{codex}/fifo.json")));
    // A Claude Code session with the same id as the Codex one.
    p.write(
        ".rule-fairy/claude/s1.json",
        r#"{"delivered":{"base.mdc":5},"shell":{"checked_at_ms":5,"pending":["src/x.ts"]},"journal":{"deliveries":[{"atMs":5,"event":"prompt","rules":[{"name":"base.mdc","reasons":[{"kind":"alwaysApply"}],"chars":20}],"deferred":["big.mdc"],"chars":50}],"totals":{"deliveries":1,"rules":1,"chars":50}},"ts":5}"#,
    );
    let before = tree(p.root());
    let status = status_json(&p, &["--session", "s1"]);
    let hosts: Vec<&str> = status["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["host"].as_str().unwrap())
        .collect();
    assert_eq!(hosts.len(), 2);
    assert!(
        hosts.contains(&"claude") && hosts.contains(&"codex"),
        "{hosts:?}"
    );
    let claude = status["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["host"] == "claude")
        .unwrap();
    assert_eq!(claude["deferred"], json!(["big.mdc"]));
    assert_eq!(claude["pendingShellPaths"], json!(["src/x.ts"]));
    let unread: BTreeMap<String, String> = status["unread"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["file"].as_str().unwrap().to_string(),
                u["problem"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let problem = |name: &str| unread[&format!("{codex}/{name}")].clone();
    assert_eq!(
        problem("empty.json"),
        "not a session state: the file is empty"
    );
    assert!(
        problem("corrupt.json").starts_with("not a session state: "),
        "{unread:?}"
    );
    assert_eq!(
        problem("foreign.json"),
        "not a session state: it has none of a session state's keys"
    );
    assert!(
        problem("huge.json").contains("too large (52428800 bytes"),
        "{unread:?}"
    );
    assert_eq!(problem("fifo.json"), "it is not a regular file");
    assert_eq!(
        tree(p.root()),
        before,
        "status wrote, moved or removed a file"
    );
    // The host and latest filters; a session and --latest exclude each other.
    let both = p.run(&["status", "--latest", "--session", "s1"]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    let latest = status_json(&p, &["--latest", "--host", "claude"]);
    assert_eq!(latest["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(latest["sessions"][0]["host"], "claude");
}

#[test]
fn opencode_sessions_and_their_subagents_are_reported() {
    let p = rules_project();
    let state = r#"{"delivered":{"base.mdc":5},"journal":{"deliveries":[{"atMs":5,"event":"prompt","rules":[{"name":"base.mdc","reasons":[{"kind":"alwaysApply"}],"chars":20}],"deferred":[],"chars":50}],"totals":{"deliveries":1,"rules":1,"chars":50}},"ts":5}"#;
    p.write(".rule-fairy/opencode/ses_a.json", state);
    p.write(".rule-fairy/opencode/ses_a.agent-ses_b.json", state);
    let status = status_json(&p, &["--host", "opencode"]);
    let sessions = status["sessions"].as_array().unwrap();
    let seen: Vec<(&str, &str, Option<&str>)> = sessions
        .iter()
        .map(|s| {
            (
                s["host"].as_str().unwrap(),
                s["id"].as_str().unwrap(),
                s["agent"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        vec![
            ("opencode", "ses_a", Some("ses_b")),
            ("opencode", "ses_a", None)
        ]
    );
    assert_eq!(sessions[1]["deliveries"][0]["rules"][0]["name"], "base.mdc");
    let text = p.run(&["status", "--host", "opencode"]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains("opencode session ses_a"), "{out}");
}

#[test]
fn a_state_directory_that_is_a_file_is_reported_and_the_rest_is_shown() {
    let p = rules_project();
    p.write(".rule-fairy", "not a directory");
    let status = status_json(&p, &[]);
    assert_eq!(status["sessions"], json!([]));
    let unread = status["unread"].as_array().unwrap();
    // One entry for each host's state directory.
    assert_eq!(unread.len(), 3, "{unread:?}");
    assert!(
        unread[0]["problem"]
            .as_str()
            .unwrap()
            .contains(".rule-fairy"),
        "{unread:?}"
    );
    assert_eq!(status["everyRuleAtStart"]["rules"], json!(3));
    let text = stdout(&p.run(&["status"]));
    assert!(text.contains("No session has been recorded"), "{text}");
    assert!(text.contains("not read: .rule-fairy/claude: "), "{text}");
}

#[test]
fn the_status_skill_launcher_picks_the_session_and_runs_only_status_and_doctor() {
    let rel = "skills/status/scripts/run";
    let plugin = installed(rel);
    let launcher = plugin.path(rel);
    let p = rules_project();
    // A program that prints the arguments it was given.
    let fake = p.path("fake-rule-fairy");
    write_program(&fake, "#!/bin/sh\nprintf '%s\\n' \"$*\"\n");
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut command = launch(&p, &launcher)
            .env("RULE_FAIRY_BIN", &fake)
            .args(args);
        for (key, value) in env {
            command = command.env(key, value);
        }
        command.output()
    };
    let codex = run(
        &["status", "--host", "codex"],
        &[("CODEX_THREAD_ID", "t-1")],
    );
    assert_eq!(stdout(&codex), "status --host codex --session t-1\n");
    let latest = run(&["status"], &[]);
    assert_eq!(stdout(&latest), "status --latest\n");
    let named = run(
        &["status", "--session", "abc"],
        &[("CODEX_THREAD_ID", "t-1")],
    );
    assert_eq!(stdout(&named), "status --session abc\n");
    assert_eq!(stdout(&run(&["doctor"], &[])), "doctor\n");
    let other = run(&["review", "clean"], &[]);
    assert_eq!(other.status.code(), Some(2));
    assert!(
        stderr(&other).starts_with("usage: scripts/run status"),
        "{}",
        stderr(&other)
    );
    // With the real program, the launcher's status is the command's.
    let real = launch(&p, &launcher)
        .env("RULE_FAIRY_BIN", crate::util::BIN)
        .args(["status", "--json"])
        .output();
    assert_eq!(real.status.code(), Some(0), "{}", stderr(&real));
    let value: Value = serde_json::from_str(&stdout(&real)).unwrap();
    assert_eq!(value["sessions"], json!([]));
}

#[test]
fn why_not_with_a_session_says_whether_its_record_holds_the_rule_back() {
    let p = rules_project();
    p.hook("prompt", &prompt_input("s1", "a blue button", None));
    let why = |args: &[&str]| {
        let mut all = vec![
            "explain",
            "--prompt",
            "a button",
            "--why-not",
            "ui/components.mdc",
        ];
        all.extend_from_slice(args);
        p.run(&all)
    };
    let text = stdout(&why(&["--session", "s1"]));
    assert!(
        text.contains("delivery: durable: held back: delivered in this session and not due again"),
        "{text}"
    );
    // A Claude Code session of the same id: the host must be named.
    p.write(
        ".rule-fairy/claude/s1.json",
        r#"{"delivered":{},"shell":{"checked_at_ms":null,"pending":[]},"ts":5}"#,
    );
    let both = why(&["--session", "s1"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(
        stderr(&both).contains("say which with --host claude, --host codex or --host opencode"),
        "{}",
        stderr(&both)
    );
    let claude = stdout(&why(&["--session", "s1", "--host", "claude"]));
    assert!(
        claude.contains("not held back: never delivered in this session"),
        "{claude}"
    );
    let json: Value = serde_json::from_str(&stdout(&why(&[
        "--session",
        "s1",
        "--host",
        "codex",
        "--json",
    ])))
    .unwrap();
    assert_eq!(json["delivery"]["session"]["held"], json!(true), "{json}");
    let missing = why(&["--session", "s9"]);
    assert!(
        stderr(&missing).contains("no session s9"),
        "{}",
        stderr(&missing)
    );
}
