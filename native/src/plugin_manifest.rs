//! A plugin's manifest (`.claude-plugin/plugin.json`,
//! `.codex-plugin/plugin.json`), read for its `version`: by `doctor`, and
//! by the Codex hooks once per session (behaviour §10.5).

use std::path::Path;

use serde_json::Value;

use crate::stdfs::{open_regular, read_bounded};

/// The largest manifest read: a manifest is a few hundred bytes.
const MANIFEST_CAP: u64 = 64 * 1024;

/// The `version` of the manifest at `manifest`; `Err` says why there is
/// none (not there, not a regular file, too large, not JSON, no version).
pub(crate) fn read_version(manifest: &Path) -> Result<String, String> {
    let bytes = open_regular(&manifest.to_string_lossy())
        .and_then(|file| read_bounded(file, MANIFEST_CAP))
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{} is not valid JSON: {e}", manifest.display()))?;
    value["version"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{} names no version", manifest.display()))
}
