//! `review bundle [--patch <file>]`: the rules bundle for the paths a patch
//! changes, written as `rules.md` beside the fetched patch; the rules
//! revision in `meta.json` is then completed with the files the bundle
//! read.

use std::path::{Path, PathBuf};

use rule_fairy_engine::patch;

use super::artifacts::{Mode, ReviewDir};
use super::meta::{parse_diff_meta, to_json};
use super::revision::rules_revision;
use super::{build_bundle, load_project, Done};

/// Reads `[--patch <file>]`.
pub(super) fn parse(args: &[String]) -> Result<Option<PathBuf>, String> {
    let mut patch = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--patch" => {
                let file = rest.next().ok_or("--patch needs a file")?;
                patch = Some(PathBuf::from(file));
            }
            other => return Err(format!("Unknown argument: {other}")),
        }
    }
    Ok(patch)
}

fn not_found(file: &Path) -> String {
    format!(
        "Patch not found: {}. Run `review fetch` first, or pass --patch <file>.",
        file.display()
    )
}

pub(super) fn bundle(root: &str, patch_file: Option<PathBuf>) -> Result<Done, String> {
    let review = ReviewDir::new(Path::new(root), Mode::Diff);
    let (file, bytes) = match patch_file {
        Some(file) => {
            if !file.is_file() {
                return Err(not_found(&file));
            }
            let bytes =
                std::fs::read(&file).map_err(|e| format!("Cannot read {}: {e}", file.display()))?;
            (file, bytes)
        }
        // The fetched patch, read back only from the review's own
        // directory, never through a link.
        None => {
            let file = review.file("patch.diff");
            match review.read("patch.diff")? {
                Some(bytes) => (file, bytes),
                None => return Err(not_found(&file)),
            }
        }
    };
    let text = patch_text(&file, &bytes)?;
    let meta_file = review.file("meta.json");
    let meta = match review.read("meta.json")? {
        Some(bytes) => Some(parse_diff_meta(&meta_file, &bytes)?),
        None => None,
    };
    // A bundle from an earlier run must not outlive a failed one: a reader
    // would take it for this run's.
    review.remove("rules.md")?;
    let project = load_project(root)?;
    let built = build_bundle(&project, &patch::changed_paths(&text))?;
    let mut meta_written = None;
    if let Some(mut meta) = meta {
        // fetch recorded the revision before the bundle's inputs were known.
        meta.rules = rules_revision(root, &project.config, &built.input_paths)?;
        review.prepare()?;
        meta_written = Some(review.write("meta.json", &to_json(&meta))?);
    }
    review.prepare()?;
    let written = review.write("rules.md", built.text.as_bytes())?;
    let wrote = format!(
        "Wrote {}: {} of {} rules, {} instruction files, {} changed paths, {} duplicates omitted",
        written.display(),
        built.rule_names.len(),
        built.rule_count,
        built.instruction_paths.len(),
        built.changed_paths.len(),
        built.omissions.len()
    );
    let mut json = super::bundle_json(&built, &written);
    json["patch"] = file.display().to_string().into();
    json["meta"] = meta_written.map(|m| m.display().to_string()).into();
    Ok(Done::new(
        format!("{wrote}{}", super::broken_lines(&built)),
        json,
    ))
}

/// The patch as text. A file holding NUL bytes is not a patch (git
/// describes binary files in text); a non-empty text with no `diff --git`
/// section names no path, and would silently give a bundle of always-on
/// rules only.
fn patch_text(file: &Path, bytes: &[u8]) -> Result<String, String> {
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(format!(
            "{} is not a patch: it holds binary data (a NUL byte at offset {at}). \
             Pass the text of `git diff` or `gh pr diff`",
            file.display()
        ));
    }
    let text = String::from_utf8_lossy(bytes).into_owned();
    if !text.trim().is_empty() && !patch::has_file_sections(&text) {
        return Err(format!(
            "{} is not a git patch: it has no `diff --git` line, so it names no changed path. \
             Pass the output of `git diff` or `gh pr diff`",
            file.display()
        ));
    }
    Ok(text)
}
