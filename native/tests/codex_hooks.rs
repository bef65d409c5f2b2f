//! `rule-fairy codex ...` processes on temporary projects: what each hook
//! delivers, when a rule is due again, and that every output is one Codex
//! accepts.

use std::fs;

use serde_json::json;

use crate::util::codex::*;
use crate::util::*;

fn widget_project() -> Project {
    let p = project();
    p.rule(
        "base.mdc",
        "---\nalwaysApply: true\n---\n# Base rule\n\nAlways.",
    )
    .rule(
        "widget.mdc",
        "---\nglobs: src/**\npromptAnyOf: widget\n---\n# Widget rule\n\nWidgets.",
    )
    .rule("docs.mdc", "---\nglobs: docs/**\n---\n# Docs rule");
    p
}

#[test]
fn a_prompt_delivers_always_on_and_keyword_rules_once_per_session() {
    let p = widget_project();
    let first = p.hook("prompt", &prompt_input("s1", "add a widget", None));
    let context = codex_accepts(PROMPT, &first).expect("rules delivered");
    assert!(context.starts_with("[rule-fairy injected: base.mdc]\n[rule-fairy injected: widget.mdc]\n[rule-fairy matched: alwaysApply base.mdc]\n[rule-fairy matched: keyword \"widget\"]\n\n"), "{context}");
    assert!(context.contains("# Widget rule\n\nWidgets."));
    let again = p.hook("prompt", &prompt_input("s1", "another widget", None));
    assert_eq!(codex_accepts(PROMPT, &again), None);
    // Another session gets them again.
    let other = p.hook("prompt", &prompt_input("s2", "a widget", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &other).unwrap()),
        vec!["base.mdc", "widget.mdc"]
    );
    assert_eq!(
        fs::read_to_string(p.state_dir().join(".gitignore")).unwrap(),
        "*\n"
    );
    assert!(p.state("s1")["injected"]["widget.mdc"].is_object());
}

#[test]
fn edit_and_prompt_hooks_share_one_record() {
    let p = project();
    p.rule(
        "both.mdc",
        "---\nalwaysApply: true\nglobs: src/**\n---\n# Both",
    );
    let edit = p.hook(
        "post-tool",
        &patch_input("s1", &add_file_patch("src/a.clj"), None),
    );
    let context = codex_accepts(POST_TOOL, &edit).unwrap();
    assert!(context.starts_with("[rule-fairy injected: both.mdc]\n[rule-fairy matched: glob on src/a.clj]\n\nApply these rules on the next pass over this edit."), "{context}");
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", None))),
        None
    );
    let prompt = p.hook("prompt", &prompt_input("s2", "hi", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &prompt).unwrap()),
        vec!["both.mdc"]
    );
    let edit = p.hook(
        "post-tool",
        &patch_input("s2", &add_file_patch("src/a.clj"), None),
    );
    assert_eq!(codex_accepts(POST_TOOL, &edit), None);
}

#[test]
fn a_compaction_makes_delivered_rules_due_again() {
    let p = widget_project();
    let transcript = p.root().join("rollout.jsonl");
    append(&transcript, EVENT_LINE);
    let t = Some(transcript.as_path());
    let first = p.hook("prompt", &prompt_input("s1", "widget", t));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &first).unwrap()),
        vec!["base.mdc", "widget.mdc"]
    );
    append(&transcript, EVENT_LINE);
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "widget", t))),
        None
    );
    append(&transcript, COMPACTED);
    let after = p.hook("prompt", &prompt_input("s1", "widget", t));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &after).unwrap()),
        vec!["base.mdc", "widget.mdc"]
    );
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "widget", t))),
        None
    );
    let state = p.state("s1");
    assert_eq!(state["transcript_scan"]["compaction_count"], json!(1));
    assert_eq!(
        state["transcript_scan"]["scanned_bytes"],
        json!(fs::metadata(&transcript).unwrap().len())
    );
}

#[test]
fn session_start_after_compaction_restores_always_on_rules_at_once() {
    let p = widget_project();
    let transcript = p.root().join("rollout.jsonl");
    append(&transcript, EVENT_LINE);
    let t = Some(transcript.as_path());
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "widget", t))).unwrap();
    // Before any compaction there is nothing to restore.
    let startup = p.hook("session-start", &session_start_input("s1", "compact", t));
    assert_eq!(codex_accepts(SESSION_START, &startup), None);
    append(&transcript, COMPACTED);
    let restored = p.hook("session-start", &session_start_input("s1", "compact", t));
    let context = codex_accepts(SESSION_START, &restored).unwrap();
    assert_eq!(injected(&context), vec!["base.mdc"]);
    assert!(context.contains("[rule-fairy matched: alwaysApply base.mdc]"));
    // The keyword rule comes back with the next prompt naming it; the
    // always-on rule is not sent twice.
    let next = p.hook("prompt", &prompt_input("s1", "widget", t));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &next).unwrap()),
        vec!["widget.mdc"]
    );
}

#[test]
fn without_a_transcript_session_start_announces_the_compaction() {
    let p = widget_project();
    codex_accepts(
        PROMPT,
        &p.hook("prompt", &prompt_input("s1", "widget", None)),
    )
    .unwrap();
    let restored = p.hook("session-start", &session_start_input("s1", "compact", None));
    assert_eq!(
        injected(&codex_accepts(SESSION_START, &restored).unwrap()),
        vec!["base.mdc"]
    );
    let next = p.hook("prompt", &prompt_input("s1", "widget", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &next).unwrap()),
        vec!["widget.mdc"]
    );
    // A resumed session (not a compaction) restores nothing.
    let resumed = p.hook("session-start", &session_start_input("s1", "resume", None));
    assert_eq!(codex_accepts(SESSION_START, &resumed), None);
}

#[test]
fn two_mebibytes_of_growth_without_a_compaction_record_make_rules_due() {
    let p = widget_project();
    let transcript = p.root().join("rollout.jsonl");
    append(&transcript, EVENT_LINE);
    let t = Some(transcript.as_path());
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", t))).unwrap();
    let filler = format!(
        r#"{{"type":"response_item","text":"{}"}}"#,
        "x".repeat(1 << 20)
    );
    append(&transcript, &filler);
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", t))),
        None
    );
    append(&transcript, &filler);
    let grown = p.hook("prompt", &prompt_input("s1", "hi", t));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &grown).unwrap()),
        vec!["base.mdc"]
    );
}

#[test]
fn an_apply_patch_move_selects_the_rules_of_both_paths() {
    let p = project();
    p.rule("origin.mdc", "---\nglobs: old/**\n---\n# Origin")
        .rule("destination.mdc", "---\nglobs: new/**\n---\n# Destination");
    let patch = "*** Begin Patch\n*** Update File: old/a.clj\n*** Move to: new/a.clj\n@@\n-a\n+b\n*** End Patch\n";
    let out = p.hook("post-tool", &patch_input("s1", patch, None));
    let context = codex_accepts(POST_TOOL, &out).unwrap();
    assert_eq!(injected(&context), vec!["origin.mdc", "destination.mdc"]);
    assert!(context.contains("[rule-fairy matched: glob on old/a.clj, new/a.clj]"));
}

#[test]
fn edit_tools_and_mcp_edit_tools_name_their_files() {
    let p = widget_project();
    let absolute = p.root().join("docs/guide.md");
    let input = json!({"session_id": "s1", "transcript_path": null, "hook_event_name": POST_TOOL,
        "tool_name": "mcp__fs__write_file", "tool_input": {"path": absolute, "content": "x"}});
    let context = codex_accepts(POST_TOOL, &p.hook("post-tool", &input)).unwrap();
    assert_eq!(injected(&context), vec!["docs.mdc"]);
    assert!(context.contains("glob on docs/guide.md]"));
    let input =
        json!({"session_id": "s1", "tool_name": "Write", "tool_input": {"file_path": "src/w.ts"}});
    assert_eq!(
        injected(&codex_accepts(POST_TOOL, &p.hook("post-tool", &input)).unwrap()),
        vec!["widget.mdc"]
    );
    // A path no rule matches, and a tool input naming no path.
    let none =
        json!({"session_id": "s1", "tool_name": "Write", "tool_input": {"file_path": "README.md"}});
    assert_eq!(codex_accepts(POST_TOOL, &p.hook("post-tool", &none)), None);
    let pathless = json!({"session_id": "s1", "tool_name": "Edit", "tool_input": {"content": "x"}});
    assert_eq!(
        codex_accepts(POST_TOOL, &p.hook("post-tool", &pathless)),
        None
    );
}

#[test]
fn a_session_in_a_subdirectory_works_from_the_project_root() {
    let p = widget_project();
    let nested = p.root().join("src/nested");
    fs::create_dir_all(&nested).unwrap();
    let prompt = p.hook_in(&nested, "prompt", &prompt_input("s1", "hi", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &prompt).unwrap()),
        vec!["base.mdc"]
    );
    let edit = p.hook_in(
        &nested,
        "post-tool",
        &patch_input("s1", &add_file_patch("a.clj"), None),
    );
    let context = codex_accepts(POST_TOOL, &edit).unwrap();
    assert!(
        context.contains("[rule-fairy matched: glob on src/nested/a.clj]"),
        "{context}"
    );
    assert!(p.state_dir().join("s1.json").is_file());
    assert!(!nested.join(".rule-fairy").exists());
}

#[test]
fn a_subproject_keeps_its_own_rules_and_state() {
    let p = project();
    p.write(
        "backend/.cursor/rules/widget.mdc",
        "---\nglobs: src/**\n---\n# Backend widget rule",
    );
    let backend = p.root().join("backend");
    let out = p.hook_in(
        &backend,
        "post-tool",
        &patch_input("s1", &add_file_patch("src/nested/a.clj"), None),
    );
    assert!(codex_accepts(POST_TOOL, &out)
        .unwrap()
        .contains("# Backend widget rule"));
    assert!(backend.join(".rule-fairy/codex/s1.json").is_file());
    assert!(!p.root().join(".rule-fairy").exists());
}

#[test]
fn the_shell_hook_delivers_for_files_a_command_changed() {
    let p = git_project();
    p.write("rule-fairy.edn", "{:shell-hook {:codex true}}")
        .rule("widget.mdc", "---\nglobs: src/**\n---\n# Widget rule")
        .rule("docs.mdc", "---\nglobs: docs/**\n---\n# Docs rule");
    p.sh("git add -A && git commit -qm rules");
    // The first prompt starts the check.
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", None))),
        None
    );
    assert!(p.state("s1")["shell"]["checked_at_ms"].is_i64());
    p.sh("mkdir -p src && echo x > src/a.clj");
    let out = p.hook("post-tool", &bash_input("s1", "echo x > src/a.clj", None));
    let context = codex_accepts(POST_TOOL, &out).unwrap();
    assert!(context.starts_with("[rule-fairy injected: widget.mdc]\n[rule-fairy matched: glob on src/a.clj, changed by a shell command]\n\nApply these rules"), "{context}");
    assert!(context.contains("# Widget rule"));
    assert_eq!(
        codex_accepts(
            POST_TOOL,
            &p.hook("post-tool", &bash_input("s1", "true", None))
        ),
        None
    );
    p.sh("echo y > src/c.clj && mkdir -p docs && echo z > docs/x.md");
    let out = p.hook("post-tool", &bash_input("s1", "write", None));
    let context = codex_accepts(POST_TOOL, &out).unwrap();
    assert_eq!(injected(&context), vec!["docs.mdc"]);
    // src/a.clj may count again when it was written in the same second as
    // the last check started (times compare in whole seconds).
    assert!(
        context.contains("[rule-fairy matched: glob on docs/x.md, "),
        "{context}"
    );
    assert!(
        context.contains("src/c.clj, changed by a shell command]"),
        "{context}"
    );
    assert_eq!(p.state("s1")["shell"]["pending"], json!([]));
}

#[test]
fn a_shell_change_below_a_nested_agents_md_brings_it_though_no_rule_matches() {
    let p = git_project();
    p.write("rule-fairy.edn", "{:shell-hook {:codex true}}")
        .rule("docs.mdc", "---\nglobs: docs/**\n---\n# Docs rule")
        .write("services/billing/AGENTS.md", "Billing: amounts in cents.");
    p.sh("git add -A && git commit -qm rules");
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", None))),
        None
    );
    p.sh("echo x > services/billing/run.ts && echo y > top.txt");
    let out = p.hook("post-tool", &bash_input("s1", "write", None));
    let context = codex_accepts(POST_TOOL, &out).expect("the instruction file came");
    assert_eq!(
        injected(&context),
        vec!["instruction file services/billing/AGENTS.md"]
    );
    assert!(context.contains("Billing: amounts in cents."), "{context}");
    assert_eq!(p.state("s1")["shell"]["pending"], json!([]));
}

#[test]
fn with_the_shell_hook_off_a_command_changes_nothing_and_starts_no_check() {
    let p = git_project();
    p.rule("widget.mdc", "---\nglobs: src/**\n---\n# Widget rule");
    p.sh("git add -A && git commit -qm rules");
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", None)));
    p.sh("mkdir -p src && echo x > src/a.clj");
    assert_eq!(
        codex_accepts(
            POST_TOOL,
            &p.hook("post-tool", &bash_input("s1", "x", None))
        ),
        None
    );
    assert!(!p.state_dir().join("s1.json").exists());
}

#[test]
fn the_plugin_root_is_recorded_and_never_written_under() {
    let p = widget_project();
    let plugin = p.beside("plugin");
    let plugin_root = plugin.to_string_lossy().into_owned();
    let input = prompt_input("s1", "hi", None).to_string();
    let out = p.hook_raw(
        p.root(),
        "prompt",
        input.as_bytes(),
        &[("PLUGIN_ROOT", &plugin_root)],
    );
    codex_accepts(PROMPT, &out).unwrap();
    assert_eq!(
        fs::read_to_string(p.state_dir().join("plugin-root")).unwrap(),
        format!("{plugin_root}\n")
    );
    assert_eq!(fs::read_dir(&plugin).unwrap().count(), 0);
    // A project inside the installed plugin is refused, and nothing is written there.
    let inside = plugin.join("project");
    fs::create_dir_all(inside.join(".git")).unwrap();
    fs::create_dir_all(inside.join(".cursor/rules")).unwrap();
    fs::write(
        inside.join(".cursor/rules/a.mdc"),
        "---\nalwaysApply: true\n---\n# A",
    )
    .unwrap();
    let out = p.hook_raw(
        &inside,
        "prompt",
        input.as_bytes(),
        &[("RULE_FAIRY_PLUGIN_ROOT", &plugin_root)],
    );
    let context = codex_accepts(PROMPT, &out).unwrap();
    assert!(
        context.starts_with("[rule-fairy error: prompt delivery failed]"),
        "{context}"
    );
    assert!(stderr(&out).contains("inside the installed plugin"));
    assert!(!inside.join(".rule-fairy").exists());
}

/// `SubagentStart`'s input: the parent's session, the subagent's id and type.
fn subagent_start_input(session: &str, agent: &str) -> serde_json::Value {
    json!({"session_id": session, "turn_id": "t2", "transcript_path": null,
        "cwd": "/ignored", "hook_event_name": SUBAGENT_START, "model": "gpt-5.5",
        "permission_mode": "bypassPermissions", "agent_id": agent, "agent_type": "default"})
}

/// A subagent's hook input: its parent's session, its own id and type.
fn as_subagent(mut input: serde_json::Value, agent: &str) -> serde_json::Value {
    input["agent_id"] = json!(agent);
    input["agent_type"] = json!("default");
    input
}

#[test]
fn a_subagent_starts_with_its_always_on_rules_and_keeps_its_own_record() {
    let p = widget_project();
    // The parent holds base.mdc and widget.mdc.
    let first = p.hook("prompt", &prompt_input("s1", "add a widget", None));
    assert!(codex_accepts(PROMPT, &first).is_some());
    let start = subagent_start_input("s1", "a1");
    let started = p.hook("subagent-start", &start);
    let context = codex_accepts(SUBAGENT_START, &started).expect("its always-on rules");
    assert_eq!(injected(&context), vec!["base.mdc"]);
    // Its edit brings the glob rule the parent already holds.
    let edit = p.hook(
        "post-tool",
        &as_subagent(patch_input("s1", &add_file_patch("src/a.ts"), None), "a1"),
    );
    let context = codex_accepts(POST_TOOL, &edit).expect("the glob rule");
    assert_eq!(injected(&context), vec!["widget.mdc"]);
    assert!(p.state("s1.agent-a1")["injected"]["widget.mdc"].is_object());
    // Held in its record: the next edit brings nothing; the parent's record
    // is untouched, and a sibling starts afresh.
    let again = p.hook(
        "post-tool",
        &as_subagent(patch_input("s1", &add_file_patch("src/b.ts"), None), "a1"),
    );
    assert_eq!(codex_accepts(POST_TOOL, &again), None);
    let parent = p.state("s1");
    assert_eq!(
        parent["injected"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        vec!["base.mdc", "widget.mdc"]
    );
    let sibling = p.hook(
        "post-tool",
        &as_subagent(patch_input("s1", &add_file_patch("src/c.ts"), None), "a2"),
    );
    assert_eq!(
        injected(&codex_accepts(POST_TOOL, &sibling).unwrap()),
        vec!["widget.mdc"]
    );
    // An agent id that could leave the state directory is refused.
    let hostile = p.hook(
        "post-tool",
        &as_subagent(patch_input("s1", &add_file_patch("src/d.ts"), None), "../x"),
    );
    assert_eq!(hostile.status.code(), Some(1), "{}", stderr(&hostile));
}

#[test]
fn with_subagents_off_a_subagents_hooks_are_left_alone() {
    let p = widget_project();
    p.write("rule-fairy.edn", "{:subagents false}");
    let start = subagent_start_input("s1", "a1");
    assert_eq!(
        codex_accepts(SUBAGENT_START, &p.hook("subagent-start", &start)),
        None
    );
    let edit = p.hook(
        "post-tool",
        &as_subagent(patch_input("s1", &add_file_patch("src/a.ts"), None), "a1"),
    );
    assert_eq!(codex_accepts(POST_TOOL, &edit), None);
    // The main thread is served as before.
    let main = p.hook(
        "post-tool",
        &patch_input("s1", &add_file_patch("src/a.ts"), None),
    );
    assert_eq!(
        injected(&codex_accepts(POST_TOOL, &main).unwrap()),
        vec!["widget.mdc"]
    );
}
