//! Codex's part of doctor: whether the plugin is installed in the Codex
//! home, and whether Codex counts its hooks as trusted and unchanged since
//! (asked of `codex app-server` the way `rule-fairy codex trust` asks).

use std::path::{Path, PathBuf};
use std::process::Stdio;

use rule_fairy_engine::version::{plugin_update, PluginHost};
use toml_edit::DocumentMut;

use super::manifest;
use super::report::{Check, Section};
use crate::codex::app_server::AppServer;
use crate::codex::trust::{plugin_hooks, ListedHook};

const PLUGIN: &str = "rule-fairy";
const INSTALL: &str = "codex plugin marketplace add rule-fairy/rule-fairy, then codex plugin add rule-fairy@rule-fairy and rule-fairy codex trust";

/// Where Codex keeps its configuration: `CODEX_HOME`, else `~/.codex`.
fn codex_home() -> Option<PathBuf> {
    match std::env::var_os("CODEX_HOME").filter(|home| !home.is_empty()) {
        Some(home) => Some(PathBuf::from(home)),
        None => super::home_dir().map(|home| home.join(".codex")),
    }
}

/// The plugin as `config.toml` and the plugin cache hold it.
struct Installed {
    /// `rule-fairy@<marketplace>`.
    id: String,
    enabled: bool,
    /// The installed copy, `plugins/cache/<marketplace>/rule-fairy/<version>`.
    root: Option<PathBuf>,
}

pub(crate) fn section(cwd: &Path) -> Section {
    let mut section = Section::new("codex", "Codex");
    let Some(home) = codex_home() else {
        section.push(
            Check::warning("home", "Codex home", "neither CODEX_HOME nor HOME is set")
                .fix("set CODEX_HOME to your Codex home"),
        );
        return section;
    };
    let installed = match installed(&home, &mut section) {
        Found::Installed(installed) => installed,
        Found::Absent => {
            section.push(trust_skipped(super::find_program("codex"), false));
            return section;
        }
        // Whether there is anything to trust is not known.
        Found::Unknown => return section,
    };
    let Some(root) = &installed.root else {
        section.push(
            Check::broken(
                "plugin",
                "plugin",
                format!(
                    "{} is in config.toml but its installed copy under {} is missing",
                    installed.id,
                    home.join("plugins/cache").display()
                ),
            )
            .fix(format!(
                "codex plugin add {}, then rule-fairy codex trust",
                installed.id
            )),
        );
        return section;
    };
    let plugin = Check::ok(
        "plugin",
        "plugin",
        format!("{} installed at {}", installed.id, root.display()),
    )
    .with("plugin", installed.id.clone())
    .with("root", root.display().to_string());
    section.push(if installed.enabled {
        plugin
    } else {
        Check::broken(
            "plugin",
            "plugin",
            format!(
                "{} is installed but disabled (enabled = false), so none of its hooks run",
                installed.id
            ),
        )
        .fix(format!(
            "set enabled = true under [plugins.\"{}\"] in {}",
            installed.id,
            home.join("config.toml").display()
        ))
    });
    section.push(manifest::version_check(
        &root.join(".codex-plugin/plugin.json"),
        &plugin_update(PluginHost::Codex, &installed.id),
    ));
    section.push(match super::find_program("codex") {
        Some(codex) => trust(&codex, cwd, &installed.id),
        None => trust_skipped(None, true),
    });
    section
}

/// What the Codex home says of the plugin.
enum Found {
    Installed(Installed),
    Absent,
    /// The home or its configuration could not be read: a check says why.
    Unknown,
}

/// Reads the Codex home for the plugin, pushing the checks of what could
/// not be read or is not there.
fn installed(home: &Path, section: &mut Section) -> Found {
    match std::fs::read_dir(home) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            section.push(
                Check::warning(
                    "plugin",
                    "plugin",
                    format!(
                        "not installed: there is no Codex home at {}",
                        home.display()
                    ),
                )
                .fix(INSTALL),
            );
            return Found::Absent;
        }
        Err(e) => {
            section.push(
                Check::broken(
                    "home",
                    "Codex home",
                    format!("cannot read {}: {e}", home.display()),
                )
                .fix(format!(
                    "make {} readable by you, or set CODEX_HOME to your Codex home",
                    home.display()
                )),
            );
            return Found::Unknown;
        }
    }
    let config = home.join("config.toml");
    let text = match std::fs::read_to_string(&config) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            section.push(
                Check::broken(
                    "config",
                    "config.toml",
                    format!("cannot read {}: {e}", config.display()),
                )
                .fix(format!("make {} readable by you", config.display())),
            );
            return Found::Unknown;
        }
    };
    let document = match text.parse::<DocumentMut>() {
        Ok(document) => document,
        Err(e) => {
            let first = e.to_string();
            let first = first.lines().next().unwrap_or("").trim().to_string();
            section.push(
                Check::broken(
                    "config",
                    "config.toml",
                    format!(
                        "{} is not valid TOML ({first}), so Codex cannot read it either",
                        config.display()
                    ),
                )
                .fix(format!("correct {}", config.display())),
            );
            return Found::Unknown;
        }
    };
    let Some((id, enabled)) = plugin_entry(&document) else {
        section.push(
            Check::warning(
                "plugin",
                "plugin",
                format!("not installed in {}", home.display()),
            )
            .fix(INSTALL),
        );
        return Found::Absent;
    };
    let root = installed_copy(home, &id);
    Found::Installed(Installed { id, enabled, root })
}

/// The `[plugins."rule-fairy@<marketplace>"]` table `codex plugin add`
/// writes: its key and whether it is enabled (absent counts as enabled).
fn plugin_entry(document: &DocumentMut) -> Option<(String, bool)> {
    let plugins = document.get("plugins")?.as_table_like()?;
    plugins.iter().find_map(|(key, value)| {
        let name = key.split('@').next()?;
        (name == PLUGIN && key.contains('@')).then(|| {
            let enabled = value
                .get("enabled")
                .and_then(toml_edit::Item::as_bool)
                .unwrap_or(true);
            (key.to_string(), enabled)
        })
    })
}

/// The installed copy Codex runs the hooks from (its `PLUGIN_ROOT`):
/// `plugins/cache/<marketplace>/rule-fairy/<version>/`; the most recently
/// written when there are several versions.
fn installed_copy(home: &Path, id: &str) -> Option<PathBuf> {
    let marketplace = id.split_once('@')?.1;
    let versions = home.join("plugins/cache").join(marketplace).join(PLUGIN);
    std::fs::read_dir(versions)
        .ok()?
        .flatten()
        .filter(|entry| entry.path().join(".codex-plugin").is_dir())
        .max_by_key(|entry| entry.metadata().and_then(|m| m.modified()).ok())
        .map(|entry| entry.path())
}

/// The trust check when it is not asked of Codex.
fn trust_skipped(codex: Option<PathBuf>, installed: bool) -> Check {
    const ID: &str = "trust";
    const LABEL: &str = "hook trust";
    match (codex, installed) {
        (_, true) => Check::broken(
            ID,
            LABEL,
            "codex is not on PATH, so whether Codex trusts the hooks was not checked",
        )
        .fix("put codex on PATH and run rule-fairy doctor again"),
        (Some(codex), false) => Check::ok(
            ID,
            LABEL,
            format!(
                "not checked: the plugin is not installed (codex at {})",
                codex.display()
            ),
        ),
        (None, false) => Check::ok(ID, LABEL, "not checked: codex is not on PATH"),
    }
}

/// Asks Codex whether each of the plugin's hooks is trusted and unchanged.
fn trust(codex: &Path, cwd: &Path, plugin: &str) -> Check {
    const ID: &str = "trust";
    const LABEL: &str = "hook trust";
    let hooks = AppServer::start(codex, Stdio::null())
        .and_then(|mut server| plugin_hooks(&mut server, cwd, plugin));
    let hooks = match hooks {
        Ok(hooks) => hooks,
        Err(problem) => {
            return Check::broken(ID, LABEL, format!("cannot ask Codex: {problem}"))
                .fix("run codex app-server by hand to see why it fails");
        }
    };
    if hooks.is_empty() {
        return Check::broken(ID, LABEL, format!("Codex lists no hooks of {plugin}")).fix(format!(
            "codex plugin add {plugin}, then rule-fairy codex trust"
        ));
    }
    let with = |status: &str| hooks.iter().filter(|h| h.trust_status == status).count();
    let (modified, untrusted) = (with("modified"), with("untrusted"));
    let total = hooks.len();
    let check = if modified + untrusted == 0 && with("trusted") == total {
        Check::ok(ID, LABEL, format!("{total} hooks trusted, unchanged since"))
    } else {
        let mut parts = Vec::new();
        if modified > 0 {
            parts.push(format!("{modified} changed since they were trusted (a file of the installed plugin differs)"));
        }
        if untrusted > 0 {
            parts.push(format!("{untrusted} never trusted"));
        }
        let other = total - modified - untrusted - with("trusted");
        if other > 0 {
            parts.push(format!("{other} in a trust state doctor does not know"));
        }
        Check::broken(
            ID,
            LABEL,
            format!(
                "of {total} hooks, {}; Codex skips them silently",
                parts.join(", ")
            ),
        )
        .fix("rule-fairy codex trust")
    };
    check.with("hooks", hooks_json(&hooks))
}

fn hooks_json(hooks: &[ListedHook]) -> serde_json::Value {
    hooks
        .iter()
        .map(|h| serde_json::json!({"event": h.event_name, "trust": h.trust_status}))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_entry_is_found_by_its_name_before_the_marketplace() {
        let doc = |text: &str| text.parse::<DocumentMut>().unwrap();
        let written = doc("[plugins.\"rule-fairy@rule-fairy\"]\nenabled = true\n");
        assert_eq!(
            plugin_entry(&written),
            Some(("rule-fairy@rule-fairy".to_string(), true))
        );
        let off = doc("[plugins.\"rule-fairy@market\"]\nenabled = false\n");
        assert_eq!(
            plugin_entry(&off),
            Some(("rule-fairy@market".to_string(), false))
        );
        let other = doc("[plugins.\"rule-fairy-extra@m\"]\nenabled = true\n");
        assert_eq!(plugin_entry(&other), None);
        assert_eq!(plugin_entry(&doc("model = \"x\"\n")), None);
    }
}
