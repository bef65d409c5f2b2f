//! Codex hooks with rule conditions and the gate at the write: the facts
//! Codex reports (the model), durable and ephemeral rules over two turns and
//! a compaction, and ast-grep findings handed back after an edit.

use serde_json::json;

use crate::util::codex::*;
use crate::util::*;

fn conditioned() -> Project {
    let p = project();
    p.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base rule")
        .rule("gpt.mdc", "---\nmodel: [gpt-5.5]\n---\n# GPT rule")
        .rule(
            "other.mdc",
            "---\nmodel: [another-model]\n---\n# Other rule",
        );
    p
}

#[test]
fn a_durable_and_an_ephemeral_rule_over_two_turns_and_a_compaction() {
    let p = conditioned();
    let transcript = p.root().join("rollout.jsonl");
    append(&transcript, EVENT_LINE);
    let t = Some(transcript.as_path());
    let turn = |text: &str| codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", text, t)));
    // Turn 1: both; the model fact comes from Codex's input.
    assert_eq!(
        injected(&turn("first").unwrap()),
        vec!["base.mdc", "gpt.mdc"]
    );
    // Turn 2: the durable rule is recorded; the ephemeral one comes again.
    append(&transcript, EVENT_LINE);
    assert_eq!(injected(&turn("second").unwrap()), vec!["gpt.mdc"]);
    let state = p.state("s1");
    let recorded: Vec<&String> = state["injected"].as_object().unwrap().keys().collect();
    assert_eq!(
        recorded,
        vec!["base.mdc"],
        "ephemeral rules are never recorded"
    );
    // After a compaction the durable rule is due again.
    append(&transcript, COMPACTED);
    assert_eq!(
        injected(&turn("third").unwrap()),
        vec!["base.mdc", "gpt.mdc"]
    );
}

#[test]
fn a_model_the_rule_does_not_name_leaves_it_out() {
    let p = conditioned();
    let mut input = prompt_input("s2", "hello", None);
    input["model"] = json!("another-model");
    let context = codex_accepts(PROMPT, &p.hook("prompt", &input)).unwrap();
    assert_eq!(injected(&context), vec!["base.mdc", "other.mdc"]);
}

#[cfg(feature = "gate")]
fn gated() -> Project {
    let p = project();
    p.write(
        ".kairoku/rules/no-eval.yml",
        "id: no-eval\nlanguage: TypeScript\nseverity: error\nmessage: Do not call eval.\nnote: >-\n  Incident 12: eval ran user input.\nrule:\n  pattern: eval($X)\n",
    );
    p
}

#[cfg(feature = "gate")]
#[test]
fn the_gate_hands_findings_back_after_an_edit() {
    let p = gated();
    p.write("src/a.ts", "const x = 1;\neval(input);\n");
    let out = p.hook(
        "post-tool",
        &patch_input(
            "s3",
            "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+x\n*** End Patch\n",
            None,
        ),
    );
    let context = codex_accepts(POST_TOOL, &out).expect("the finding reaches the model");
    assert!(
        context.starts_with("[rule-fairy gate: 1 finding in the files just written]\n"),
        "{context}"
    );
    assert!(
        context.contains("error[no-eval] src/a.ts:2: Do not call eval."),
        "{context}"
    );
    assert!(
        context.contains("  Incident 12: eval ran user input."),
        "{context}"
    );
    // A clean write says nothing.
    p.write("src/b.ts", "const y = 2;\n");
    let clean = p.hook(
        "post-tool",
        &patch_input("s3", &add_file_patch("src/b.ts"), None),
    );
    assert_eq!(codex_accepts(POST_TOOL, &clean), None);
}

#[cfg(feature = "gate")]
#[test]
fn the_gate_findings_follow_the_rules_of_the_edit() {
    let p = gated();
    p.rule("ts.mdc", "---\nglobs: src/**/*.ts\n---\n# TS rule")
        .write("src/a.ts", "eval(input);\n");
    let context = codex_accepts(
        POST_TOOL,
        &p.hook(
            "post-tool",
            &patch_input("s4", &add_file_patch("src/a.ts"), None),
        ),
    )
    .unwrap();
    let rules_at = context.find("# TS rule").unwrap();
    let gate_at = context.find("[rule-fairy gate:").unwrap();
    assert!(rules_at < gate_at, "{context}");
}

#[cfg(feature = "gate")]
#[test]
fn a_gate_that_cannot_run_is_told_once_per_session_and_never_blocks() {
    let p = gated();
    p.write(
        ".kairoku/rules/broken.yml",
        "id: broken\nlanguage: TypeScript\nrule: [unclosed\n",
    )
    .write("src/a.ts", "eval(input);\n");
    let first = p.hook(
        "post-tool",
        &patch_input("s5", &add_file_patch("src/a.ts"), None),
    );
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let context = codex_accepts(POST_TOOL, &first).unwrap();
    assert!(
        context.starts_with("[rule-fairy gate: the check of written files could not run: "),
        "{context}"
    );
    assert!(context.contains("broken.yml"), "{context}");
    let second = p.hook(
        "post-tool",
        &patch_input("s5", &add_file_patch("src/a.ts"), None),
    );
    assert_eq!(
        codex_accepts(POST_TOOL, &second),
        None,
        "told once per session"
    );
}

#[test]
fn after_a_compaction_session_start_brings_back_every_rule_that_needs_no_prompt() {
    let p = conditioned();
    p.write("Cargo.toml", "[package]\n")
        .rule("rust.mdc", "---\nproject: [rust]\n---\n# Rust rule")
        .rule("kw.mdc", "---\npromptAnyOf: widget\n---\n# Keyword rule");
    let out = p.hook("session-start", &session_start_input("s6", "compact", None));
    let context = codex_accepts(SESSION_START, &out).unwrap();
    assert_eq!(injected(&context), vec!["base.mdc", "gpt.mdc", "rust.mdc"]);
}
