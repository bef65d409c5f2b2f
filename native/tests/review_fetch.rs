//! `rule-fairy review fetch` on real repositories (behaviour §6.1, cases
//! 170 to 174): the throwaway index, renames, quoting, the metadata, pull
//! requests through a fake `gh`, and bad input.

use std::fs;

use serde_json::{json, Value};

use crate::util::review::*;
use crate::util::*;

#[test]
fn case_170_local_takes_staged_unstaged_and_untracked_changes_once_each() {
    let repo = feature_repo();
    repo.write("src/fäö.clj", "umlauts\n")
        .write("src/😀\"q.clj", "quoted\n")
        .write(".git/info/exclude", "generated/\n")
        .write("generated/example.clj", "forced\n")
        .write("generated/other.clj", "never staged\n");
    repo.git(&["add", "-f", "generated/example.clj"]);
    repo.git(&["add", "src/a.clj"]);
    repo.write("src/a.clj", "new\nnewer\n");

    let out = repo.ok(&["review", "fetch", "--local"]);
    let diff = repo.path(DIFF_DIR);
    assert_eq!(
        out.trim(),
        format!(
            "Wrote {}/patch.diff ({} lines, 5 changed paths) and {}/meta.json",
            diff.display(),
            repo.patch().lines().count(),
            diff.display()
        )
    );
    let patch = repo.patch();
    for path in [
        "src/a.clj",
        "src/new file.clj",
        "generated/example.clj",
        "src/fäö.clj",
    ] {
        assert_eq!(header_count(&patch, path), 1, "{path}\n{patch}");
    }
    assert!(patch.contains("+newer") && patch.contains("+untracked"));
    assert!(
        !patch.contains("generated/other.clj"),
        "an ignored file never staged stays out"
    );
    assert!(
        !patch.contains("docs/x.md"),
        "committed on the branch, not since HEAD"
    );
    assert!(
        patch.contains("diff --git \"a/src/😀\\\"q.clj\" \"b/src/😀\\\"q.clj\""),
        "a quote makes git quote the path, the emoji stays literal\n{patch}"
    );

    let meta = repo.meta(DIFF_DIR);
    let head = repo.git(&["rev-parse", "HEAD"]);
    assert_eq!(meta["mode"], "local");
    assert_eq!(meta["head_ref_oid"], head.as_str());
    assert_eq!(meta["repo_slug"], "owner/repo");
    assert_eq!(meta["working_tree_included"], true);
    assert_eq!(
        strings(&meta["changed_paths"]),
        [
            "generated/example.clj",
            "src/a.clj",
            "src/fäö.clj",
            "src/new file.clj",
            "src/😀\"q.clj"
        ]
    );
    assert_eq!(
        meta["rules"],
        json!({"dirs": [".cursor/rules"], "head_ref_oid": head, "clean": true})
    );
    assert!(meta["generated_at"].as_str().unwrap().ends_with('Z'));
    for absent in ["pr_number", "base_ref", "checked_out"] {
        assert!(meta.get(absent).is_none(), "{absent}");
    }
    assert_eq!(repo.read(".rule-fairy/review/.gitignore"), "*\n");
    // The real index is untouched: staged then edited again, and the
    // forced addition still staged.
    assert_eq!(
        repo.git(&["status", "--porcelain", "--", "src/a.clj"]),
        "MM src/a.clj"
    );
    assert_eq!(
        repo.git(&["status", "--porcelain", "--", "generated/example.clj"]),
        "A  generated/example.clj"
    );

    // A second fetch starts from an empty directory and sees the edited rule.
    repo.write(&format!("{DIFF_DIR}/rules.md"), "stale bundle");
    repo.write(
        ".cursor/rules/r.mdc",
        "---\nglobs: src/**\n---\n# R changed\n",
    );
    repo.ok(&["review", "fetch", "--local"]);
    assert!(!repo.exists(&format!("{DIFF_DIR}/rules.md")));
    assert_eq!(repo.meta(DIFF_DIR)["rules"]["clean"], false);
}

#[test]
fn an_edit_in_the_same_clock_tick_as_the_last_index_write_is_seen() {
    let repo = feature_repo();
    // Stage, then rewrite at once with the same size, many times: some
    // rounds put both writes and the index write in one tick of the file
    // system's clock, where size and time alone cannot tell the versions
    // apart and only git's racy-entry handling does.
    for round in 0..20 {
        repo.write("src/a.clj", format!("v{round:02}\n"));
        repo.git(&["add", "src/a.clj"]);
        repo.write("src/a.clj", format!("w{round:02}\n"));
        repo.ok(&["review", "fetch", "--local"]);
        assert!(
            repo.patch().contains(&format!("+w{round:02}")),
            "{}",
            repo.patch()
        );
    }
}

#[test]
fn case_171_base_includes_the_branch_and_a_rename_made_outside_git() {
    let repo = feature_repo();
    fs::create_dir_all(repo.path("docs/a b")).unwrap();
    fs::rename(repo.path("docs/base.md"), repo.path("docs/a b/renamed.md")).unwrap();
    repo.ok(&["review", "fetch", "--base", "main"]);
    let patch = repo.patch();
    assert!(
        patch.contains("diff --git a/docs/base.md b/docs/a b/renamed.md"),
        "{patch}"
    );
    assert!(patch.contains("rename from docs/base.md\nrename to docs/a b/renamed.md"));
    assert_eq!(header_count(&patch, "docs/x.md"), 1);
    let meta = repo.meta(DIFF_DIR);
    assert_eq!(meta["mode"], "base");
    assert_eq!(meta["base_ref"], "main");
    assert_eq!(
        meta["base_ref_oid"],
        repo.git(&["rev-parse", "main"]).as_str()
    );
    assert_eq!(
        meta["head_ref_oid"],
        repo.git(&["rev-parse", "HEAD"]).as_str()
    );
    assert_eq!(
        strings(&meta["changed_paths"]),
        [
            "docs/a b/renamed.md",
            "docs/x.md",
            "src/a.clj",
            "src/new file.clj"
        ]
    );
    // The real index still knows nothing of the rename.
    assert_eq!(
        repo.git(&["status", "--porcelain", "--", "docs/base.md"]),
        " D docs/base.md"
    );
}

#[test]
fn case_172_before_the_first_commit() {
    let repo = repo();
    repo.write("src/a.clj", "first\n")
        .write(".cursor/rules/r.mdc", "# R");
    repo.git(&["add", "src/a.clj"]);
    repo.write("src/b.clj", "second\n");
    repo.ok(&["review", "fetch", "--local"]);
    let meta = repo.meta(DIFF_DIR);
    assert_eq!(
        strings(&meta["changed_paths"]),
        [".cursor/rules/r.mdc", "src/a.clj", "src/b.clj"]
    );
    assert_eq!(meta["head_ref_oid"], Value::Null);
    assert_eq!(
        meta["rules"],
        json!({"dirs": [".cursor/rules"], "head_ref_oid": null, "clean": false})
    );
    let before = repo.read(&format!("{DIFF_DIR}/meta.json"));
    let out = repo.run(&["review", "fetch", "--base", "main"]);
    assert_fails(&out, "git merge-base main HEAD failed (exit ");
    assert_eq!(
        repo.read(&format!("{DIFF_DIR}/meta.json")),
        before,
        "a failure leaves the last fetch"
    );
}

#[test]
fn an_empty_repository_has_nothing_to_review() {
    let repo = repo();
    let out = repo.ok(&["review", "fetch", "--local"]);
    assert!(out.contains("(0 lines, 0 changed paths)"), "{out}");
    assert_eq!(repo.meta(DIFF_DIR)["changed_paths"], json!([]));
    assert_eq!(repo.patch(), "");
    let out = repo.ok(&["review", "bundle"]);
    assert!(
        out.contains(": 0 of 0 rules, 0 instruction files, 0 changed paths, 0 duplicates omitted"),
        "{out}"
    );
}

#[test]
fn a_detached_head_is_reviewed_at_its_commit() {
    let repo = feature_repo();
    let main = repo.git(&["rev-parse", "main"]);
    repo.git(&["checkout", "-q", "--detach", "main"]);
    repo.ok(&["review", "fetch", "--local"]);
    let meta = repo.meta(DIFF_DIR);
    assert_eq!(meta["head_ref_oid"], main.as_str());
    assert_eq!(
        strings(&meta["changed_paths"]),
        ["src/a.clj", "src/new file.clj"]
    );
    repo.ok(&["review", "fetch", "--base", "feature"]);
    assert_eq!(repo.meta(DIFF_DIR)["base_ref_oid"], main.as_str());
}

#[test]
fn binary_files_are_named_by_their_header() {
    let repo = feature_repo();
    repo.write(
        "assets/logo.png",
        [0x89u8, b'P', b'N', b'G', 0, 1, 2, 0, 255],
    );
    repo.ok(&["review", "fetch", "--local"]);
    let patch = repo.patch();
    assert!(
        patch.contains("Binary files /dev/null and b/assets/logo.png differ"),
        "{patch}"
    );
    assert_eq!(
        strings(&repo.meta(DIFF_DIR)["changed_paths"]),
        ["assets/logo.png", "src/a.clj", "src/new file.clj"]
    );
}

#[test]
fn a_project_below_its_checkout_reviews_its_own_paths() {
    let repo = repo();
    repo.write(
        "app/.cursor/rules/r.mdc",
        "---\nglobs: src/**\n---\n# App rule\n",
    )
    .write("app/src/a.clj", "old\n")
    .write("other/src/b.clj", "old\n");
    repo.commit_all("base");
    repo.write("app/src/a.clj", "new\n")
        .write("other/src/b.clj", "new\n");
    let app = repo.path("app");
    let out = repo.run_in(&app, &["review", "fetch", "--local"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let meta: Value =
        serde_json::from_str(&fs::read_to_string(app.join(DIFF_DIR).join("meta.json")).unwrap())
            .unwrap();
    assert_eq!(strings(&meta["changed_paths"]), ["src/a.clj"]);
    let out = repo.run_in(&app, &["review", "bundle"]);
    assert!(stdout(&out).contains("1 of 1 rules"), "{}", stderr(&out));
}

/// A `gh` that answers like GitHub's for pull request 7: `pr diff --patch`
/// would give the per-commit series, so a header count shows which was
/// asked for.
const FAKE_GH: &str = r#"#!/bin/sh
case "$1 $2" in
  "pr diff") case " $* " in
    *" --patch "*) printf 'From 1111 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 1/2] first\n\ndiff --git a/src/a.clj b/src/a.clj\n--- a/src/a.clj\n+++ b/src/a.clj\n@@ -1 +1 @@\n-old\n+intermediate\n\nFrom 2222 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 2/2] second\n\ndiff --git a/src/a.clj b/src/a.clj\n--- a/src/a.clj\n+++ b/src/a.clj\n@@ -1 +1 @@\n-intermediate\n+new\n' ;;
    *) printf 'diff --git a/src/a.clj b/src/a.clj\n--- a/src/a.clj\n+++ b/src/a.clj\n@@ -1 +1 @@\n-old\n+new\n' ;;
  esac ;;
  "pr view") printf '{"number":7,"url":"https://github.com/owner/repo/pull/7","title":"Title","state":"OPEN","isDraft":false,"headRefOid":"abc123","headRefName":"feature","baseRefName":"main"}\n' ;;
  "pr checkout") touch checked-out.marker ;;
  "repo view") printf 'owner/repo\n' ;;
  *) echo "unexpected gh $*" >&2; exit 2 ;;
esac
"#;

fn with_fake_gh(repo: &Project, script: &str) -> Vec<(&'static str, String)> {
    let bin = repo.beside("bin");
    write_program(bin.join("gh"), script);
    vec![(
        "PATH",
        format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        ),
    )]
}

#[test]
fn case_173_a_pull_request_through_gh() {
    let repo = feature_repo();
    let env = with_fake_gh(&repo, FAKE_GH);
    let out = repo.run_with(&["review", "fetch", "--pr", "7"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    let patch = repo.patch();
    assert_eq!(
        header_count(&patch, "src/a.clj"),
        1,
        "the aggregate diff, not the series"
    );
    assert!(patch.contains("+new") && !patch.contains("+intermediate"));
    let mut meta = repo.meta(DIFF_DIR);
    let object = meta.as_object_mut().unwrap();
    assert!(object.remove("generated_at").unwrap().is_string());
    let rules = object.remove("rules").unwrap();
    assert_eq!(rules["dirs"], json!([".cursor/rules"]));
    assert_eq!(
        meta,
        json!({
            "mode": "pr", "pr_number": 7, "pr_url": "https://github.com/owner/repo/pull/7",
            "pr_title": "Title", "pr_state": "OPEN", "pr_draft": false,
            "head_ref_oid": "abc123", "head_ref_name": "feature", "base_ref_name": "main",
            "repo_slug": "owner/repo", "checked_out": false, "working_tree_included": false,
            "changed_paths": ["src/a.clj"]
        })
    );
    assert!(!repo.exists("checked-out.marker"));

    let out = repo.run_with(&["review", "fetch", "--pr", "7", "--checkout"], &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(repo.exists("checked-out.marker"));
    assert_eq!(repo.meta(DIFF_DIR)["checked_out"], true);
}

#[test]
fn a_failing_gh_names_its_command_and_leaves_the_last_fetch() {
    let repo = feature_repo();
    repo.ok(&["review", "fetch", "--local"]);
    let before = repo.patch();
    let env = with_fake_gh(
        &repo,
        "#!/bin/sh\necho 'GraphQL: Could not resolve to a PullRequest' >&2\nexit 1\n",
    );
    let out = repo.run_with(&["review", "fetch", "--pr", "999"], &env);
    assert_fails(
        &out,
        "gh pr diff 999 failed (exit 1): GraphQL: Could not resolve to a PullRequest",
    );
    assert_eq!(repo.patch(), before);
    let env = vec![("PATH", repo.beside("empty-bin").display().to_string())];
    let out = repo.run_with(&["review", "fetch", "--pr", "7"], &env);
    assert_fails(
        &out,
        "gh pr diff 7 failed: gh is not installed or not on PATH",
    );
}

#[test]
fn case_174_argument_errors_create_nothing() {
    let repo = feature_repo();
    for (args, message) in [
        (
            vec![],
            "One of --pr <number>, --local or --base <ref> is required",
        ),
        (
            vec!["--local", "--pr", "1"],
            "Only one of --pr, --local and --base may be given",
        ),
        (
            vec!["--local", "--checkout"],
            "--checkout only applies to --pr",
        ),
        (vec!["--base"], "--base needs a value"),
        (vec!["--base", "--checkout"], "--base needs a value"),
        (vec!["--pr"], "--pr needs a value"),
        (vec!["--bogus"], "Unknown argument: --bogus"),
    ] {
        let mut full = vec!["review", "fetch"];
        full.extend(&args);
        let out = repo.run(&full);
        assert_fails(&out, message);
        assert!(!repo.exists(".rule-fairy"), "{args:?}");
    }
}

#[test]
fn bad_input_outside_git_and_a_missing_base() {
    let plain = Project::new();
    let out = plain.run(&["review", "fetch", "--local"]);
    assert_fails(&out, "Not a git repository: ");
    assert!(stderr(&out).contains("review bundle --patch"));
    assert!(!plain.exists(".rule-fairy"));

    let repo = feature_repo();
    let out = repo.run(&["review", "fetch", "--base", "no-such-branch"]);
    assert_fails(&out, "git merge-base no-such-branch HEAD failed (exit ");
    assert!(!repo.exists(".rule-fairy"));
}

#[test]
fn commands_and_usage() {
    let repo = feature_repo();
    let out = repo.run(&["review"]);
    assert_fails(&out, "usage: review fetch (--pr <number> [--checkout] | --local | --base <ref>)\n       review bundle [--patch <file>]\n       review clean");
    let out = repo.run(&["review", "frobnicate"]);
    assert_fails(&out, "Unknown command: frobnicate\nusage: review fetch");
    assert!(!repo.exists(".rule-fairy"));
}
