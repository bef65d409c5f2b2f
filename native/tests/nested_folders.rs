//! Nested rules folders (behaviour §1.2): every format's folder below the
//! project is a source, found as git sees the tree (what it ignores, other
//! repositories and `node_modules` left out); its globs match below the
//! directory holding it, and its always-on rules come with the first edit
//! there, not with prompts.

use serde_json::json;

use crate::util::codex::*;
use crate::util::*;

/// A git repository with a root rule and nested folders, some of them in
/// places git does not list.
fn monorepo() -> Project {
    let p = git_project();
    p.write("rule-fairy.edn", "{:formats [:claude]}")
        .rule("base.mdc", "---\nalwaysApply: true\n---\n# Root base")
        .write(
            "packages/web/.cursor/rules/ui.mdc",
            "---\nglobs: src/**\n---\n# Web UI",
        )
        .write(
            "packages/web/.cursor/rules/web.mdc",
            "---\nalwaysApply: true\n---\n# Web always",
        )
        .write(
            "packages/api/.claude/rules/db.md",
            "---\npaths: db/**\n---\n# Api db",
        )
        .write(".gitignore", "build/\n")
        .write(
            "build/.cursor/rules/gen.mdc",
            "---\nglobs: **/*\n---\n# Built",
        )
        .write(
            "node_modules/dep/.cursor/rules/dep.mdc",
            "---\nglobs: **/*\n---\n# Dep",
        )
        .write(
            "vendor/lib/.cursor/rules/lib.mdc",
            "---\nglobs: **/*\n---\n# Vendored repo",
        )
        .write(
            "tools/.cursor/rules/t.mdc",
            "---\nglobs: **/*\n---\n# Tools",
        );
    p.sh("git init -q vendor/lib");
    p
}

fn names(p: &Project, args: &[&str]) -> Vec<String> {
    let value = p.json(&[&["explain", "--json"], args].concat());
    value["rules"]
        .as_array()
        .unwrap_or_else(|| panic!("{value}"))
        .iter()
        .map(|rule| rule["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn nested_globs_match_below_their_folder_and_ignored_folders_are_not_read() {
    let p = monorepo();
    assert_eq!(
        names(&p, &["--path", "packages/web/src/a.ts"]),
        vec![
            "packages/web/.cursor/rules/ui.mdc",
            "packages/web/.cursor/rules/web.mdc"
        ]
    );
    assert_eq!(names(&p, &["--path", "src/a.ts"]), Vec::<String>::new());
    assert_eq!(
        names(&p, &["--path", "packages/api/db/x.sql"]),
        vec!["packages/api/.claude/rules/db.md"]
    );
    assert_eq!(names(&p, &["--prompt", "hello"]), vec!["base.mdc"]);
    let reasons = p.json(&["explain", "--json", "--path", "packages/web/src/a.ts"]);
    assert_eq!(
        reasons["rules"][0]["reasons"],
        json!([{"kind": "glob", "glob": "packages/web/src/**", "path": "packages/web/src/a.ts"}])
    );
    // Untracked folders count; ignored ones, packages and other
    // repositories do not.
    assert_eq!(
        names(&p, &["--path", "tools/x.sh"]),
        vec!["tools/.cursor/rules/t.mdc"]
    );
    let left_out = ["build/x.ts", "node_modules/dep/x.js", "vendor/lib/x.c"];
    assert_eq!(
        names(&p, &[&["--path"], &left_out[..]].concat()),
        Vec::<String>::new()
    );
    let check = p.run(&["check", "--format", "short"]);
    assert!(check.status.success(), "{}", stdout(&check));
}

#[test]
fn codex_brings_a_nested_folders_rules_with_the_first_edit_below_it() {
    let p = monorepo();
    let prompt = p.hook("prompt", &prompt_input("s1", "hello", None));
    let context = codex_accepts(PROMPT, &prompt).unwrap();
    assert_eq!(injected(&context), vec!["base.mdc"]);
    let root_edit = p.hook(
        "post-tool",
        &patch_input("s1", &add_file_patch("src/a.ts"), None),
    );
    assert_eq!(codex_accepts(POST_TOOL, &root_edit), None);
    let edit = p.hook(
        "post-tool",
        &patch_input("s1", &add_file_patch("packages/web/src/a.ts"), None),
    );
    let context = codex_accepts(POST_TOOL, &edit).unwrap();
    assert_eq!(
        injected(&context),
        vec![
            "packages/web/.cursor/rules/ui.mdc",
            "packages/web/.cursor/rules/web.mdc"
        ]
    );
    assert!(context.contains("# Web always"), "{context}");
    let again = p.hook(
        "post-tool",
        &patch_input("s1", &add_file_patch("packages/web/b.md"), None),
    );
    assert_eq!(codex_accepts(POST_TOOL, &again), None);
}

#[test]
fn a_nested_folder_that_loops_or_leads_out_is_named_and_the_rest_still_comes() {
    let p = monorepo();
    let outside = p.beside("outside-rules");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        outside.join("o.mdc"),
        "---\nalwaysApply: true\n---\n# Outside",
    )
    .unwrap();
    p.link("packages/out/.cursor/rules", &outside)
        .link("packages/loop/.cursor/rules", "..")
        .link("packages/self/.cursor/rules", "rules");
    let check = p.run(&["check", "--format", "short"]);
    let text = stdout(&check);
    for line in [
        "packages/out/.cursor/rules: error: Links outside the project, so no rule below it is read",
        "packages/loop/.cursor/rules/.cursor/rules: warning: Symbolic link loop",
        "packages/self/.cursor/rules: error: Cannot read the rules directory",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    assert!(!text.contains("Outside"), "{text}");
    let edit = p.hook(
        "post-tool",
        &patch_input("s1", &add_file_patch("packages/web/src/a.ts"), None),
    );
    let context = codex_accepts(POST_TOOL, &edit).unwrap();
    assert_eq!(injected(&context).len(), 2, "{context}");
}
