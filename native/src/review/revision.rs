//! The rules revision recorded beside a review (behaviour §6.6): which rules
//! directories were read, the HEAD they sit on, and whether the guidance
//! the bundle used is what is committed. A reviewer states a mismatch: a
//! pull request checked against edited local rules is not checked against
//! its own.

use std::path::Path;

use rule_fairy_engine::checkout_root;
use rule_fairy_engine::paths;
use rule_fairy_engine::scan_rule_files;
use rule_fairy_engine::FileSource;
use rule_fairy_engine::{locate, real_path, Located};
use rule_fairy_engine::{Config, CONFIG_FILE};
use serde::{Deserialize, Serialize};

use super::git::{head_oid, Run};
use crate::stdfs::StdFs;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct RulesRevision {
    /// Each rules directory, relative to the root when under it.
    pub dirs: Vec<String>,
    pub head_ref_oid: Option<String>,
    /// `true` committed, `false` not, `None` unknown (outside git, or some
    /// of the guidance lies outside the checkout where git cannot see it).
    pub clean: Option<bool>,
}

/// The revision of the guidance for a project: its rules directories and
/// rule files, `rule-fairy.edn`, and `inputs` (the bundle's other files).
pub(super) fn rules_revision(
    root: &str,
    config: &Config,
    inputs: &[String],
) -> Result<RulesRevision, String> {
    let fs = StdFs;
    let source = config.rules_source(root).map_err(|e| e.to_string())?;
    let dirs: Vec<Located> = source
        .dirs
        .iter()
        .map(|dir| locate(&fs, root, dir))
        .collect();
    let (listing, _) = scan_rule_files(&fs, &source);
    let mut guidance: Vec<Located> = dirs.clone();
    guidance.extend(
        listing
            .files
            .iter()
            .map(|file| locate(&fs, root, &file.path)),
    );
    guidance.extend(
        std::iter::once(CONFIG_FILE)
            .chain(inputs.iter().map(String::as_str))
            .map(|path| locate(&fs, root, path)),
    );
    let dir = Path::new(root);
    let clean = if guidance.iter().all(|g| g.real.is_some()) {
        let mut pathspecs: Vec<String> = Vec::new();
        for g in &guidance {
            for path in [Some(&g.written), g.real.as_ref()].into_iter().flatten() {
                if !pathspecs.contains(path) {
                    pathspecs.push(path.clone());
                }
            }
        }
        committed(&fs, root, &pathspecs)
    } else {
        None
    };
    Ok(RulesRevision {
        dirs: dirs.into_iter().map(|d| d.written).collect(),
        head_ref_oid: head_oid(dir),
        clean,
    })
}

/// Whether the paths are what is committed: no entry of
/// `git status --ignored` for them, except ignored junk that is not one of
/// them. Ignored guidance never reached a commit, the same as untracked;
/// the untracked mode is pinned because `status.showUntrackedFiles=no`
/// would hide both. `None` when git fails (outside a repository).
fn committed(fs: &dyn FileSource, root: &str, pathspecs: &[String]) -> Option<bool> {
    let mut args: Vec<&str> = vec![
        "status",
        "--porcelain",
        "-z",
        "--ignored",
        "--untracked-files=normal",
        "--",
    ];
    args.extend(pathspecs.iter().map(String::as_str));
    let status = Run::git(&args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output(Path::new(root))
        .ok()?;
    let status = String::from_utf8_lossy(&status);
    let (ignored, changed): (Vec<&str>, Vec<&str>) = status
        .split('\0')
        .filter(|entry| !entry.trim().is_empty())
        .partition(|entry| entry.starts_with("!! "));
    if !changed.is_empty() {
        return Some(false);
    }
    // Status paths are relative to the checkout; compare in that form. An
    // ignored directory is listed once, not its files.
    let listed = checkout_relative(fs, root, pathspecs);
    let named = ignored.iter().map(|entry| &entry[3..]).any(|entry| {
        listed
            .iter()
            .any(|path| path == entry || (entry.ends_with('/') && path.starts_with(entry)))
    });
    Some(!named)
}

fn checkout_relative(fs: &dyn FileSource, root: &str, pathspecs: &[String]) -> Vec<String> {
    let project = real_path(fs, root);
    let Some(checkout) = checkout_root(fs, &project) else {
        return pathspecs.to_vec();
    };
    pathspecs
        .iter()
        .map(|path| {
            let absolute = paths::normalize_lexically(&paths::join(&project, path));
            paths::relative_path(&checkout, &absolute)
        })
        .collect()
}
