//! Rule Fairy's engine exported to WebAssembly hosts (the Claude Code mod
//! and the browser playground). A thin boundary: each function takes plain
//! strings, converts errors to `JsError`, and holds no logic of its own.

use std::collections::BTreeMap;

use rule_fairy_engine::explain::explain_prompt;
use rule_fairy_engine::fs::MemoryFs;
use rule_fairy_engine::project::Project;
use wasm_bindgen::prelude::*;

/// Where the in-memory project is mounted; rule paths in answers start here.
const ROOT: &str = "/project";

/// Which rules a prompt selects, and why.
///
/// `files` is a JSON object from project-relative paths to file contents
/// (rules, `rule-fairy.edn`, documents); the answer is the JSON that
/// `rule-fairy explain --prompt TEXT --json` prints.
#[wasm_bindgen(js_name = explainPrompt)]
pub fn explain_prompt_json(files: &str, prompt: &str) -> Result<String, JsError> {
    let files: BTreeMap<String, String> =
        serde_json::from_str(files).map_err(|e| JsError::new(&e.to_string()))?;
    let fs = MemoryFs::from_files(ROOT, &files);
    let project = Project::load(&fs, ROOT).map_err(|e| JsError::new(&e.to_string()))?;
    let explanation = explain_prompt(&project.index, prompt);
    serde_json::to_string(&explanation).map_err(|e| JsError::new(&e.to_string()))
}
