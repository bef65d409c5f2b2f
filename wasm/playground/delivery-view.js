// The exact deliveries: Claude Code's frames (each against the frame limit,
// their number against the frames one delivery may use) and error entries,
// and Codex's one text. Sizes are the engine's, in UTF-16 code units, the
// unit both hosts count.

import { count, el, placeText } from "./dom.js";

/** @typedef {import("./engine/rule_fairy_wasm.js").Answer} Answer */

/** @param {import("./engine/rule_fairy_wasm.js").Error} error */
function errorLine(error) {
  const place = placeText(error.place);
  return el("p", { class: "error" }, `Not delivered: ${place ? `${place}: ` : ""}${error.message}`);
}

const NOTHING = "Nothing to deliver: no rule fires.";

/**
 * @param {string} title
 * @param {number} chars
 * @param {number | null} limit
 * @param {string} text
 */
function block(title, chars, limit, text) {
  const over = limit !== null && chars > limit;
  return el(
    "figure",
    { class: over ? "delivery over" : "delivery" },
    el(
      "figcaption",
      {},
      `${title}: ${count(chars)}${limit === null ? "" : ` / ${count(limit)}`} characters `,
      limit !== null && el("meter", { min: 0, max: limit, value: chars, high: limit * 0.9 }),
    ),
    // Focusable: a scrolled region must be reachable by keyboard.
    el("pre", { tabindex: 0 }, text),
  );
}

/**
 * @param {Answer} answer the engine's answer
 * @param {{ claude: HTMLElement, codex: HTMLElement }} at
 */
export function showDelivery(answer, at) {
  const { frameChars, framesPerDelivery } = answer.limits;
  const claude = answer.claude;
  if (!claude) {
    at.claude.replaceChildren(el("p", { class: "none" }, NOTHING));
  } else if ("error" in claude) {
    at.claude.replaceChildren(errorLine(claude.error));
  } else {
    const { frames, errorEntries, delivered, deferred } = claude.ok;
    at.claude.replaceChildren(
      el(
        "p",
        { class: "summary" },
        `${count(frames.length)} of at most ${framesPerDelivery} frames; delivers ${delivered.join(", ") || "nothing"}`,
        deferred.length > 0 ? `; defers ${deferred.join(", ")} to the next event` : "",
      ),
      ...frames.map((f, i) =>
        block(`Frame ${i + 1}/${frames.length}`, f.chars, frameChars, f.text),
      ),
      ...errorEntries.map((e) => block("Error entry", e.chars, frameChars, e.text)),
    );
  }
  const codex = answer.codex;
  if (!codex) {
    at.codex.replaceChildren(el("p", { class: "none" }, NOTHING));
  } else if ("error" in codex) {
    at.codex.replaceChildren(errorLine(codex.error));
  } else {
    // The plugin's hooks set additionalContextLimit 0, so Codex passes the
    // text whole instead of its 2,500-token preview: there is no limit to show.
    at.codex.replaceChildren(
      block("additionalContext, carried whole", codex.ok.chars, null, codex.ok.text),
    );
  }
}
