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

use std::path::PathBuf;
use std::process::ExitCode;

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
    let mut server = AppServer::start(&args.codex)?;
    let list = |server: &mut AppServer| -> Result<Vec<Value>, String> {
        let result = server.call("hooks/list", json!({"cwds": [cwd]}))?;
        let hooks = result["data"][0]["hooks"]
            .as_array()
            .ok_or("codex app-server's hooks/list answer has no hooks list")?;
        Ok(hooks
            .iter()
            .filter(|hook| belongs_to(hook, &args.plugin))
            .cloned()
            .collect())
    };
    let ours = list(&mut server)?;
    if ours.is_empty() {
        return Err(format!(
            "Codex lists no hooks of the plugin `{}`; install it first (codex plugin marketplace add ..., then codex plugin add rule-fairy@<marketplace>)",
            args.plugin
        ));
    }
    let mut state = Map::new();
    for hook in &ours {
        let key = hook["key"].as_str().ok_or("a hook without a key")?;
        let (handler, content) = split_hash(hook["currentHash"].as_str().unwrap_or(""))
            .ok_or_else(|| format!("hook {key} has no plugin hash pair to trust"))?;
        state.insert(
            key.to_string(),
            json!({"trusted_hash": handler, "trusted_content_hash": content}),
        );
    }
    server.call(
        "config/batchWrite",
        json!({"edits": [{"keyPath": "hooks.state", "value": state, "mergeStrategy": "upsert"}]}),
    )?;
    let after = list(&mut server)?;
    let mut lines = Vec::new();
    for hook in &after {
        let status = hook["trustStatus"].as_str().unwrap_or("unknown");
        if status != "trusted" {
            return Err(format!(
                "hook {} is still {status} after trusting it",
                hook["key"]
            ));
        }
        lines.push(format!(
            "trusted: {} {}",
            hook["eventName"].as_str().unwrap_or("?"),
            hook["command"].as_str().unwrap_or("?")
        ));
    }
    Ok(lines)
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
