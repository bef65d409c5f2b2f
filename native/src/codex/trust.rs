//! `rule-fairy codex trust`: records Rule Fairy's Codex hooks as trusted,
//! as the hook review in Codex's interactive UI (`/hooks`) does.
//!
//! Codex runs a plugin's hooks only once they are trusted, and pins that
//! trust to a hash of the handler and of every file of the installed
//! plugin: after an install or any update of the plugin, `codex exec`
//! skips the hooks without a word. This asks Codex itself (through
//! `codex app-server`) for the current hashes of this plugin's hooks and
//! writes them through Codex's own configuration writer. Only the hooks of
//! the named plugin are touched, and each one trusted is listed.

use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};

use clap::Args;
use serde_json::{json, Map, Value};

use super::app_server::AppServer;

#[derive(Args)]
pub(super) struct TrustArgs {
    /// The Codex program.
    #[arg(long, value_name = "PROGRAM", default_value = "codex")]
    codex: PathBuf,
    /// The plugin whose hooks to trust, as installed (`<plugin>@<marketplace>`
    /// or the plugin's name alone).
    #[arg(long, value_name = "PLUGIN", default_value = "rule-fairy")]
    plugin: String,
}

pub(super) fn run(args: &TrustArgs) -> ExitCode {
    match trust(args) {
        Ok(lines) => {
            let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
            match crate::output::print(&text) {
                Ok(()) => ExitCode::SUCCESS,
                Err(problem) => {
                    crate::output::warn(format_args!("rule-fairy: {problem}"));
                    ExitCode::FAILURE
                }
            }
        }
        Err(problem) => {
            crate::output::warn(format_args!("rule-fairy: {problem}"));
            ExitCode::FAILURE
        }
    }
}

fn trust(args: &TrustArgs) -> Result<Vec<String>, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let mut server = AppServer::start(&args.codex, Stdio::inherit())?;
    let ours = plugin_hooks(&mut server, &cwd, &args.plugin)?;
    if ours.is_empty() {
        return Err(format!(
            "Codex lists no hooks of the plugin `{}`; install it first (codex plugin marketplace add ..., then codex plugin add rule-fairy@<marketplace>)",
            args.plugin
        ));
    }
    let mut state = Map::new();
    for hook in &ours {
        let (handler, content) = split_hash(&hook.current_hash)
            .ok_or_else(|| format!("hook {} has no plugin hash pair to trust", hook.key))?;
        state.insert(
            hook.key.clone(),
            json!({"trusted_hash": handler, "trusted_content_hash": content}),
        );
    }
    server.call(
        "config/batchWrite",
        json!({"edits": [{"keyPath": "hooks.state", "value": state, "mergeStrategy": "upsert"}]}),
    )?;
    let after = plugin_hooks(&mut server, &cwd, &args.plugin)?;
    let mut lines = Vec::new();
    for hook in &after {
        if hook.trust_status != "trusted" {
            return Err(format!(
                "hook {} is still {} after trusting it",
                hook.key, hook.trust_status
            ));
        }
        lines.push(format!("trusted: {} {}", hook.event_name, hook.command));
    }
    Ok(lines)
}

/// One hook as Codex's `hooks/list` names it.
pub(crate) struct ListedHook {
    /// The key its trust is recorded under in `hooks.state`.
    pub(crate) key: String,
    pub(crate) event_name: String,
    /// The command, `${PLUGIN_ROOT}` expanded.
    pub(crate) command: String,
    /// `sha256:<handler>/sha256:<plugin content>` for a plugin's hook.
    pub(crate) current_hash: String,
    /// `trusted`, `untrusted` or `modified` (changed since it was trusted).
    pub(crate) trust_status: String,
}

/// The hooks of `plugin` that Codex lists for a session in `cwd`, with
/// their trust: what `rule-fairy codex trust` records and `rule-fairy
/// doctor` reports, asked of Codex the one same way.
pub(crate) fn plugin_hooks(
    server: &mut AppServer,
    cwd: &Path,
    plugin: &str,
) -> Result<Vec<ListedHook>, String> {
    let result = server.call("hooks/list", json!({"cwds": [cwd]}))?;
    let hooks = result["data"][0]["hooks"]
        .as_array()
        .ok_or("codex app-server's hooks/list answer has no hooks list")?;
    let text = |hook: &Value, field: &str, absent: &str| {
        hook[field].as_str().unwrap_or(absent).to_string()
    };
    hooks
        .iter()
        .filter(|hook| belongs_to(hook, plugin))
        .map(|hook| {
            let key = hook["key"].as_str().ok_or("a hook without a key")?;
            Ok(ListedHook {
                key: key.to_string(),
                event_name: text(hook, "eventName", "?"),
                command: text(hook, "command", "?"),
                current_hash: text(hook, "currentHash", ""),
                trust_status: text(hook, "trustStatus", "unknown"),
            })
        })
        .collect()
}

/// Whether a listed hook comes from `plugin` (`name` or `name@marketplace`).
fn belongs_to(hook: &Value, plugin: &str) -> bool {
    let Some(id) = hook["pluginId"].as_str() else {
        return false;
    };
    id == plugin || id.split('@').next() == Some(plugin)
}

/// A plugin hook's hash is `sha256:<handler>/sha256:<plugin content>`;
/// the two halves are trusted separately.
fn split_hash(current: &str) -> Option<(&str, &str)> {
    let (handler, content) = current.split_once('/')?;
    (handler.starts_with("sha256:") && content.starts_with("sha256:")).then_some((handler, content))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_split_into_handler_and_content() {
        assert_eq!(
            split_hash("sha256:aa/sha256:bb"),
            Some(("sha256:aa", "sha256:bb"))
        );
        assert_eq!(split_hash("sha256:aa"), None);
        assert_eq!(split_hash(""), None);
    }

    #[test]
    fn only_the_named_plugins_hooks() {
        let hook = |id: Value| json!({"pluginId": id});
        assert!(belongs_to(&hook(json!("rule-fairy@market")), "rule-fairy"));
        assert!(belongs_to(
            &hook(json!("rule-fairy@market")),
            "rule-fairy@market"
        ));
        assert!(!belongs_to(
            &hook(json!("rule-fairy@market")),
            "rule-fairy@other"
        ));
        assert!(!belongs_to(
            &hook(json!("rule-fairy-extra@m")),
            "rule-fairy"
        ));
        assert!(!belongs_to(&hook(Value::Null), "rule-fairy"));
    }
}
