// Which rules fire and why, as the engine answered: each rule's reasons
// (alwaysApply, the keywords, the glob and the path it matched, the
// fileContains pattern), every other condition it declares with the fact
// it was tested on, and the problems the event ran into. The words are the
// engine's, the same `rule-fairy explain` prints.

import { el, placeText } from "./dom.js";
import { describeCondition, describeReason } from "./engine/rule_fairy_wasm.js";

/** @typedef {import("./engine/rule_fairy_wasm.js").Answer} Answer */

/** @param {import("./engine/rule_fairy_wasm.js").Outcome} outcome */
function conditionItem(outcome) {
  return el("li", { class: outcome.held ? "held" : "failed" }, describeCondition(outcome));
}

/** @param {import("./engine/rule_fairy_wasm.js").FiredRule} rule */
function ruleItem(rule) {
  const conditions = rule.conditions ?? [];
  return el(
    "li",
    { "data-rule": rule.name },
    el("span", { class: "rule-name" }, rule.name),
    rule.delivery === "ephemeral" &&
      el(
        "span",
        { class: "tag", title: "delivered every turn it holds, never recorded" },
        "ephemeral",
      ),
    el("ul", { class: "reasons" }, ...rule.reasons.map((r) => el("li", {}, describeReason(r)))),
    conditions.length > 0 && el("ul", { class: "conditions" }, ...conditions.map(conditionItem)),
  );
}

/**
 * @param {Answer} answer the engine's answer
 * @param {{ rules: HTMLElement, problems: HTMLElement, loadError: HTMLElement, tags: HTMLElement }} at
 */
export function showRules(answer, at) {
  at.loadError.hidden = !answer.loadError;
  at.loadError.textContent = answer.loadError
    ? `No rule can fire: ${placeText(answer.loadError.place)}: ${answer.loadError.message}`
    : "";
  at.tags.textContent = answer.projectTags.length ? answer.projectTags.join(", ") : "no tags";
  const empty = !answer.loadError && answer.rules.length === 0;
  at.rules.replaceChildren(
    ...answer.rules.map(ruleItem),
    ...(empty ? [el("li", { class: "none" }, "No rule fires for this event.")] : []),
  );
  at.problems.replaceChildren(
    ...answer.problems.map((p) =>
      el("li", { class: "error" }, `${placeText(p.place)}: ${p.message}`),
    ),
  );
}
