// Why one rule does or does not fire for the event: a rule picked from the
// case's rules, and the engine's answer in the words `rule-fairy explain
// --why-not` prints, one condition a line; and the event as a test of the
// rule for `rule-fairy test`, to copy or download.

import { el } from "./dom.js";

/** @typedef {import("./engine/rule_fairy_wasm.js").Playground} Playground */
/** @typedef {import("./engine/rule_fairy_wasm.js").EventInput} EventInput */
/** @typedef {import("./engine/rule_fairy_wasm.js").FactInputs} FactInputs */

export class WhyNotView {
  /**
   * @param {{ rule: HTMLSelectElement, answer: HTMLElement, test: HTMLElement, testText: HTMLElement, copy: HTMLElement, download: HTMLAnchorElement }} at
   * @param {() => void} changed called when another rule is picked
   */
  constructor(at, changed) {
    this.rule = at.rule;
    this.answer = at.answer;
    this.at = at;
    at.copy.addEventListener("click", () =>
      navigator.clipboard?.writeText(at.testText.textContent ?? ""),
    );
    /** @type {string | undefined} the names the options were last made of, one a line */
    this.known = undefined;
    this.rule.addEventListener("change", changed);
  }

  /**
   * The case's rules to pick from; the rule picked stays picked while the
   * case holds it.
   * @param {string[]} names
   */
  names(names) {
    // Most edits of a file change no rule's name: the options stay, since
    // building 200 of them again is most of what a keystroke would cost.
    const known = names.join("\n");
    if (known === this.known) return;
    this.known = known;
    const picked = this.rule.value;
    this.rule.replaceChildren(
      el("option", { value: "" }, "pick a rule…"),
      ...names.map((name) => el("option", { value: name }, name)),
    );
    this.rule.value = names.includes(picked) ? picked : "";
  }

  /**
   * @param {Playground} engine
   * @param {EventInput} event
   * @param {FactInputs} facts
   */
  show(engine, event, facts) {
    const rule = this.rule.value;
    this.answer.hidden = rule === "";
    this.at.test.hidden = true;
    if (rule === "") return;
    const answer = engine.whyNot(rule, event, facts);
    this.answer.dataset.fires = String(answer.whyNot?.fires ?? false);
    this.answer.textContent = answer.lines.join("\n");
    const test = answer.test;
    if (test === undefined || test === null) return;
    this.at.test.hidden = false;
    this.at.testText.textContent = test;
    const stem = rule.replace(/\.[^./]*$/, "").replaceAll("/", "-");
    this.at.download.download = `${stem}.yml`;
    this.at.download.href = `data:text/yaml;charset=utf-8,${encodeURIComponent(test)}`;
  }
}
