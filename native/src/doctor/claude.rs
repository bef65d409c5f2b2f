//! Claude Code's part of doctor: whether the plugin is installed for this
//! project and enabled, which version of it Claude Code reads, and whether
//! the Claude Code on PATH loads mods. The files and their shapes are
//! those `claude plugin install`, `enable` and `disable` write
//! (docs/claude-code.md, "What doctor reads").

use std::path::{Path, PathBuf};

use rule_fairy_engine::version::{plugin_update, PluginHost};
use serde_json::Value;

use super::manifest;
use super::report::{Check, Section, Status};

const PLUGIN: &str = "rule-fairy";
const INSTALL: &str =
    "claude plugin marketplace add rule-fairy/rule-fairy, then claude plugin install rule-fairy@rule-fairy";
/// The first Claude Code whose mods can compile WebAssembly.
const MINIMUM: [u64; 3] = [2, 1, 326];

/// Claude Code's configuration directory: `CLAUDE_CONFIG_DIR`, else
/// `~/.claude`.
fn config_dir() -> Option<PathBuf> {
    match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|dir| !dir.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => super::home_dir().map(|home| home.join(".claude")),
    }
}

/// One install of the plugin as `plugins/installed_plugins.json` records it.
struct Install {
    id: String,
    scope: String,
    install_path: Option<PathBuf>,
}

pub(crate) fn section(project: Option<&str>) -> Section {
    let mut section = Section::new("claudeCode", "Claude Code");
    let Some(config) = config_dir() else {
        section.push(
            Check::warning(
                "config",
                "configuration",
                "neither CLAUDE_CONFIG_DIR nor HOME is set",
            )
            .fix("set CLAUDE_CONFIG_DIR to Claude Code's configuration directory"),
        );
        section.push(version(false));
        return section;
    };
    let install = match find_install(&config, project) {
        Ok(install) => install,
        Err(check) => {
            let broken = check.status == Status::Broken;
            section.push(*check);
            section.push(version(broken));
            return section;
        }
    };
    section.push(
        Check::ok(
            "plugin",
            "plugin",
            format!("{} installed (scope {})", install.id, install.scope),
        )
        .with("plugin", install.id.clone())
        .with("scope", install.scope.clone()),
    );
    section.push(enabled(&config, project, &install.id));
    match plugin_folder(&config, &install) {
        Some(folder) => section.push(manifest::version_check(
            &folder.join(".claude-plugin/plugin.json"),
            &plugin_update(PluginHost::Claude, &install.id),
        )),
        None => section.push(
            Check::broken(
                "pluginVersion",
                "plugin version",
                "the install record names no folder to read the plugin from",
            )
            .fix(format!("claude plugin install {} again", install.id)),
        ),
    }
    section.push(version(true));
    section
}

fn marketplace(id: &str) -> &str {
    id.split_once('@').map_or("rule-fairy", |(_, m)| m)
}

/// Reads a JSON file; `Ok(None)` when it is not there.
fn read_json(path: &Path) -> Result<Option<Value>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("{} is not valid JSON ({e})", path.display()))
}

/// The install of the plugin that applies to `project`: a user-scope one,
/// or a project or local one made in this project. The check to report
/// instead when there is none or the record cannot be read.
fn find_install(config: &Path, project: Option<&str>) -> Result<Install, Box<Check>> {
    let record = config.join("plugins/installed_plugins.json");
    let value = match read_json(&record) {
        Ok(Some(value)) => value,
        Ok(None) => {
            return Err(Box::new(
                Check::warning(
                    "plugin",
                    "plugin",
                    format!("not installed in {}", config.display()),
                )
                .fix(INSTALL),
            ));
        }
        Err(problem) => {
            return Err(Box::new(Check::broken("plugin", "plugin", problem).fix(
                format!(
                    "correct {} or remove it, then install the plugins again",
                    record.display()
                ),
            )));
        }
    };
    let Some(plugins) = value["plugins"].as_object() else {
        return Err(Box::new(
            Check::broken(
                "plugin",
                "plugin",
                format!("{} has no `plugins` object", record.display()),
            )
            .fix(format!(
                "remove {}, then install the plugins again",
                record.display()
            )),
        ));
    };
    let mut elsewhere = Vec::new();
    for (id, installs) in plugins {
        if id.split('@').next() != Some(PLUGIN) || !id.contains('@') {
            continue;
        }
        // Version 2 of the record keeps a list of installs per plugin.
        let installs = match installs {
            Value::Array(list) => list.clone(),
            other => vec![other.clone()],
        };
        for entry in installs {
            let scope = entry["scope"].as_str().unwrap_or("user").to_string();
            let here = match entry["projectPath"].as_str() {
                Some(path) => project.is_some_and(|root| same_dir(path, root)),
                None => true,
            };
            if !here {
                elsewhere.push(entry["projectPath"].as_str().unwrap_or("").to_string());
                continue;
            }
            return Ok(Install {
                id: id.clone(),
                scope,
                install_path: entry["installPath"].as_str().map(PathBuf::from),
            });
        }
    }
    let detail = if elsewhere.is_empty() {
        format!("not installed in {}", config.display())
    } else {
        format!(
            "installed only for other projects ({}), not for this one",
            elsewhere.join(", ")
        )
    };
    Err(Box::new(
        Check::warning("plugin", "plugin", detail).fix(INSTALL),
    ))
}

fn same_dir(a: &str, b: &str) -> bool {
    let real = |p: &str| std::fs::canonicalize(p).unwrap_or_else(|_| PathBuf::from(p));
    real(a) == real(b)
}

/// Whether the plugin is on: `enabledPlugins` of the local, the project's
/// and the user's settings, the most specific that names it deciding (as
/// `claude plugin list` decides); named by none, it is off.
fn enabled(config: &Path, project: Option<&str>, id: &str) -> Check {
    const ID: &str = "enabled";
    const LABEL: &str = "enabled";
    let mut layers = Vec::new();
    if let Some(root) = project {
        let dir = Path::new(root).join(".claude");
        layers.push(("local", dir.join("settings.local.json")));
        layers.push(("project", dir.join("settings.json")));
    }
    layers.push(("user", config.join("settings.json")));
    for (scope, file) in &layers {
        match read_json(file) {
            Ok(None) => {}
            Ok(Some(settings)) => match settings["enabledPlugins"][id].as_bool() {
                Some(true) => {
                    return Check::ok(ID, LABEL, format!("on in {}", file.display()))
                        .with("scope", *scope);
                }
                Some(false) => {
                    return Check::broken(
                        ID,
                        LABEL,
                        format!(
                            "{id} is disabled in {}, so Claude Code loads no mod of it",
                            file.display()
                        ),
                    )
                    .fix(format!("claude plugin enable {id} --scope {scope}"))
                    .with("scope", *scope);
                }
                None => {}
            },
            Err(problem) => {
                return Check::broken(
                    ID,
                    LABEL,
                    format!("cannot tell: {problem}, and `claude plugin enable` refuses such a file too"),
                )
                .fix(format!("correct {}", file.display()));
            }
        }
    }
    Check::broken(
        ID,
        LABEL,
        format!("{id} is installed but named in no enabledPlugins, so it is off"),
    )
    .fix(format!("claude plugin enable {id}"))
}

/// The folder Claude Code reads the plugin from: a directory marketplace's
/// plugin is read in place (`claude plugin list` says "Read from"), any
/// other from its installed copy.
fn plugin_folder(config: &Path, install: &Install) -> Option<PathBuf> {
    in_place(config, marketplace(&install.id)).or_else(|| install.install_path.clone())
}

/// A directory marketplace's folder for the plugin: its `installLocation`
/// in `plugins/known_marketplaces.json`, and the plugin's `source` in the
/// marketplace's own `.claude-plugin/marketplace.json`.
fn in_place(config: &Path, marketplace: &str) -> Option<PathBuf> {
    let known = read_json(&config.join("plugins/known_marketplaces.json")).ok()??;
    let entry = &known[marketplace];
    if entry["source"]["source"].as_str() != Some("directory") {
        return None;
    }
    let location = PathBuf::from(entry["installLocation"].as_str()?);
    let listing = read_json(&location.join(".claude-plugin/marketplace.json")).ok()??;
    let source = listing["plugins"]
        .as_array()?
        .iter()
        .find(|plugin| plugin["name"].as_str() == Some(PLUGIN))?["source"]
        .as_str()?
        .to_string();
    Some(location.join(source))
}

/// Whether the `claude` on PATH loads mods that compile WebAssembly; not
/// knowing is worth a warning only when the plugin is there to load.
fn version(installed: bool) -> Check {
    const ID: &str = "version";
    const LABEL: &str = "Claude Code version";
    let minimum = MINIMUM.map(|n| n.to_string()).join(".");
    let Some(claude) = super::find_program("claude") else {
        let detail = format!("unknown: claude is not on PATH (mods load from {minimum})");
        return if installed {
            Check::warning(ID, LABEL, detail)
        } else {
            Check::ok(ID, LABEL, detail)
        };
    };
    let answer = std::process::Command::new(&claude)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    let text = match answer {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        Ok(out) => {
            return Check::warning(
                ID,
                LABEL,
                format!(
                    "unknown: {} --version exited with {}",
                    claude.display(),
                    out.status
                ),
            );
        }
        Err(e) => {
            return Check::warning(
                ID,
                LABEL,
                format!("unknown: cannot run {}: {e}", claude.display()),
            );
        }
    };
    match parse_version(&text) {
        Some(found) if found >= MINIMUM => Check::ok(
            ID,
            LABEL,
            format!("{text}, which loads mods ({minimum} or later)"),
        )
        .with("version", text),
        // Too old matters only with the plugin there to load.
        Some(_) => Check::new(
            ID,
            LABEL,
            if installed {
                Status::Broken
            } else {
                Status::Warning
            },
            format!(
                "{text} loads no mod that compiles WebAssembly, so Rule Fairy does nothing in it"
            ),
        )
        .fix(format!(
            "update Claude Code to {minimum} or later: claude update"
        ))
        .with("version", text),
        None => Check::warning(ID, LABEL, format!("unknown: `{text}` names no version")),
    }
}

/// `2.1.328 (Claude Code)` → `[2, 1, 328]`.
fn parse_version(text: &str) -> Option<[u64; 3]> {
    let word = text.split_whitespace().next()?;
    let mut parts = word.split('.').map(|p| p.parse::<u64>().ok());
    let version = [parts.next()??, parts.next()??, parts.next()??];
    Some(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_the_first_word() {
        assert_eq!(parse_version("2.1.328 (Claude Code)"), Some([2, 1, 328]));
        assert_eq!(parse_version("2.1.3"), Some([2, 1, 3]));
        assert_eq!(parse_version("Claude Code"), None);
        assert_eq!(parse_version("2.1"), None);
        assert!(parse_version("2.1.325").unwrap() < MINIMUM);
        assert!(parse_version("2.2.0").unwrap() >= MINIMUM);
    }
}
