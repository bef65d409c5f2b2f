//! Requestable rules and mentions (behaviour §9) through the built
//! binary: what `explain` says of them, and Codex's shell hook bringing a
//! rule whose file a command reads, with the shell hook off.

use serde_json::{json, Value};

use crate::util::codex::*;
use crate::util::*;

fn requested_project() -> Project {
    let p = project();
    p.rule(
        "ops/release-checklist.mdc",
        "---\ndescription: Steps before tagging a release\nglobs:\nalwaysApply: false\n---\n# Release\n\n@docs/release.md#tagging",
    )
    .rule("manual.mdc", "# Manual\n\nBy hand.")
    .rule("web/x.mdc", "# X")
    .rule("api/x.mdc", "# X too");
    p.write(
        "docs/release.md",
        "# Release\n\n## Tagging\n\nSign every tag.\n\n## Other\n\nNot imported.\n",
    );
    p
}

#[test]
fn explain_shows_the_index_mentions_and_hints() {
    let p = requested_project();
    let out = p.json(&[
        "explain",
        "--prompt",
        "use @manual, @x and @gone-rule",
        "--json",
    ]);
    assert_eq!(
        out,
        json!({"event": "prompt",
        "rules": [{"name": "manual.mdc", "reasons": [{"kind": "mention", "mentions": ["@manual"]}]}],
        "requestable": [{"name": "ops/release-checklist.mdc",
            "file": ".cursor/rules/ops/release-checklist.mdc",
            "description": "Steps before tagging a release"}],
        "hints": [
            {"mention": "@x", "candidates": ["api/x.mdc", "web/x.mdc"]},
            {"mention": "@gone-rule", "candidates": []}
        ]})
    );
    let text = p.ok(&["explain", "--prompt", "use @x"]);
    assert!(text.starts_with("This prompt selects no rule.\nThe index offers 1 requestable rule (the model reads a file to get its rule):\n  ops/release-checklist.mdc  .cursor/rules/ops/release-checklist.mdc: Steps before tagging a release\nhint: @x could mean api/x.mdc, web/x.mdc; write more of its path\n"), "{text}");
    // The selected rules under their heading, then the index.
    let text = p.ok(&["explain", "--prompt", "use @manual"]);
    assert!(text.starts_with("This prompt selects 1 rule:\n  manual.mdc  mention @manual\nThe index offers 1 requestable rule"), "{text}");
    let rendered = p.ok(&["explain", "--prompt", "hello", "--render=codex"]);
    assert!(
        rendered.contains("[rule-fairy injected: index of requestable rules "),
        "{rendered}"
    );
    assert!(!rendered.contains("Sign every tag"), "{rendered}");
}

fn in_project(mut input: Value, p: &Project) -> Value {
    input["cwd"] = json!(p.root().to_string_lossy());
    input
}

#[test]
fn a_command_reading_the_rule_file_brings_it_with_the_shell_hook_off() {
    let p = requested_project();
    let cat = in_project(
        bash_input("s1", "cat .cursor/rules/ops/release-checklist.mdc", None),
        &p,
    );
    let context = codex_accepts(POST_TOOL, &p.hook("post-tool", &cat)).expect("the rule came");
    assert!(context.starts_with("[rule-fairy injected: ops/release-checklist.mdc]\n[rule-fairy matched: requested by reading .cursor/rules/ops/release-checklist.mdc]\n\n"), "{context}");
    assert!(context.contains("Sign every tag.") && !context.contains("Not imported."));
    // Held: a second read brings nothing; another command reads nothing.
    let sed = in_project(
        bash_input(
            "s1",
            "sed -n 1,80p ./.cursor/rules/ops/release-checklist.mdc",
            None,
        ),
        &p,
    );
    assert_eq!(codex_accepts(POST_TOOL, &p.hook("post-tool", &sed)), None);
    let ls = in_project(bash_input("s2", "ls -la", None), &p);
    assert_eq!(codex_accepts(POST_TOOL, &p.hook("post-tool", &ls)), None);
    // The manual rule's file is no request.
    let manual = in_project(bash_input("s3", "cat .cursor/rules/manual.mdc", None), &p);
    assert_eq!(
        codex_accepts(POST_TOOL, &p.hook("post-tool", &manual)),
        None
    );
}

#[test]
fn a_prompt_hook_brings_the_index_once_and_a_mention() {
    let p = requested_project();
    let first = codex_accepts(
        PROMPT,
        &p.hook("prompt", &prompt_input("s1", "hello", None)),
    )
    .expect("the index came");
    assert!(first.contains("- `ops/release-checklist.mdc` (`.cursor/rules/ops/release-checklist.mdc`): Steps before tagging a release"), "{first}");
    let second = codex_accepts(
        PROMPT,
        &p.hook("prompt", &prompt_input("s1", "now @manual", None)),
    )
    .expect("the mention came");
    assert!(
        second.starts_with(
            "[rule-fairy injected: manual.mdc]\n[rule-fairy matched: mention @manual]\n\n"
        ),
        "{second}"
    );
    assert!(!second.contains("Requestable rules"), "{second}");
}

#[test]
fn explain_lists_the_instruction_files_codex_would_not_read_for_an_edit() {
    let p = project();
    p.rule("ts.mdc", "---\nglobs: **/*.ts\n---\n# TS")
        .write("AGENTS.md", "Root.")
        .write("services/billing/AGENTS.md", "Billing.");
    let text = p.ok(&["explain", "--path", "services/billing/src/a.ts"]);
    assert!(text.contains("In Codex it also brings 1 instruction file Codex did not read below the working directory:\n  services/billing/AGENTS.md\n"), "{text}");
    assert!(text.ends_with("In Claude Code it also brings 1 instruction file Claude Code does not load:\n  services/billing/AGENTS.md\n"), "{text}");
    let out = p.json(&["explain", "--path", "services/billing/src/a.ts", "--json"]);
    assert_eq!(out["instructions"], json!(["services/billing/AGENTS.md"]));
    assert_eq!(
        out["claudeInstructions"]["edit"],
        json!(["services/billing/AGENTS.md"])
    );
    // A CLAUDE.md there: Claude Code's own edit loads it, a shell change
    // brings it, with what it imports.
    p.write("services/api/CLAUDE.md", "API. @rules.md")
        .write("services/api/rules.md", "Rules.");
    let text = p.ok(&["explain", "--path", "services/api/h.ts"]);
    assert!(text.ends_with("Changed by a shell command in Claude Code, it also brings 2 instruction files Claude Code loads only for its own tools:\n  services/api/CLAUDE.md\n  services/api/rules.md\n"), "{text}");
    // A session working in services/billing read it itself.
    let inside = p.json(&[
        "explain",
        "--path",
        "services/billing/src/a.ts",
        "--working-dir",
        "services/billing",
        "--json",
    ]);
    assert!(inside.get("instructions").is_none(), "{inside}");
}
