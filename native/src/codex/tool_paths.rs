//! The paths an edit tool names in its input (behaviour §5.3, post-edit):
//! `file_path` and `path` (edit tools, MCP edit tools), and every file an
//! apply_patch text adds, updates, deletes or moves to. Codex hands the
//! patch over as `tool_input.command`; `patch` and `input` are read too,
//! for tools that name it so.

use std::collections::HashSet;

use rule_fairy_engine::patch::apply_patch_paths;
use serde_json::Value;

/// The paths as written, in the order the input names them, each once. A
/// move names its source and its destination, so the rules of both apply.
pub(super) fn edited_paths(tool_input: &Value) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    // A set beside the list: a patch may name many thousands of files.
    let mut seen: HashSet<String> = HashSet::new();
    let mut add = |path: &str| {
        let path = path.trim();
        if !path.is_empty() && seen.insert(path.to_string()) {
            found.push(path.to_string());
        }
    };
    for key in ["file_path", "path"] {
        if let Some(path) = tool_input.get(key).and_then(Value::as_str) {
            add(path);
        }
    }
    for key in ["command", "patch", "input"] {
        if let Some(patch) = tool_input.get(key).and_then(Value::as_str) {
            for path in apply_patch_paths(patch) {
                add(&path);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn apply_patch_headers_in_order_each_once() {
        let input = json!({"command": "*** Begin Patch\r\n*** Add File: src/c.txt\n+created\n*** Update File: old/a.clj\n*** Move to: new/a.clj\n@@\n-x\n+y\n*** Delete File:  gone.txt \n*** Update File: src/c.txt\n*** Add File: \n*** End Patch\n"});
        assert_eq!(
            edited_paths(&input),
            vec!["src/c.txt", "old/a.clj", "new/a.clj", "gone.txt"]
        );
    }

    #[test]
    fn edit_tool_fields_and_a_patch_field() {
        assert_eq!(
            edited_paths(&json!({"file_path": "/abs/a.ts", "content": "*** Add File: no"})),
            vec!["/abs/a.ts"]
        );
        assert_eq!(
            edited_paths(&json!({"path": "b.ts", "patch": "*** Update File: c.ts\n"})),
            vec!["b.ts", "c.ts"]
        );
        assert!(edited_paths(&json!({"command": "echo hi > b.txt"})).is_empty());
        assert!(edited_paths(&json!({"file_path": 3})).is_empty());
        assert!(edited_paths(&json!("text")).is_empty());
    }
}
