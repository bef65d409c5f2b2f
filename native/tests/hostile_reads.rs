//! Paths a hook input names may be anything: a device, a FIFO, a file
//! outside the project or a link out of it. Nothing outside the project is
//! matched or read, only regular files are opened, and no hook hangs
//! (behaviour §0.1).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{json, Value};

use crate::util::codex::*;
use crate::util::*;

/// A secret the project must never make the hooks read.
const SECRET: &str = "BEGIN PRIVATE KEY";

/// A project whose rules fire on any edited path, and on a file's content.
fn watchful() -> Project {
    let p = project();
    p.rule("any.mdc", "---\nglobs: **\n---\n# Any").rule(
        "secret.mdc",
        format!("---\nfileContains: [\"{SECRET}\"]\n---\n# Secret"),
    );
    p
}

fn write_input(session: &str, file: &Path) -> Value {
    json!({"session_id": session, "turn_id": "t1", "transcript_path": null,
           "cwd": "/ignored", "hook_event_name": POST_TOOL, "model": "gpt-5.5",
           "permission_mode": "bypassPermissions", "tool_name": "Write",
           "tool_input": {"file_path": file, "content": "x"},
           "tool_response": "", "tool_use_id": "call_1"})
}

/// Runs a Codex hook that must finish within 20 seconds (a hang would be
/// killed and reported as such).
fn hook_within_bound(p: &Project, hook: &str, input: &Value) -> Output {
    let out = p
        .command("timeout")
        .args(["20", BIN, "codex", hook])
        .env_remove("RULE_FAIRY_PROJECT_DIR")
        .env_remove("RULE_FAIRY_PLUGIN_ROOT")
        .env_remove("PLUGIN_ROOT")
        .stdin(input.to_string())
        .output();
    assert_ne!(out.status.code(), Some(124), "the hook hung");
    out
}

fn delivered(out: &Output) -> String {
    codex_accepts(POST_TOOL, out).unwrap_or_default()
}

#[test]
fn a_device_named_by_an_edit_is_neither_matched_nor_read() {
    let p = watchful();
    let out = hook_within_bound(&p, "post-tool", &write_input("s1", Path::new("/dev/zero")));
    assert_eq!(delivered(&out), "", "{}", stderr(&out));
}

#[test]
fn a_fifo_in_the_project_is_matched_by_its_name_but_never_opened() {
    let p = watchful();
    let fifo = p.dir("src").join("pipe.ts");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let out = hook_within_bound(&p, "post-tool", &write_input("s1", &fifo));
    let context = delivered(&out);
    assert!(context.contains("# Any"), "{context}");
    assert!(!context.contains("# Secret"), "{context}");
}

#[test]
fn a_path_outside_the_project_matches_no_rule() {
    let p = watchful();
    let outside = p.beside("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("evil.ts"), SECRET).unwrap();
    let relative = json!({"file_path": "../outside/evil.ts", "content": "x"});
    let mut input = write_input("s1", Path::new("unused"));
    input["tool_input"] = relative;
    input["cwd"] = json!(p.root());
    let out = hook_within_bound(&p, "post-tool", &input);
    assert_eq!(delivered(&out), "", "{}", stderr(&out));
    let out = hook_within_bound(
        &p,
        "post-tool",
        &write_input("s2", &outside.join("evil.ts")),
    );
    assert_eq!(delivered(&out), "", "{}", stderr(&out));
}

#[test]
fn a_link_out_of_the_project_is_never_read_for_its_content() {
    let p = watchful();
    let key = p.beside("home").join("id_rsa");
    std::fs::write(&key, SECRET).unwrap();
    p.link("src/key.ts", &key);
    let out = hook_within_bound(&p, "post-tool", &write_input("s1", &p.path("src/key.ts")));
    // Codex places an edit where its links lead (behaviour §5.6): outside.
    assert_eq!(delivered(&out), "");
    // The same content inside the project is read: the rule is real.
    p.write("src/inside.ts", SECRET);
    let out = hook_within_bound(
        &p,
        "post-tool",
        &write_input("s2", &p.path("src/inside.ts")),
    );
    assert!(delivered(&out).contains("# Secret"));
}

#[test]
fn a_configuration_file_that_links_out_of_the_project_is_refused() {
    let p = watchful();
    let outside = p.beside("shared").join("rule-fairy.edn");
    std::fs::write(&outside, "{:rules {:dirs [\"rules\"]}}").unwrap();
    p.link("rule-fairy.edn", &outside);
    let out = p.run(&["check", "--format", "short"]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_ne!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("rule-fairy.edn"), "{text}");
    assert!(text.contains("leads outside the project"), "{text}");
}
