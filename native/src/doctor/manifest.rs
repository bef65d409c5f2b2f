//! An installed plugin's version, read from its manifest, beside the
//! program's: the mod and the hooks come from the plugin, the program from
//! npm or cargo, so the two are updated apart and can drift (behaviour
//! §10.5).

use std::path::Path;

use rule_fairy_engine::version::{version_fix, VERSION};

use super::report::Check;
use crate::plugin_manifest::read_version;

/// This program's version.
pub(crate) const PROGRAM_VERSION: &str = VERSION;

/// The check of an installed plugin's version against the program's.
/// `update` is how to bring the plugin up to date (the engine's
/// `plugin_update`).
pub(crate) fn version_check(manifest: &Path, update: &str) -> Check {
    const ID: &str = "pluginVersion";
    const LABEL: &str = "plugin version";
    match read_version(manifest) {
        Ok(version) if version == PROGRAM_VERSION => {
            Check::ok(ID, LABEL, format!("{version}, the same as the program's"))
                .with("version", version)
        }
        Ok(version) => Check::warning(
            ID,
            LABEL,
            format!(
                "the plugin is {version}, the program {PROGRAM_VERSION}: one of them is out of date"
            ),
        )
        .fix(version_fix(&version, PROGRAM_VERSION, update))
        .with("version", version),
        Err(problem) => {
            Check::broken(ID, LABEL, problem).fix(format!("install the plugin again: {update}"))
        }
    }
}
