//! `rule-fairy review-plan` (behaviour §6.7, 6.8; cases 166 to 169): the
//! paths a plan touches, its bundle and metadata, and bad input.

use std::fs;

use serde_json::json;

use crate::util::review::*;
use crate::util::*;

fn plan_project() -> Project {
    let repo = Project::new();
    repo.write(
        ".cursor/rules/ui.mdc",
        "---\nglobs: apps/**/ui/**\n---\n# UI rule\n\nUI body.\n",
    )
    .write(
        ".cursor/rules/db.mdc",
        "---\nglobs: db/**\n---\n# DB rule\n\nDB body.\n",
    )
    .write(
        ".cursor/rules/base.mdc",
        "---\nalwaysApply: true\n---\n# Base rule\n",
    )
    .write("AGENTS.md", "# Agents\n\nInstructions.")
    .write("apps/web/src/web/ui/existing.clj", "(ns web.ui.existing)")
    .write(
        "docs/plan.md",
        "# Plan\n\n\
             1. Edit `apps/web/src/web/ui/existing.clj:12` to add the widget.\n\
             2. Create `apps/web/src/web/ui/new_widget.clj` next to it.\n\
             3. Later, `elsewhere/nowhere/thing.clj` (directory does not exist yet).\n\
             4. Run `bb test`.\n",
    )
    .write(
        "docs/listed.md",
        "# Plan\n\n## Files to change\n\n\
             - `db/migrations/001.sql`: new table\n\
             - apps/web/src/web/ui/existing.clj\n\n\
             ## Steps\n\nMention of `docs/other.md` is ignored because the list wins.\n",
    )
    .write(
        "docs/dir.md",
        "# Plan\n\nRework everything under `apps/web/` and `docs/`.\n",
    );
    repo
}

#[test]
fn case_167_paths() {
    let repo = plan_project();
    let out = repo.ok(&["review-plan", "paths", "docs/plan.md"]);
    assert_eq!(
        out,
        "Plan: docs/plan.md\n\
         Paths (extracted):\n  apps/web/src/web/ui/existing.clj\n  apps/web/src/web/ui/new_widget.clj\n\
         Dropped (no such file or parent directory, or outside the project; add back with --paths):\n  \
         elsewhere/nowhere/thing.clj (no such file or parent directory)\n"
    );

    let absolute = repo.path("db/y.sql").display().to_string();
    let out = repo.ok(&[
        "review-plan",
        "paths",
        "docs/plan.md",
        "--paths",
        "elsewhere/nowhere/thing.clj",
        "./db/x.sql",
        &absolute,
    ]);
    assert!(
        out.ends_with("Added:\n  elsewhere/nowhere/thing.clj\n  db/x.sql\n  db/y.sql\n"),
        "{out}"
    );

    let plan = repo.path("docs/plan.md").display().to_string();
    let out = repo.ok(&["review-plan", "paths", &plan]);
    assert!(out.starts_with(&format!(
        "Plan: {plan}\nPaths (extracted):\n  apps/web/src/web/ui/existing.clj\n"
    )));

    let out = repo.ok(&["review-plan", "paths", "docs/dir.md"]);
    assert!(out.contains(
        "Paths (extracted):\n  apps/web/src/web/ui/existing.clj\n  docs/dir.md\n  docs/listed.md\n  docs/plan.md\n"
    ), "{out}");
    assert!(out.contains(
        "Directories expanded to the files under them:\n  apps/web/ (1 file)\n  docs/ (3 files)\n"
    ));

    let out = repo.ok(&["review-plan", "paths", "docs/listed.md"]);
    assert!(out
        .contains("Paths (list):\n  db/migrations/001.sql\n  apps/web/src/web/ui/existing.clj\n"));
    assert!(!out.contains("docs/other.md") && !out.contains("Dropped"));

    repo.write("docs/empty.md", "# Plan\n\nThink about it.\n");
    let out = repo.ok(&["review-plan", "paths", "docs/empty.md"]);
    assert_eq!(out, "Plan: docs/empty.md\nPaths (extracted): none\n");
    assert!(!repo.exists(".rule-fairy"), "paths writes nothing");
}

#[test]
fn case_168_bundle_meta_and_clean() {
    let repo = plan_project();
    let out = repo.ok(&["review-plan", "bundle", "docs/plan.md"]);
    let dir = repo.path(PLAN_DIR);
    assert_eq!(
        out.trim(),
        format!(
            "Wrote {}/rules.md: 2 of 3 rules, 1 instruction files, 2 paths (extracted), 0 duplicates omitted; and {}/meta.json",
            dir.display(),
            dir.display()
        )
    );
    let bundle = repo.read(&format!("{PLAN_DIR}/rules.md"));
    assert!(bundle.contains("# AGENTS.md\n\n# Agents"));
    assert!(
        bundle.contains("# UI rule")
            && bundle.contains("# Base rule")
            && !bundle.contains("# DB rule")
    );
    let mut meta = repo.meta(PLAN_DIR);
    assert!(meta
        .as_object_mut()
        .unwrap()
        .remove("generated_at")
        .unwrap()
        .is_string());
    assert_eq!(
        meta,
        json!({
            "mode": "plan", "plan_file": "docs/plan.md", "path_source": "extracted",
            "changed_paths": ["apps/web/src/web/ui/existing.clj", "apps/web/src/web/ui/new_widget.clj"],
            "added_paths": [], "dropped_paths": ["elsewhere/nowhere/thing.clj"],
            "expanded_directories": {},
            "rules": {"dirs": [".cursor/rules"], "head_ref_oid": null, "clean": null}
        })
    );
    assert_eq!(repo.read(".rule-fairy/review/.gitignore"), "*\n");
    assert!(!repo.exists(DIFF_DIR));

    repo.write(&format!("{PLAN_DIR}/leftover.txt"), "from an earlier pass");
    let out = repo.ok(&[
        "review-plan",
        "bundle",
        "docs/plan.md",
        "--paths",
        "db/schema.sql",
    ]);
    assert!(out.contains("3 paths (extracted, 1 added)"), "{out}");
    assert_eq!(repo.meta(PLAN_DIR)["added_paths"], json!(["db/schema.sql"]));
    assert!(repo
        .read(&format!("{PLAN_DIR}/rules.md"))
        .contains("# DB rule"));
    // A file no review wrote is left alone: only the artifacts are removed.
    assert!(repo.exists(&format!("{PLAN_DIR}/leftover.txt")));

    let out = repo.ok(&["review-plan", "bundle", "docs/dir.md"]);
    assert!(out.contains("4 paths (extracted)"), "{out}");
    assert_eq!(
        repo.meta(PLAN_DIR)["expanded_directories"],
        json!({"apps/web": 1, "docs": 3})
    );

    let out = repo.ok(&["review-plan", "clean"]);
    assert_eq!(
        out.trim(),
        format!(
            "Kept {}: it holds files a review did not write (leftover.txt), which are left alone",
            dir.display()
        )
    );
    assert!(!repo.exists(&format!("{PLAN_DIR}/rules.md")));
    repo.remove(&format!("{PLAN_DIR}/leftover.txt"));
    let out = repo.ok(&["review-plan", "clean"]);
    assert_eq!(out.trim(), format!("Removed {}", dir.display()));
    assert!(!repo.exists(PLAN_DIR) && repo.exists(".rule-fairy/review/.gitignore"));
    repo.ok(&["review-plan", "clean"]);
}

#[test]
fn a_plan_outside_the_project_is_read_as_given() {
    let repo = plan_project();
    let elsewhere = repo.beside("plans");
    let plan = elsewhere.join("plan.md");
    fs::write(
        &plan,
        format!(
            "## Files\n\n- `{}`\n- `/nowhere/else.clj`\n",
            repo.path("apps/web/src/web/ui/existing.clj").display()
        ),
    )
    .unwrap();
    let plan = plan.display().to_string();
    let out = repo.ok(&["review-plan", "paths", &plan]);
    assert!(
        out.ends_with("/nowhere/else.clj (outside the project)\n"),
        "{out}"
    );
    let out = repo.ok(&["review-plan", "bundle", &plan]);
    assert!(out.contains("1 paths (list)"), "{out}");
    let meta = repo.meta(PLAN_DIR);
    assert_eq!(
        meta["changed_paths"],
        json!(["apps/web/src/web/ui/existing.clj"])
    );
    assert_eq!(meta["dropped_paths"], json!(["/nowhere/else.clj"]));
    assert_eq!(meta["plan_file"], plan.as_str());
}

#[test]
fn a_plan_bundle_in_git_records_the_revision() {
    let repo = repo();
    repo.write(".cursor/rules/ui.mdc", "---\nglobs: src/**\n---\n# UI\n")
        .write("src/a.ts", "")
        .write("plan.md", "Edit `src/a.ts`.\n");
    repo.commit_all("base");
    repo.ok(&["review-plan", "bundle", "plan.md"]);
    let head = repo.git(&["rev-parse", "HEAD"]);
    assert_eq!(
        repo.meta(PLAN_DIR)["rules"],
        json!({"dirs": [".cursor/rules"], "head_ref_oid": head, "clean": true})
    );
}

#[test]
fn a_broken_rule_is_left_out_of_a_plan_bundle_and_named() {
    let repo = plan_project();
    repo.write(
        ".cursor/rules/broken.mdc",
        "---\nalwaysApply: true\n---\n# Broken\n\n@doc/missing.md\n",
    );
    let out = repo.ok(&["review-plan", "bundle", "docs/plan.md"]);
    let named =
        ".cursor/rules/broken.mdc:6: broken.mdc: Rule import does not exist: doc/missing.md";
    assert!(out.contains(named), "{out}");
    let bundle = repo.read(&format!("{PLAN_DIR}/rules.md"));
    assert!(bundle.contains(&format!("  - {named}\n")), "{bundle}");
    assert!(!bundle.contains("# Broken"));
}

#[test]
fn case_169_argument_errors_create_nothing() {
    let repo = plan_project();
    for (args, message) in [
        (vec![], "usage: review-plan paths <plan-file> [--paths <path>...]\n       review-plan bundle <plan-file> [--paths <path>...]\n       review-plan clean"),
        (vec!["paths"], "A plan file is required\nusage: review-plan paths"),
        (vec!["paths", "docs/missing.md"], "Plan not found: "),
        (vec!["bundle", "docs/plan.md", "extra"], "Unexpected argument: extra"),
        (vec!["bundle", "docs/plan.md", "--bogus"], "Unknown argument: --bogus"),
        (vec!["paths", "docs/plan.md", "--paths", "/elsewhere/x.clj"], "Path outside the project: /elsewhere/x.clj"),
        (vec!["bundle", "docs/plan.md", "--paths", "../up.clj"], "Path outside the project: ../up.clj"),
        (vec!["clean", "now"], "clean takes no arguments\nusage: review-plan"),
        (vec!["frobnicate"], "Unknown command: frobnicate\nusage: review-plan"),
    ] {
        let mut full = vec!["review-plan"];
        full.extend(&args);
        assert_fails(&repo.run(&full), message);
    }
    repo.write("docs/latin1.md", b"Caf\xe9 `src/a.clj`\n");
    assert_fails(
        &repo.run(&["review-plan", "paths", "docs/latin1.md"]),
        "is not UTF-8 text (invalid byte at offset 3)",
    );
    assert!(!repo.exists(".rule-fairy"));
}
