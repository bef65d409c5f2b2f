// The event and facts as a person types them: a prompt or edited paths,
// and the facts rule conditions are tested on. Reports every change.

/** @typedef {import("./case.js").EventTyped} EventTyped */
/** @typedef {import("./case.js").FactsTyped} FactsTyped */

/** @type {(keyof FactsTyped)[]} */
const FACTS = ["model", "agent", "tools", "command", "branch", "os", "ci"];

export class EventForm {
  /**
   * @param {Document} doc
   * @param {() => void} changed
   */
  constructor(doc, changed) {
    this.kinds = /** @type {HTMLInputElement[]} */ ([
      ...doc.querySelectorAll('input[name="kind"]'),
    ]);
    this.prompt = /** @type {HTMLTextAreaElement} */ (doc.getElementById("prompt"));
    this.paths = /** @type {HTMLTextAreaElement} */ (doc.getElementById("paths"));
    this.pathsNote = /** @type {HTMLElement} */ (doc.getElementById("paths-note"));
    /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */
    this.facts = Object.fromEntries(
      FACTS.map((name) => [
        name,
        /** @type {HTMLInputElement} */ (doc.getElementById(`fact-${name}`)),
      ]),
    );
    for (const kind of this.kinds) {
      kind.addEventListener("change", () => {
        this.showKind();
        changed();
      });
    }
    for (const input of [this.prompt, this.paths, ...Object.values(this.facts)]) {
      input.addEventListener("input", changed);
    }
  }

  /**
   * @param {EventTyped} event
   * @param {FactsTyped} facts
   */
  show(event, facts) {
    for (const kind of this.kinds) kind.checked = kind.value === event.kind;
    this.prompt.value = event.prompt;
    this.paths.value = event.paths;
    for (const name of FACTS) this.facts[name].value = facts[name];
    this.showKind();
  }

  /** @returns {{ event: EventTyped, facts: FactsTyped }} */
  read() {
    const kind = this.kinds.find((k) => k.checked)?.value === "edit" ? "edit" : "prompt";
    const facts = /** @type {FactsTyped} */ (
      Object.fromEntries(FACTS.map((name) => [name, this.facts[name].value]))
    );
    return { event: { kind, prompt: this.prompt.value, paths: this.paths.value }, facts };
  }

  showKind() {
    const edit = this.kinds.find((k) => k.checked)?.value === "edit";
    this.prompt.hidden = edit;
    this.paths.hidden = !edit;
    this.pathsNote.hidden = !edit;
  }
}
