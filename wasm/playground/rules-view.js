// Which rules fire and why, as the engine answered: each rule's reasons
// (alwaysApply, the keywords, the glob and the path it matched, the
// fileContains pattern), every other condition it declares with the fact
// it was tested on, and the problems the event ran into.

import { el, placeText } from "./dom.js";

/** @param {any} reason */
function reasonText(reason) {
  switch (reason.kind) {
    case "alwaysApply":
      return "alwaysApply";
    case "keyword":
      return `keyword ${reason.keywords.map((/** @type {string} */ k) => `"${k}"`).join(", ")}`;
    case "glob":
      return `glob ${reason.glob} on ${reason.path}`;
    case "fileContains":
      return `fileContains ${reason.pattern} in ${reason.path}`;
    default:
      return JSON.stringify(reason);
  }
}

/** @param {any} outcome */
function conditionItem(outcome) {
  const actual = outcome.actual?.length ? outcome.actual.join(", ") : "unknown";
  return el(
    "li",
    { class: outcome.held ? "held" : "failed" },
    `${outcome.kind} ${outcome.wanted.join(", ")} ${outcome.held ? "✓" : "✗"} (${actual})`,
  );
}

/** @param {any} rule */
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
    el(
      "ul",
      { class: "reasons" },
      ...rule.reasons.map((/** @type {any} */ r) => el("li", {}, reasonText(r))),
    ),
    conditions.length > 0 && el("ul", { class: "conditions" }, ...conditions.map(conditionItem)),
  );
}

/**
 * @param {any} answer the engine's answer
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
    ...answer.problems.map((/** @type {any} */ p) =>
      el("li", { class: "error" }, `${placeText(p.place)}: ${p.message}`),
    ),
  );
}
