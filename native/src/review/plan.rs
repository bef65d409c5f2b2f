//! `review-plan paths|bundle|clean` (behaviour §6.8): which files a plan
//! will touch, and the bundle of rules for them, before any code exists.

use std::path::{Path, PathBuf};

use rule_fairy_engine::paths;
use rule_fairy_engine::{place, plan_paths, PlanPaths};

use super::artifacts::{Mode, ReviewDir};
use super::meta::{self, to_json, PlanMeta};
use super::revision::rules_revision;
use super::{build_bundle, clean, load_project, root, Done, PLAN_USAGE};
use crate::stdfs::StdFs;
use serde_json::json;

pub(super) fn run(args: &[String]) -> Result<Done, String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(PLAN_USAGE.to_string());
    };
    match command.as_str() {
        "paths" => paths_report(&root()?, &parse(rest)?),
        "bundle" => bundle(&root()?, &parse(rest)?),
        "clean" => clean(rest, Mode::Plan, PLAN_USAGE),
        other => Err(format!("Unknown command: {other}\n{PLAN_USAGE}")),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PlanArgs {
    pub plan: String,
    pub added: Vec<String>,
}

/// `<plan-file> [--paths <path>...]`: after `--paths`, every argument that
/// does not start with `--` is an added path.
pub(super) fn parse(args: &[String]) -> Result<PlanArgs, String> {
    let mut plan: Option<String> = None;
    let mut added = Vec::new();
    let mut collecting = false;
    for arg in args {
        if arg == "--paths" {
            collecting = true;
        } else if arg.starts_with("--") {
            return Err(format!("Unknown argument: {arg}"));
        } else if collecting {
            added.push(arg.clone());
        } else if plan.is_some() {
            return Err(format!("Unexpected argument: {arg}"));
        } else {
            plan = Some(arg.clone());
        }
    }
    let plan = plan.ok_or_else(|| format!("A plan file is required\n{PLAN_USAGE}"))?;
    Ok(PlanArgs { plan, added })
}

/// The paths a bundle is built for: the plan's, then the added ones.
struct Selection {
    found: PlanPaths,
    /// Added paths not already among the plan's.
    added: Vec<String>,
    changed: Vec<String>,
}

fn select(root: &str, args: &PlanArgs) -> Result<Selection, String> {
    let content = read_plan(root, &args.plan)?;
    let found = plan_paths(&StdFs, root, &content);
    let mut placed: Vec<String> = Vec::new();
    for path in &args.added {
        let path =
            place(&StdFs, root, path).ok_or_else(|| format!("Path outside the project: {path}"))?;
        if !placed.contains(&path) {
            placed.push(path);
        }
    }
    let added: Vec<String> = placed
        .iter()
        .filter(|p| !found.paths.contains(p))
        .cloned()
        .collect();
    let mut changed = found.paths.clone();
    changed.extend(added.iter().cloned());
    Ok(Selection {
        found,
        added,
        changed,
    })
}

/// A relative plan file is read from the project root, an absolute one as
/// given; the plan need not lie in the checkout (hosts keep plans in their
/// own directories).
fn read_plan(root: &str, plan: &str) -> Result<String, String> {
    let file = if paths::is_absolute(plan) {
        PathBuf::from(plan)
    } else {
        Path::new(root).join(plan)
    };
    if !file.is_file() {
        return Err(format!("Plan not found: {}", file.display()));
    }
    let bytes = std::fs::read(&file).map_err(|e| format!("Cannot read {}: {e}", file.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "Plan {} is not UTF-8 text (invalid byte at offset {}); a plan is Markdown",
            file.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

fn paths_report(root: &str, args: &PlanArgs) -> Result<Done, String> {
    let selection = select(root, args)?;
    let found = &selection.found;
    let mut out = vec![format!("Plan: {}", args.plan)];
    let mut block = |label: String, items: Vec<String>| {
        out.push(if items.is_empty() {
            format!("{label} none")
        } else {
            label
        });
        out.extend(items.into_iter().map(|item| format!("  {item}")));
    };
    block(
        format!("Paths ({}):", found.source.as_str()),
        found.paths.clone(),
    );
    if !found.expanded.is_empty() {
        let dirs = found
            .expanded
            .iter()
            .map(|(dir, n)| format!("{dir}/ ({n} {})", if *n == 1 { "file" } else { "files" }))
            .collect();
        block(
            "Directories expanded to the files under them:".to_string(),
            dirs,
        );
    }
    if !found.dropped.is_empty() {
        block(
            "Dropped (no such file or parent directory, or outside the project; add back with --paths):"
                .to_string(),
            found
                .dropped
                .iter()
                .map(|path| match found.outside.contains(path) {
                    true => format!("{path} (outside the project)"),
                    false => format!("{path} (no such file or parent directory)"),
                })
                .collect(),
        );
    }
    if !selection.added.is_empty() {
        block("Added:".to_string(), selection.added.clone());
    }
    Ok(Done::new(out.join("\n"), paths_json(args, &selection)))
}

/// The paths report as JSON: the plan's paths and where they came from,
/// the directories expanded, the paths dropped and why, the ones added.
fn paths_json(args: &PlanArgs, selection: &Selection) -> serde_json::Value {
    let found = &selection.found;
    json!({
        "plan": args.plan,
        "pathSource": found.source.as_str(),
        "paths": found.paths,
        "expandedDirectories": found
            .expanded
            .iter()
            .map(|(dir, files)| json!({ "directory": dir, "files": files }))
            .collect::<Vec<_>>(),
        "dropped": found
            .dropped
            .iter()
            .map(|path| json!({
                "path": path,
                "reason": match found.outside.contains(path) {
                    true => "outside the project",
                    false => "no such file or parent directory",
                },
            }))
            .collect::<Vec<_>>(),
        "added": selection.added,
    })
}

fn bundle(root: &str, args: &PlanArgs) -> Result<Done, String> {
    let selection = select(root, args)?;
    let review = ReviewDir::new(Path::new(root), Mode::Plan);
    // Every pass starts empty, so nothing of an earlier pass, nor a bundle
    // of this one that failed, is there to be read.
    review.clean()?;
    let project = load_project(root)?;
    let built = build_bundle(&project, &selection.changed)?;
    let meta = PlanMeta {
        mode: "plan".to_string(),
        plan_file: args.plan.clone(),
        path_source: selection.found.source.as_str().to_string(),
        changed_paths: selection.changed.clone(),
        added_paths: selection.added.clone(),
        dropped_paths: selection.found.dropped.clone(),
        expanded_directories: selection.found.expanded.clone(),
        rules: rules_revision(root, &project.config, &built.input_paths)?,
        generated_at: meta::now(),
    };
    review.prepare()?;
    let written = review.write("rules.md", built.text.as_bytes())?;
    let meta_file = review.write("meta.json", &to_json(&meta))?;
    let added = if selection.added.is_empty() {
        String::new()
    } else {
        format!(", {} added", selection.added.len())
    };
    let wrote = format!(
        "Wrote {}: {} of {} rules, {} instruction files, {} paths ({}{added}), {} duplicates omitted; and {}",
        written.display(),
        built.rule_names.len(),
        built.rule_count,
        built.instruction_paths.len(),
        built.changed_paths.len(),
        selection.found.source.as_str(),
        built.omissions.len(),
        meta_file.display()
    );
    let mut json = super::bundle_json(&built, &written);
    json["meta"] = meta_file.display().to_string().into();
    json["plan"] = args.plan.clone().into();
    json["pathSource"] = selection.found.source.as_str().into();
    json["addedPaths"] = selection.added.clone().into();
    Ok(Done::new(
        format!("{wrote}{}", super::broken_lines(&built)),
        json,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(std::string::ToString::to_string).collect()
    }

    #[test]
    fn arguments() {
        assert_eq!(
            parse(&args(&["p.md", "--paths", "a", "./b"])),
            Ok(PlanArgs {
                plan: "p.md".into(),
                added: vec!["a".into(), "./b".into()]
            })
        );
        assert!(parse(&args(&[]))
            .unwrap_err()
            .starts_with("A plan file is required\nusage: review-plan"));
        assert_eq!(
            parse(&args(&["p.md", "extra"])),
            Err("Unexpected argument: extra".into())
        );
        assert_eq!(
            parse(&args(&["p.md", "--bogus"])),
            Err("Unknown argument: --bogus".into())
        );
        // --paths first: every later plain argument is a path, so no plan.
        assert!(parse(&args(&["--paths", "a"])).is_err());
    }
}
