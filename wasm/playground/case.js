// A case as the page keeps it: the files, and the event and facts as typed.
// The engine takes the event and facts in its own shape; the conversions
// here only split what a person typed, they decide nothing.

/** @typedef {import("./engine/rule_fairy_wasm.js").EventInput} EventInput */
/** @typedef {import("./engine/rule_fairy_wasm.js").FactInputs} FactInputs */

/**
 * @typedef {object} FactsTyped
 * @property {string} model
 * @property {string} agent
 * @property {string} tools comma-separated
 * @property {string} command
 * @property {string} branch
 * @property {string} os "" when unknown
 * @property {string} ci "", "true" or "false"
 */

/**
 * @typedef {object} EventTyped
 * @property {"prompt" | "edit"} kind
 * @property {string} prompt
 * @property {string} paths one a line
 */

/**
 * @typedef {object} Case
 * @property {Record<string, string>} files project-relative path to content
 * @property {EventTyped} event
 * @property {FactsTyped} facts
 */

/** @returns {FactsTyped} */
export function noFacts() {
  return { model: "", agent: "", tools: "", command: "", branch: "", os: "", ci: "" };
}

/**
 * A case with every field present, from a link or an example that may
 * leave some out.
 * @param {Partial<Case>} value
 * @returns {Case}
 */
export function completeCase(value) {
  const event = { kind: "prompt", prompt: "", paths: "", ...value.event };
  if (event.kind !== "edit") event.kind = "prompt";
  return {
    files: { ...value.files },
    event: /** @type {EventTyped} */ (event),
    facts: { ...noFacts(), ...value.facts },
  };
}

/**
 * The event as the engine's `answer` takes it.
 * @param {EventTyped} event
 * @returns {EventInput}
 */
export function engineEvent(event) {
  return event.kind === "edit"
    ? { kind: "edit", paths: event.paths.split("\n") }
    : { kind: "prompt", prompt: event.prompt };
}

/**
 * The facts as the engine's `answer` takes them; blanks are unknown facts.
 * @param {FactsTyped} facts
 * @returns {FactInputs}
 */
export function engineFacts(facts) {
  return {
    model: facts.model,
    agent: facts.agent,
    tools: facts.tools.split(","),
    command: facts.command,
    branch: facts.branch,
    os: facts.os,
    ci: facts.ci === "" ? null : facts.ci === "true",
  };
}
