//! `review fetch`: the change under review, from a pull request through
//! `gh`, from the working tree against HEAD, or from everything since the
//! merge base with a branch, written as `patch.diff` and `meta.json`.

use std::path::Path;

use rule_fairy_engine::patch;
use rule_fairy_engine::Config;
use serde_json::{json, Value};

use super::artifacts::{Mode, ReviewDir};
use super::git::{head_oid, repo_slug, Run};
use super::meta::{self, DiffMeta};
use super::revision::rules_revision;
use super::working_tree;
use super::Done;
use crate::stdfs::StdFs;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Source {
    Pr { number: String, checkout: bool },
    Local,
    Base(String),
}

/// Reads the arguments left to right (behaviour §6.1). Nothing is created
/// before they are all valid.
pub(super) fn parse(args: &[String]) -> Result<Source, String> {
    let mut source: Option<Source> = None;
    let mut checkout = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--checkout" {
            checkout = true;
            continue;
        }
        if !matches!(arg.as_str(), "--local" | "--pr" | "--base") {
            return Err(format!("Unknown argument: {arg}"));
        }
        if source.is_some() {
            return Err(only_one());
        }
        let mode = match arg.as_str() {
            "--local" => Source::Local,
            _ => {
                let value = rest
                    .next()
                    .filter(|v| !v.starts_with("--"))
                    .ok_or_else(|| format!("{arg} needs a value"))?;
                if arg == "--pr" {
                    Source::Pr {
                        number: value.clone(),
                        checkout: false,
                    }
                } else {
                    Source::Base(value.clone())
                }
            }
        };
        source = Some(mode);
    }
    match source {
        None => Err("One of --pr <number>, --local or --base <ref> is required".to_string()),
        Some(Source::Pr { number, .. }) => Ok(Source::Pr { number, checkout }),
        Some(_) if checkout => Err("--checkout only applies to --pr".to_string()),
        Some(other) => Ok(other),
    }
}

fn only_one() -> String {
    "Only one of --pr, --local and --base may be given".to_string()
}

/// Fetches, then replaces the diff review's artifacts. Returns the line to
/// print.
pub(super) fn fetch(root: &str, source: &Source) -> Result<Done, String> {
    let dir = Path::new(root);
    let config = Config::load(&StdFs, root).map_err(|e| e.to_string())?;
    let (patch, mut meta) = match source {
        Source::Pr { number, checkout } => pull_request(dir, number, *checkout)?,
        Source::Local => {
            let top = toplevel(dir)?;
            let head = head_oid(dir);
            let base = match &head {
                Some(oid) => oid.clone(),
                None => empty_tree(dir)?,
            };
            let patch = working_tree::patch(dir, &base, below_top(root, &top))?;
            (patch, local_meta(dir, "local", head))
        }
        Source::Base(reference) => {
            let top = toplevel(dir)?;
            let merge_base = Run::git(&["merge-base", reference.as_str(), "HEAD"]).text(dir)?;
            let patch = working_tree::patch(dir, &merge_base, below_top(root, &top))?;
            let mut meta = local_meta(dir, "base", head_oid(dir));
            meta.base_ref = Some(reference.clone());
            meta.base_ref_oid = Some(merge_base);
            (patch, meta)
        }
    };
    let text = String::from_utf8_lossy(&patch);
    meta.changed_paths = patch::changed_paths(&text);
    meta.rules = rules_revision(root, &config, &[])?;
    let lines = rule_fairy_engine::text::lines(&text).len();

    let review = ReviewDir::new(dir, Mode::Diff);
    review.clean()?;
    review.prepare()?;
    let patch_file = review.write("patch.diff", &patch)?;
    let meta_file = review.write("meta.json", &meta::to_json(&meta))?;
    let text = format!(
        "Wrote {} ({lines} lines, {} changed paths) and {}",
        patch_file.display(),
        meta.changed_paths.len(),
        meta_file.display()
    );
    Ok(Done::new(
        text,
        json!({
            "mode": meta.mode,
            "patch": patch_file.display().to_string(),
            "meta": meta_file.display().to_string(),
            "lines": lines,
            "changedPaths": meta.changed_paths,
        }),
    ))
}

/// The checkout's top level; a clear error outside git, where only a
/// patch file can be reviewed.
fn toplevel(dir: &Path) -> Result<String, String> {
    Run::git(&["rev-parse", "--show-toplevel"])
        .text(dir)
        .map_err(|_| {
            format!(
                "Not a git repository: {}. `review fetch --local` and `--base` read git; \
                 to review a patch file, run `review bundle --patch <file>`",
                dir.display()
            )
        })
}

/// Whether the project lies below its checkout's top level, where the
/// diff is limited to it and its paths made relative to it, as its globs
/// are written.
fn below_top(root: &str, top: &str) -> bool {
    let real = |p: &str| std::fs::canonicalize(p).unwrap_or_else(|_| p.into());
    real(root) != real(top)
}

/// The empty tree's id in this repository's hash, the base before the
/// first commit.
fn empty_tree(dir: &Path) -> Result<String, String> {
    Run::git(&["hash-object", "-t", "tree", "--stdin"])
        .input(Vec::new())
        .text(dir)
}

fn local_meta(dir: &Path, mode: &str, head: Option<String>) -> DiffMeta {
    DiffMeta {
        mode: mode.to_string(),
        pr_number: None,
        pr_url: None,
        pr_title: None,
        pr_state: None,
        pr_draft: None,
        head_ref_oid: head,
        head_ref_name: None,
        base_ref_name: None,
        base_ref: None,
        base_ref_oid: None,
        repo_slug: repo_slug(dir),
        checked_out: None,
        working_tree_included: true,
        changed_paths: Vec::new(),
        rules: super::revision::RulesRevision {
            dirs: Vec::new(),
            head_ref_oid: None,
            clean: None,
        },
        generated_at: meta::now(),
    }
}

/// A pull request's aggregate diff (not the per-commit series, which holds
/// intermediate versions) and its facts, through `gh`.
fn pull_request(dir: &Path, number: &str, checkout: bool) -> Result<(Vec<u8>, DiffMeta), String> {
    if checkout {
        Run::gh(&["pr", "checkout", number, "--detach"]).output(dir)?;
    }
    let patch = Run::gh(&["pr", "diff", number]).output(dir)?;
    const FIELDS: &str = "number,url,title,state,isDraft,headRefOid,headRefName,baseRefName";
    let view = Run::gh(&["pr", "view", number, "--json", FIELDS]).output(dir)?;
    let view: Value = serde_json::from_slice(&view).map_err(|e| {
        format!("gh pr view {number} --json {FIELDS} printed something that is not JSON: {e}")
    })?;
    let slug = Run::gh(&[
        "repo",
        "view",
        "--json",
        "nameWithOwner",
        "-q",
        ".nameWithOwner",
    ])
    .text(dir)?;
    let field = |name: &str| Some(view.get(name).cloned().unwrap_or(Value::Null));
    let mut meta = local_meta(
        dir,
        "pr",
        view.get("headRefOid")
            .and_then(Value::as_str)
            .map(str::to_string),
    );
    meta.pr_number = field("number");
    meta.pr_url = field("url");
    meta.pr_title = field("title");
    meta.pr_state = field("state");
    meta.pr_draft = field("isDraft");
    meta.head_ref_name = field("headRefName");
    meta.base_ref_name = field("baseRefName");
    meta.repo_slug = Some(slug);
    meta.checked_out = Some(checkout);
    meta.working_tree_included = false;
    Ok((patch, meta))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(std::string::ToString::to_string).collect()
    }

    #[test]
    fn arguments() {
        assert_eq!(parse(&args(&["--local"])), Ok(Source::Local));
        assert_eq!(
            parse(&args(&["--base", "main"])),
            Ok(Source::Base("main".into()))
        );
        assert_eq!(
            parse(&args(&["--checkout", "--pr", "7"])),
            Ok(Source::Pr {
                number: "7".into(),
                checkout: true
            })
        );
        for (list, message) in [
            (
                vec![],
                "One of --pr <number>, --local or --base <ref> is required",
            ),
            (
                vec!["--local", "--pr", "1"],
                "Only one of --pr, --local and --base may be given",
            ),
            (
                vec!["--local", "--local"],
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
            (vec!["--local", "extra"], "Unknown argument: extra"),
        ] {
            assert_eq!(parse(&args(&list)), Err(message.to_string()), "{list:?}");
        }
    }
}
