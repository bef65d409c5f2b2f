//! `rule-fairy explain --render`: the delivery itself, exactly as a host
//! would carry it.

use rule_fairy_engine::{ClaudePreview, Preview};

use super::explain::located;
use crate::RenderHost;

/// The delivery text for `host`, or the error that stopped it. `None` when
/// no rule fired, so nothing would be delivered.
pub(crate) fn render(
    root: &str,
    preview: &Preview,
    host: RenderHost,
) -> Option<Result<String, String>> {
    let error = |e: &rule_fairy_engine::Error| located(root, e);
    match host {
        RenderHost::Codex => {
            let text = preview.codex.as_ref()?;
            Some(text.as_ref().map(|t| format!("{t}\n")).map_err(error))
        }
        RenderHost::Claude => {
            let delivery = preview.claude.as_ref()?;
            Some(delivery.as_ref().map(frames).map_err(error))
        }
    }
}

/// Each frame after `=== frame i/n ===`, then each error entry.
fn frames(delivery: &ClaudePreview) -> String {
    let mut out = String::new();
    for (i, entry) in delivery.entries.iter().enumerate() {
        if i < delivery.frames {
            out.push_str(&format!(
                "=== frame {}/{} ===\n{entry}\n",
                i + 1,
                delivery.frames
            ));
        } else {
            out.push_str(&format!("=== error entry ===\n{entry}\n"));
        }
    }
    out
}
