//! `--json` on `review` and `review-plan`: what the text says (the files
//! written, the rules and instruction files applied, the paths) as one
//! JSON object, and a failure as `{"error": {...}}` with exit 2.

use serde_json::{json, Value};

use crate::util::review::*;
use crate::util::*;

fn path(repo: &Project, relative: &str) -> Value {
    repo.path(relative).display().to_string().into()
}

#[test]
fn fetch_bundle_and_clean_answer_in_json() {
    let repo = feature_repo();
    let fetched = repo.json(&["review", "fetch", "--local", "--json"]);
    assert_eq!(fetched["mode"], "local");
    assert_eq!(
        fetched["patch"],
        path(&repo, &format!("{DIFF_DIR}/patch.diff"))
    );
    assert_eq!(
        fetched["meta"],
        path(&repo, &format!("{DIFF_DIR}/meta.json"))
    );
    assert_eq!(
        strings(&fetched["changedPaths"]),
        ["src/a.clj", "src/new file.clj"]
    );
    assert!(fetched["lines"].as_u64().unwrap() > 0, "{fetched}");

    // The flag may come anywhere among the review's own arguments.
    let bundled = repo.json(&["review", "--json", "bundle"]);
    assert_eq!(
        bundled["bundle"],
        path(&repo, &format!("{DIFF_DIR}/rules.md"))
    );
    assert_eq!(
        bundled["meta"],
        path(&repo, &format!("{DIFF_DIR}/meta.json"))
    );
    assert_eq!(bundled["rules"], json!(["r.mdc"]));
    assert_eq!(bundled["ruleFiles"], 1);
    assert_eq!(bundled["instructionFiles"], json!(["CLAUDE.md"]));
    assert_eq!(bundled["duplicatesOmitted"], 0);
    assert_eq!(bundled["brokenRules"], json!([]));

    repo.write(
        ".cursor/rules/broken.mdc",
        "---\nalwaysApply: true\n---\n# Broken\n\n@doc/missing.md\n",
    );
    repo.write("other.diff", "diff --git a/README.md b/README.md\n");
    let given = repo.json(&["review", "bundle", "--patch", "other.diff", "--json"]);
    assert_eq!(given["patch"], "other.diff");
    assert_eq!(given["rules"], json!([]));
    assert_eq!(
        given["brokenRules"],
        json!([{
            "rule": "broken.mdc",
            "file": ".cursor/rules/broken.mdc",
            "line": 6,
            "message": "Rule import does not exist: doc/missing.md",
        }])
    );

    let cleaned = repo.json(&["review", "clean", "--json"]);
    assert_eq!(
        cleaned,
        json!({"directory": path(&repo, DIFF_DIR), "removed": true})
    );
}

#[test]
fn plan_paths_and_bundle_answer_in_json() {
    let repo = Project::new();
    repo.write(
        ".cursor/rules/ui.mdc",
        "---\nglobs: src/ui/**\n---\n# UI\n\nUI body.\n",
    )
    .write("AGENTS.md", "Instructions.")
    .write("src/ui/button.tsx", "x")
    .write(
        "plan.md",
        "# Plan\n\n1. Edit `src/ui/button.tsx`.\n2. Then `nowhere/thing.ts`.\n",
    );
    let paths = repo.json(&["review-plan", "paths", "plan.md", "--json"]);
    assert_eq!(
        paths,
        json!({
            "plan": "plan.md",
            "pathSource": "extracted",
            "paths": ["src/ui/button.tsx"],
            "expandedDirectories": [],
            "dropped": [{"path": "nowhere/thing.ts", "reason": "no such file or parent directory"}],
            "added": [],
        })
    );
    let bundled = repo.json(&[
        "review-plan",
        "bundle",
        "plan.md",
        "--json",
        "--paths",
        "src/ui/new.tsx",
    ]);
    assert_eq!(
        bundled["bundle"],
        path(&repo, &format!("{PLAN_DIR}/rules.md"))
    );
    assert_eq!(
        bundled["meta"],
        path(&repo, &format!("{PLAN_DIR}/meta.json"))
    );
    assert_eq!(bundled["rules"], json!(["ui.mdc"]));
    assert_eq!(bundled["instructionFiles"], json!(["AGENTS.md"]));
    assert_eq!(
        bundled["changedPaths"],
        json!(["src/ui/button.tsx", "src/ui/new.tsx"])
    );
    assert_eq!(bundled["addedPaths"], json!(["src/ui/new.tsx"]));
    assert_eq!(bundled["pathSource"], "extracted");
}

#[test]
fn a_failure_is_a_json_error_with_exit_2() {
    let repo = feature_repo();
    for args in [
        &["review", "bundle", "--json"][..],
        &["review", "frobnicate", "--json"],
        &["review-plan", "paths", "missing.md", "--json"],
    ] {
        let out = repo.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let answer: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&out)));
        assert_eq!(answer["error"]["exitCode"], 2, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            stderr(&out).contains(message),
            "the message is the one on standard error: {message}"
        );
    }
    let usage = repo.json(&["review", "fetch", "--help", "--json"]);
    assert!(usage["usage"]
        .as_str()
        .unwrap()
        .starts_with("usage: review fetch"));
}
