//! An installed plugin's version, read from its manifest, beside the
//! program's: the mod and the hooks come from the plugin, the program from
//! `cargo install`, so the two are updated apart and can drift.

use std::path::Path;

use serde_json::Value;

use super::report::Check;

/// This program's version.
pub(crate) const PROGRAM_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The `version` of the manifest at `manifest` (a `plugin.json`).
pub(crate) fn read_version(manifest: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not valid JSON: {e}", manifest.display()))?;
    value["version"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{} names no version", manifest.display()))
}

/// The check of an installed plugin's version against the program's.
/// `update` is how to bring the plugin to the program's version.
pub(crate) fn version_check(manifest: &Path, update: &str) -> Check {
    const ID: &str = "pluginVersion";
    const LABEL: &str = "plugin version";
    match read_version(manifest) {
        Ok(version) if version == PROGRAM_VERSION => Check::ok(
            ID,
            LABEL,
            format!("{version}, the same as the program's"),
        )
        .with("version", version),
        Ok(version) => Check::warning(
            ID,
            LABEL,
            format!(
                "the plugin is {version}, the program {PROGRAM_VERSION}: one of them is out of date"
            ),
        )
        .fix(format!(
            "update the older one: {update}; or the program: cargo install --locked --force --git https://github.com/rule-fairy/rule-fairy rule-fairy"
        ))
        .with("version", version),
        Err(problem) => Check::broken(ID, LABEL, problem)
            .fix(format!("install the plugin again: {update}")),
    }
}
