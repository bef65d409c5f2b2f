//! The Codex hooks under bad input and faults: nothing crashes, nothing
//! recorded is lost, and what went wrong is said with its file and line.

use std::fs;
use std::thread;

use serde_json::json;

use crate::util::codex::*;
use crate::util::*;

fn base_project() -> Project {
    let p = project();
    p.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    p
}

#[test]
fn malformed_input_is_refused_with_its_position_and_loses_no_state() {
    let p = base_project();
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", None))).unwrap();
    let before = fs::read(p.state_dir().join("s1.json")).unwrap();
    for (stdin, expected) in [
        (
            &b"{\"session_id\": \"s1\",\n \"prompt\": oops}"[..],
            "not JSON: line 2, column",
        ),
        (b"[\"s1\"]", "not a JSON object"),
        (b"{\"session_id\": 7, \"prompt\": \"hi\"}", "wrong type"),
        (b"{\"prompt\": \"hi\"}", "no `session_id`"),
        (b"{\"session_id\": \"s1\"}", "no `prompt`"),
        (b"\xff\xfe", "not JSON"),
    ] {
        for hook in ["prompt", "post-tool", "session-start"] {
            if hook != "prompt" && expected == "no `prompt`" {
                continue; // only the prompt hook needs a prompt
            }
            let out = p.hook_raw(p.root(), hook, stdin, &[]);
            assert_eq!(out.status.code(), Some(1), "{hook} {stdin:?}");
            assert!(out.stdout.is_empty(), "{hook}: {:?}", out.stdout);
            assert!(stderr(&out).starts_with("rule-fairy: "), "{}", stderr(&out));
            assert!(stderr(&out).contains(expected), "{hook}: {}", stderr(&out));
        }
    }
    assert_eq!(fs::read(p.state_dir().join("s1.json")).unwrap(), before);
    // Blank input is no event at all.
    let blank = p.hook_raw(p.root(), "prompt", b"", &[]);
    assert_eq!(codex_accepts(PROMPT, &blank), None);
    assert!(blank.stderr.is_empty());
}

#[test]
fn a_session_id_that_climbs_out_is_refused_and_writes_nothing() {
    let p = base_project();
    for id in ["../x", "a/b", "..", "a\\b"] {
        for (hook, input) in [
            ("prompt", prompt_input(id, "hi", None)),
            ("post-tool", patch_input(id, &add_file_patch("a.txt"), None)),
            ("session-start", session_start_input(id, "compact", None)),
        ] {
            let out = p.hook(hook, &input);
            assert_eq!(out.status.code(), Some(1));
            assert!(out.stdout.is_empty());
            assert!(stderr(&out).contains("session_id"), "{}", stderr(&out));
        }
    }
    assert!(!p.root().join(".rule-fairy").exists());
    assert!(!p.root().join("x.json").exists());
}

#[test]
fn a_corrupt_state_file_is_replaced_with_a_note() {
    let p = base_project();
    fs::create_dir_all(p.state_dir()).unwrap();
    fs::write(
        p.state_dir().join("s1.json"),
        "{\"injected\": {\"base.mdc\": ",
    )
    .unwrap();
    let out = p.hook("prompt", &prompt_input("s1", "hi", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
    let note = stderr(&out);
    assert!(note.contains("s1.json: not a session state"), "{note}");
    assert!(
        note.contains("starting this session's record afresh"),
        "{note}"
    );
    assert!(p.state("s1")["injected"]["base.mdc"].is_object());
    // Recovered: the next prompt reads it and sends nothing again.
    let next = p.hook("prompt", &prompt_input("s1", "hi", None));
    assert_eq!(codex_accepts(PROMPT, &next), None);
    assert!(next.stderr.is_empty(), "{}", stderr(&next));
}

#[test]
fn a_missing_transcript_is_noted_and_deduplication_still_holds() {
    let p = base_project();
    let gone = p.root().join("gone.jsonl");
    let first = p.hook("prompt", &prompt_input("s1", "hi", Some(&gone)));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &first).unwrap()),
        vec!["base.mdc"]
    );
    assert!(
        stderr(&first).contains("cannot read the transcript"),
        "{}",
        stderr(&first)
    );
    assert_eq!(
        codex_accepts(
            PROMPT,
            &p.hook("prompt", &prompt_input("s1", "hi", Some(&gone)))
        ),
        None
    );
}

#[test]
fn a_transcript_ending_mid_line_counts_the_record_once_complete() {
    let p = base_project();
    let transcript = p.root().join("rollout.jsonl");
    append(&transcript, EVENT_LINE);
    let t = Some(transcript.as_path());
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", t))).unwrap();
    let (head, tail) = COMPACTED.split_at(40);
    fs::OpenOptions::new()
        .append(true)
        .open(&transcript)
        .and_then(|mut f| {
            use std::io::Write;
            f.write_all(head.as_bytes())
        })
        .unwrap();
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", t))),
        None
    );
    append(&transcript, tail);
    let out = p.hook("prompt", &prompt_input("s1", "hi", t));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
}

#[test]
fn a_transcript_replaced_by_a_shorter_one_starts_over() {
    let p = base_project();
    let transcript = p.root().join("rollout.jsonl");
    for _ in 0..3 {
        append(&transcript, COMPACTED);
    }
    let t = Some(transcript.as_path());
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", t))).unwrap();
    fs::write(&transcript, format!("{EVENT_LINE}\n")).unwrap();
    let out = p.hook("prompt", &prompt_input("s1", "hi", t));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
    assert!(
        stderr(&out).contains("shorter than before"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        p.state("s1")["transcript_scan"]["compaction_count"],
        json!(0)
    );
    // From there on, the new file's compactions count from zero.
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", t))),
        None
    );
    append(&transcript, COMPACTED);
    let out = p.hook("prompt", &prompt_input("s1", "hi", t));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
}

#[test]
fn a_broken_configuration_fails_visibly_with_its_line() {
    let p = base_project();
    p.write(
        "rule-fairy.edn",
        "{:rules {:dirs [\".cursor/rules\"]}\n :shell-hook {:codex \"yes\"}}",
    );
    let out = p.hook("prompt", &prompt_input("s1", "hi", None));
    let context = codex_accepts(PROMPT, &out).unwrap();
    assert!(context.starts_with("[rule-fairy error: prompt delivery failed]\nrule-fairy.edn:2: :shell-hook values in rule-fairy.edn must be true or false\nNo matched rules were injected or marked as injected."), "{context}");
    let message: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(message["systemMessage"]
        .as_str()
        .unwrap()
        .contains("rule-fairy.edn:2"));
    assert!(stderr(&out).contains("rule-fairy.edn:2"));
}

#[test]
fn a_broken_rule_is_named_and_keeps_only_its_paths_pending() {
    let p = git_project();
    p.write("rule-fairy.edn", "{:shell-hook {:codex true}}")
        .rule(
            "lib.mdc",
            "---\nglobs: lib/**\n---\n# Lib rule\n\n@doc/lib.md",
        )
        .rule("src.mdc", "---\nglobs: src/**\n---\n# Src rule");
    p.sh("git add -A && git commit -qm rules");
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", None)));
    p.sh("mkdir -p lib src && echo x > lib/x.clj && echo y > src/y.clj");
    let out = p.hook("post-tool", &bash_input("s1", "echo x > lib/x.clj", None));
    let context = codex_accepts(POST_TOOL, &out).unwrap();
    let named = ".cursor/rules/lib.mdc:6: lib.mdc: Rule import does not exist: doc/lib.md";
    assert_eq!(injected(&context), vec!["src.mdc"]);
    assert!(
        context.ends_with(&format!("\n\n[rule-fairy error: 1 broken rule left out: lib.mdc]\n- {named}\nThey were not injected or marked as injected, so each is tried again with the next event that matches it; the other matched rules were delivered as usual.")),
        "{context}"
    );
    let message: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The person's line for the delivery, then the problem on its own line.
    assert_eq!(
        message["systemMessage"],
        format!("Rule Fairy: src.mdc (glob src/**)\nRule Fairy: 1 broken rule left out: {named}")
    );
    let state = p.state("s1");
    assert_eq!(state["shell"]["pending"], json!(["lib/x.clj"]));
    assert_eq!(
        state["journal"]["problems"][0]["text"],
        format!("1 broken rule left out: {named}")
    );
    let recorded: Vec<&String> = state["injected"].as_object().unwrap().keys().collect();
    assert_eq!(recorded, vec!["src.mdc"]);
    p.write("doc/lib.md", "# Lib doc\n\nHow lib works.\n");
    let out = p.hook("post-tool", &bash_input("s1", "true", None));
    let context = codex_accepts(POST_TOOL, &out).unwrap();
    assert_eq!(injected(&context), vec!["lib.mdc"]);
    // `src/y.clj` may be found again within the same second; it is named,
    // but its rule, delivered, is not due.
    assert!(context.contains("glob on lib/x.clj"), "{context}");
    assert!(context.contains("How lib works."));
    assert!(!context.contains("broken rule"), "{context}");
    assert_eq!(p.state("s1")["shell"]["pending"], json!([]));
}

#[test]
fn a_rule_that_cannot_be_read_is_named_and_the_others_still_arrive() {
    let p = base_project();
    p.write(
        ".cursor/rules/latin1.mdc",
        b"---\nalwaysApply: true\n---\n# Caf\xe9\n",
    );
    let out = p.hook("prompt", &prompt_input("s1", "hi", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
    let message: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warning = message["systemMessage"].as_str().unwrap();
    assert!(warning.contains(".cursor/rules/latin1.mdc:4"), "{warning}");
    assert!(warning.contains("left out"), "{warning}");
}

/// How many hooks race: 16, or `RULE_FAIRY_CONCURRENT_HOOKS` for a
/// heavier run (the note's 64).
fn racing_hooks() -> usize {
    std::env::var("RULE_FAIRY_CONCURRENT_HOOKS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(16)
}

#[test]
fn sixteen_hooks_of_one_session_at_once_lose_no_record() {
    let p = project();
    let hooks = racing_hooks();
    for i in 0..hooks {
        p.rule(
            &format!("r{i:02}.mdc"),
            format!("---\nglobs: src/m{i:02}/**\n---\n# Rule {i}"),
        );
    }
    p.rule("shared.mdc", "---\nglobs: src/**\n---\n# Shared");
    // Start them all before feeding any, so they race for the lock.
    let children: Vec<_> = (0..hooks)
        .map(|i| (i, p.rule_fairy().args(["codex", "post-tool"]).spawn()))
        .collect();
    let handles: Vec<_> = children
        .into_iter()
        .map(|(i, mut child)| {
            let input =
                patch_input("s1", &add_file_patch(&format!("src/m{i:02}/a.ts")), None).to_string();
            thread::spawn(move || {
                feed(&mut child, input.as_bytes());
                child.wait_with_output().unwrap()
            })
        })
        .collect();
    let mut delivered: Vec<String> = Vec::new();
    for handle in handles {
        let out = handle.join().unwrap();
        if let Some(context) = codex_accepts(POST_TOOL, &out) {
            delivered.extend(injected(&context));
        }
    }
    delivered.sort();
    let mut expected: Vec<String> = (0..hooks).map(|i| format!("r{i:02}.mdc")).collect();
    expected.push("shared.mdc".to_string());
    expected.sort();
    // Every rule exactly once across the outputs, and all recorded.
    assert_eq!(delivered, expected);
    let state = p.state("s1");
    let recorded: Vec<&String> = state["injected"].as_object().unwrap().keys().collect();
    assert_eq!(recorded, expected.iter().collect::<Vec<_>>());
    let leftovers: Vec<_> = fs::read_dir(p.state_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
