//! `rule-fairy review bundle` and `clean` (behaviour §6.5, 6.6; cases 158,
//! 175 and 176): the bundle from a fetched or given patch, the rules
//! revision over the guidance it read, and bad input.

use std::fs;

use serde_json::json;

use crate::util::review::*;
use crate::util::*;

fn rules_md(repo: &Project) -> String {
    repo.read(&format!("{DIFF_DIR}/rules.md"))
}

#[test]
fn case_175_bundle_after_fetch_and_clean() {
    let repo = feature_repo();
    let out = repo.run(&["review", "bundle"]);
    assert_fails(&out, "Patch not found: ");
    assert!(stderr(&out).contains(". Run `review fetch` first, or pass --patch <file>."));
    assert!(!repo.exists(".rule-fairy"));

    repo.ok(&["review", "fetch", "--local"]);
    let out = repo.ok(&["review", "bundle"]);
    assert_eq!(
        out.trim(),
        format!(
            "Wrote {}: 1 of 1 rules, 1 instruction files, 2 changed paths, 0 duplicates omitted",
            repo.path(DIFF_DIR).join("rules.md").display()
        )
    );
    let bundle = rules_md(&repo);
    assert!(bundle.contains("# CLAUDE.md\n\nRepository instructions."));
    assert!(bundle.contains(
        "# r.mdc\n\n*Scope: globs `src/**`; matched `src/a.clj`, `src/new file.clj`.*\n\n# R\n\nRule body."
    ));
    assert_eq!(repo.meta(DIFF_DIR)["rules"]["clean"], true);

    // The bundle's own inputs join the check: an edited instruction file.
    repo.write("CLAUDE.md", "Repository instructions, edited locally.");
    repo.ok(&["review", "bundle"]);
    assert_eq!(repo.meta(DIFF_DIR)["rules"]["clean"], false);
    assert_eq!(
        repo.meta(DIFF_DIR)["mode"],
        "local",
        "the rest of the metadata stays"
    );
    repo.git(&["checkout", "-q", "--", "CLAUDE.md"]);

    repo.write("other.diff", "diff --git a/README.md b/README.md\n");
    let out = repo.ok(&["review", "bundle", "--patch", "other.diff"]);
    assert!(out.contains("0 of 1 rules"), "{out}");
    assert!(!rules_md(&repo).contains("# R\n"));

    let out = repo.ok(&["review", "clean"]);
    assert_eq!(
        out.trim(),
        format!("Removed {}", repo.path(DIFF_DIR).display())
    );
    assert!(!repo.exists(DIFF_DIR));
    assert!(repo.exists(".rule-fairy/review/.gitignore") && repo.exists("other.diff"));
    repo.ok(&["review", "clean"]);
    let out = repo.run(&["review", "clean", "now"]);
    assert_fails(&out, "clean takes no arguments\nusage: review fetch");

    // A rule that does not render is left out and named, in the bundle
    // and the command's answer; the other rules are still in it.
    repo.ok(&["review", "fetch", "--local"]);
    repo.write(
        ".cursor/rules/broken.mdc",
        "---\nalwaysApply: true\n---\n# Broken\n\n@doc/missing.md\n",
    );
    let out = repo.ok(&["review", "bundle"]);
    let named =
        ".cursor/rules/broken.mdc:6: broken.mdc: Rule import does not exist: doc/missing.md";
    assert!(
        out.contains(&format!(
            "\nLeft out a broken rule, named in the bundle: {named}"
        )),
        "{out}"
    );
    let bundle = rules_md(&repo);
    assert!(
        bundle.contains(&format!(
            "- Broken rules left out: 1; read their files yourself:\n  - {named}\n"
        )),
        "{bundle}"
    );
    assert!(bundle.contains("# R\n\nRule body."));
    assert!(!bundle.contains("# Broken"));
}

#[test]
fn bundle_arguments() {
    let repo = feature_repo();
    assert_fails(
        &repo.run(&["review", "bundle", "--patch"]),
        "--patch needs a file",
    );
    assert_fails(
        &repo.run(&["review", "bundle", "--bogus"]),
        "Unknown argument: --bogus",
    );
    assert!(!repo.exists(".rule-fairy"));
}

#[test]
fn a_damaged_meta_json_is_named_and_nothing_is_written() {
    let repo = feature_repo();
    repo.ok(&["review", "fetch", "--local"]);
    repo.write(&format!("{DIFF_DIR}/meta.json"), "{\"mode\": \"local\"");
    let out = repo.run(&["review", "bundle"]);
    assert_fails(&out, "meta.json is not the metadata `review fetch` writes");
    assert!(stderr(&out).contains("run `review fetch` again"));
    assert!(!repo.exists(&format!("{DIFF_DIR}/rules.md")));
}

#[test]
fn bad_patches_are_refused_and_leave_nothing() {
    let repo = feature_repo();
    repo.write("image.png", [0x89u8, b'P', b'N', b'G', 0, 0, 1]);
    let out = repo.run(&["review", "bundle", "--patch", "image.png"]);
    assert_fails(
        &out,
        "image.png is not a patch: it holds binary data (a NUL byte at offset 4)",
    );
    repo.write(
        "plain.diff",
        "--- a/src/a.clj\n+++ b/src/a.clj\n@@ -1 +1 @@\n-old\n+new\n",
    );
    let out = repo.run(&["review", "bundle", "--patch", "plain.diff"]);
    assert_fails(
        &out,
        "plain.diff is not a git patch: it has no `diff --git` line",
    );
    assert!(!repo.exists(".rule-fairy"));
    // A git patch that describes a binary file is a patch.
    repo.write(
        "binary.diff",
        "diff --git a/src/logo.png b/src/logo.png\nindex 1..2 100644\nBinary files a/src/logo.png and b/src/logo.png differ\n",
    );
    let out = repo.ok(&["review", "bundle", "--patch", "binary.diff"]);
    assert!(
        out.contains("1 of 1 rules") && out.contains("1 changed paths"),
        "{out}"
    );
    // No fetch happened, so there is no metadata to complete.
    assert!(!repo.exists(&format!("{DIFF_DIR}/meta.json")));
}

#[test]
fn a_bundle_over_the_documentation_budget_fails() {
    let repo = feature_repo();
    repo.write(
        "doc/big.md",
        format!("# Big\n\n{}\n", "word ".repeat(14_000)),
    );
    repo.write(
        ".cursor/rules/big.mdc",
        "---\nglobs: src/**\n---\n# Big\n\n@doc/big.md\n",
    );
    repo.ok(&["review", "fetch", "--local"]);
    let out = repo.run(&["review", "bundle"]);
    assert_fails(&out, "Expanded rule documentation exceeds 65536 bytes: ");
    assert!(stderr(&out).contains("imported by 2 applicable rules for 4 changed paths"));
    assert!(!repo.exists(&format!("{DIFF_DIR}/rules.md")));
}

#[test]
fn case_158_instruction_imports_links_and_dedup_in_a_real_bundle() {
    let repo = feature_repo();
    let long = "This sentence pads the paragraph well past the duplicate threshold. ".repeat(6);
    repo.write(
        "AGENTS.md",
        format!("# Agents\n\n## Testing\n\n{}", long.trim()),
    )
    .write(
        "CLAUDE.md",
        format!(
            "# Claude\n\nSee @docs/shared.md.\n\n## Testing\n\n{}",
            long.trim()
        ),
    )
    .write("docs/shared.md", "# Shared\n\nShared guidance.")
    .link("src/AGENTS.md", "../AGENTS.md");
    repo.ok(&["review", "fetch", "--local"]);
    let out = repo.ok(&["review", "bundle"]);
    assert!(
        out.contains("3 instruction files") && out.contains("1 duplicates omitted"),
        "{out}"
    );
    let bundle = rules_md(&repo);
    assert!(
        bundle.contains("# AGENTS.md (also src/AGENTS.md)\n\n# Agents"),
        "{bundle}"
    );
    assert!(bundle.contains("# docs/shared.md (imported by CLAUDE.md)\n\n# Shared"));
    assert!(bundle.contains("*Duplicate of `AGENTS.md#testing`, omitted.*"));
    assert!(
        bundle.contains("- Duplicates omitted: 1, each replaced by a line naming the kept copy")
    );
}

/// Case 176: guidance reached through links is checked where it lives.
#[test]
fn case_176_linked_guidance_is_checked_at_its_target() {
    let repo = repo();
    repo.write("src/a.clj", "old\n")
        .write("docs/guidance.md", "# Guidance")
        .write("docs/shared.md", "# Shared\n")
        .write(
            "docs/rules/r.mdc",
            "---\nglobs: src/**\n---\n# R\n\n@docs/link.md\n",
        )
        .write("docs/linked-rule.mdc", "# Linked\n")
        .write("settings/rules.edn", "{}")
        .link("CLAUDE.md", "docs/guidance.md")
        .link("docs/link.md", "shared.md")
        .link(".cursor/rules", "../docs/rules")
        .link("docs/rules/linked.mdc", "../linked-rule.mdc")
        .link("rule-fairy.edn", "settings/rules.edn");
    repo.commit_all("base");
    repo.write("src/a.clj", "new\n");
    let clean = |repo: &Project| {
        repo.ok(&["review", "fetch", "--local"]);
        repo.ok(&["review", "bundle"]);
        repo.meta(DIFF_DIR)["rules"]["clean"].clone()
    };
    assert_eq!(clean(&repo), true);
    let bundle = rules_md(&repo);
    assert!(bundle.contains("# CLAUDE.md\n\n# Guidance") && bundle.contains("`docs/link.md`"));
    for (target, content) in [
        ("docs/guidance.md", "# Guidance, edited"),
        ("docs/shared.md", "# Shared, edited\n"),
        (
            "docs/rules/r.mdc",
            "---\nglobs: src/**\n---\n# R, edited\n\n@docs/link.md\n",
        ),
        ("docs/linked-rule.mdc", "# Linked, edited\n"),
        (
            "settings/rules.edn",
            "{:instructions {:files [\"CLAUDE.md\"]}}",
        ),
    ] {
        repo.write(target, content);
        assert_eq!(clean(&repo), false, "{target}");
        repo.git(&["checkout", "-q", "--", target]);
    }
    assert_eq!(clean(&repo), true);

    // Guidance outside the checkout leaves cleanliness unknown.
    let outside = repo.beside("outside");
    fs::write(outside.join("guidance.md"), "# Outside").unwrap();
    fs::create_dir_all(outside.join("rules")).unwrap();
    fs::write(outside.join("rules/o.mdc"), "# O\n").unwrap();
    // A rule file linked out of the project is not read (behaviour
    // §1.2), and a bundle without it would be partial.
    repo.link("docs/rules/outside.mdc", outside.join("rules/o.mdc"));
    repo.ok(&["review", "fetch", "--local"]);
    let refused = repo.run(&["review", "bundle"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains(
            "outside.mdc: Links outside the project, so it is not read as a rule (the bundle would miss this rule)"
        ),
        "{}",
        stderr(&refused)
    );
    fs::remove_file(repo.path("docs/rules/outside.mdc")).unwrap();
    // An instruction file linked out of the project is not read
    // (behaviour §0.1), and a bundle without it would be partial.
    repo.link("CLAUDE.md", outside.join("guidance.md"));
    repo.ok(&["review", "fetch", "--local"]);
    let refused = repo.run(&["review", "bundle"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused)
            .contains("Cannot read instruction file CLAUDE.md: it leads outside the project"),
        "{}",
        stderr(&refused)
    );
    repo.link("CLAUDE.md", "docs/guidance.md");
    fs::remove_file(repo.path("CLAUDE.md")).unwrap();
    repo.write(
        "CLAUDE.md",
        format!("# Guidance\n\n@{}\n", outside.join("guidance.md").display()),
    );
    repo.commit_all("external import");
    // An import from outside is not followed (behaviour §6.3), so it is
    // no part of the guidance either.
    assert_eq!(clean(&repo), true, "an import from outside");
    assert!(!rules_md(&repo).contains("# Outside"));
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    repo.write("src/a.clj", "new\n");
    repo.link(".cursor/rules", outside.join("rules"));
    repo.ok(&["review", "fetch", "--local"]);
    let refused = repo.run(&["review", "bundle"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains(
            ".cursor/rules: Links outside the project, so no rule below it is read (the bundle would miss this rule)"
        ),
        "{}",
        stderr(&refused)
    );
    repo.link(".cursor/rules", "../docs/rules");
    assert_eq!(clean(&repo), true);
}

#[test]
fn case_176_a_subproject_sharing_rules_in_its_checkout() {
    let repo = repo();
    repo.write("shared/rules/r.mdc", "---\nglobs: src/**\n---\n# Shared\n")
        .write("app/src/a.clj", "old\n")
        .link("app/.cursor/rules", "../../shared/rules");
    repo.commit_all("base");
    repo.write("app/src/a.clj", "new\n");
    let app = repo.path("app");
    let clean = || {
        let out = repo.run_in(&app, &["review", "fetch", "--local"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let meta: serde_json::Value = serde_json::from_str(
            &fs::read_to_string(app.join(DIFF_DIR).join("meta.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(meta["rules"]["dirs"], json!([".cursor/rules"]));
        meta["rules"]["clean"].clone()
    };
    assert_eq!(clean(), true);
    repo.write(
        "shared/rules/r.mdc",
        "---\nglobs: src/**\n---\n# Shared, edited\n",
    );
    assert_eq!(clean(), false);
    repo.git(&["checkout", "-q", "--", "shared/rules/r.mdc"]);
    repo.write(".gitignore", "shared/rules/local.mdc\n");
    repo.commit_all("ignore");
    assert_eq!(clean(), true);
    repo.write("shared/rules/local.mdc", "# Local\n");
    assert_eq!(clean(), false, "an ignored rule in the shared directory");
}

#[test]
fn case_176_ignored_guidance_is_not_committed_guidance() {
    let repo = repo();
    repo.write("src/a.clj", "old\n")
        .write(".gitignore", ".cursor/\nrule-fairy.edn\n.DS_Store\n");
    repo.commit_all("base");
    repo.write(".cursor/rules/r.mdc", "---\nglobs: src/**\n---\n# R\n")
        .write("rule-fairy.edn", "{}")
        .write("src/a.clj", "new\n");
    let clean = |repo: &Project| {
        repo.ok(&["review", "fetch", "--local"]);
        repo.ok(&["review", "bundle"]);
        repo.meta(DIFF_DIR)["rules"]["clean"].clone()
    };
    assert_eq!(clean(&repo), false);
    assert!(rules_md(&repo).contains("# r.mdc"));
    repo.git(&["config", "status.showUntrackedFiles", "no"]);
    assert_eq!(clean(&repo), false, "the user's setting hides nothing");
    repo.git(&["config", "--unset", "status.showUntrackedFiles"]);
    repo.write(".gitignore", ".DS_Store\n");
    repo.commit_all("guidance");
    repo.write(".cursor/rules/.DS_Store", "")
        .write("src/a.clj", "newer\n");
    assert_eq!(
        clean(&repo),
        true,
        "ignored junk in a committed rules directory"
    );
}

/// Case 146 on a real file system: a `..` after a link steps out of the
/// link's target, as the kernel reads it, so the two guides stay distinct
/// and an edit to the one really reached makes the guidance unclean.
#[test]
fn case_146_a_parent_step_after_a_link() {
    let repo = repo();
    repo.write("src/a.clj", "old\n")
        .write("CLAUDE.md", "Root.\n\n@linked/../guide.md\n@guide.md\n")
        .write("docs/guide.md", "Nested guide.")
        .write("docs/nested/x.md", "")
        .write("guide.md", "Root guide.")
        .link("linked", "docs/nested");
    repo.commit_all("base");
    repo.write("src/a.clj", "new\n");
    repo.ok(&["review", "fetch", "--local"]);
    let out = repo.ok(&["review", "bundle"]);
    assert!(out.contains("3 instruction files"), "{out}");
    let bundle = rules_md(&repo);
    assert!(bundle.contains("# CLAUDE.md\n\nRoot.\n\n@linked/../guide.md\n@guide.md"));
    assert!(
        bundle.contains("# guide.md (imported by CLAUDE.md)\n\nNested guide."),
        "{bundle}"
    );
    assert!(bundle.contains("# guide.md (imported by CLAUDE.md)\n\nRoot guide."));
    assert_eq!(repo.meta(DIFF_DIR)["rules"]["clean"], true);
    repo.write("docs/guide.md", "Nested guide, edited.");
    repo.ok(&["review", "bundle"]);
    assert_eq!(repo.meta(DIFF_DIR)["rules"]["clean"], false);
}
