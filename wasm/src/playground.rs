//! The browser playground's boundary: a case of files and one event with
//! its facts, answered by the engine's [`Case`]. Thin, like the rest of
//! this crate: each function takes plain strings or serde values and
//! converts errors to `JsError`.

use rule_fairy_engine::rule_files_in;
use rule_fairy_engine::Outcome;
use rule_fairy_engine::Reason;
use rule_fairy_engine::{describe, describe_condition};
use rule_fairy_engine::{Case, EventInput, FactInputs};
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&serializer)
        .map_err(|e| JsError::new(&e.to_string()))
}

fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("bad {what}: {e}")))
}

/// A playground case: the project's files, kept between keystrokes so that
/// a change to the event or the facts only matches.
#[wasm_bindgen]
pub struct Playground {
    case: Case,
}

impl Default for Playground {
    fn default() -> Self {
        Playground::new()
    }
}

#[wasm_bindgen]
impl Playground {
    /// A case with no files.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Playground {
        Playground { case: Case::new() }
    }

    /// Puts a file at a project-relative path (a rule, `rule-fairy.edn`, a
    /// document, a marker file, an edited file's content).
    #[wasm_bindgen(js_name = putFile)]
    pub fn put_file(&mut self, path: &str, content: &str) {
        self.case.put_file(path, content);
    }

    /// Removes the file at a project-relative path.
    #[wasm_bindgen(js_name = removeFile)]
    pub fn remove_file(&mut self, path: &str) {
        self.case.remove_file(path);
    }

    /// `{ rules, errors, warnings, findings: [{ severity, file, line,
    /// message, hint }] }`: what `rule-fairy check` reports on these files.
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn check(&mut self) -> Result<JsValue, JsError> {
        to_js(self.case.check())
    }

    /// The documents the rules import that the case does not hold yet.
    #[wasm_bindgen(js_name = missingDocuments)]
    pub fn missing_documents(&mut self) -> Vec<String> {
        self.case.missing_documents()
    }

    /// The names of the case's rules, in name order: the rules `whyNot`
    /// can be asked about.
    #[wasm_bindgen(js_name = ruleNames)]
    pub fn rule_names(&mut self) -> Vec<String> {
        self.case.rule_names()
    }

    /// Why the rule named `rule` does or does not fire for one event
    /// (`event` and `facts` as `answer` takes them): `{ whyNot, problem,
    /// loadError, lines }`, `lines` in the words `rule-fairy explain
    /// --why-not` prints.
    #[wasm_bindgen(js_name = whyNot, unchecked_return_type = "WhyNotAnswer")]
    pub fn why_not(
        &mut self,
        rule: &str,
        #[wasm_bindgen(unchecked_param_type = "EventInput")] event: JsValue,
        #[wasm_bindgen(unchecked_param_type = "FactInputs")] facts: JsValue,
    ) -> Result<JsValue, JsError> {
        let event: EventInput = from_js(event, "event")?;
        let facts: FactInputs = from_js(facts, "facts")?;
        to_js(&self.case.why_not(rule, &event, &facts))
    }

    /// Answers one event: `event` is `{ kind: "prompt", prompt }` or
    /// `{ kind: "edit", paths }`, `facts` is `{ command, os, ci, branch,
    /// model, agent, tools }`; the answer is `{ loadError, projectTags,
    /// rules, problems, codex, claude, limits }`.
    #[wasm_bindgen(unchecked_return_type = "Answer")]
    pub fn answer(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "EventInput")] event: JsValue,
        #[wasm_bindgen(unchecked_param_type = "FactInputs")] facts: JsValue,
    ) -> Result<JsValue, JsError> {
        let event: EventInput = from_js(event, "event")?;
        let facts: FactInputs = from_js(facts, "facts")?;
        to_js(&self.case.answer(&event, &facts))
    }
}

/// The paths of a picked folder's `listing` that hold rules under the
/// configuration text `config` (when the folder has `rule-fairy.edn`),
/// with `rule-fairy.edn` itself: the files to read first.
#[wasm_bindgen(js_name = ruleFilesIn)]
pub fn rule_files_in_listing(listing: Vec<String>, config: Option<String>) -> Vec<String> {
    rule_files_in(&listing, config.as_deref())
}

/// One of an answer's `rules[].reasons` in the words `rule-fairy explain`
/// prints: `glob \`src/**\` on src/x.ts`.
#[wasm_bindgen(js_name = describeReason)]
pub fn describe_reason(
    #[wasm_bindgen(unchecked_param_type = "Reason")] reason: JsValue,
) -> Result<String, JsError> {
    let reason: Reason = from_js(reason, "reason")?;
    Ok(describe(&reason))
}

/// One of an answer's `rules[].conditions` in the words `rule-fairy
/// explain` prints: `branch release/* ✓ (release/2.4)`.
#[wasm_bindgen(js_name = describeCondition)]
pub fn describe_condition_js(
    #[wasm_bindgen(unchecked_param_type = "Outcome")] outcome: JsValue,
) -> Result<String, JsError> {
    let outcome: Outcome = from_js(outcome, "condition")?;
    Ok(describe_condition(&outcome))
}
