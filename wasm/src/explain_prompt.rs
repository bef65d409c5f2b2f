//! `explainPrompt`, in the playground build: the JSON `rule-fairy explain
//! --prompt TEXT --json` prints, for a project given as a JSON object.

use std::collections::BTreeMap;

use rule_fairy_engine::explain;
use rule_fairy_engine::Facts;
use rule_fairy_engine::MemoryFs;
use rule_fairy_engine::Project;
use rule_fairy_engine::{Event, Query};
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
    let event = Event::prompt(prompt);
    let explanation = explain(&project.index, &Query::new(&event, &Facts::default()));
    serde_json::to_string(&explanation).map_err(|e| JsError::new(&e.to_string()))
}
