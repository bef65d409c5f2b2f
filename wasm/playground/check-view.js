// What `check` finds, with file and line, as `rule-fairy check` prints it.
// A finding names its file; clicking it opens that file in the editor.

import { count, el, placeText } from "./dom.js";

/**
 * @param {import("./engine/rule_fairy_wasm.js").Report} report the engine's check report
 * @param {{ summary: HTMLElement, findings: HTMLElement }} at
 * @param {(file: string, line: number | undefined) => void} open
 */
export function showCheck(report, at, open) {
  const plural = (/** @type {number} */ n, /** @type {string} */ word) =>
    `${count(n)} ${word}${n === 1 ? "" : "s"}`;
  at.summary.textContent = `Checked ${plural(report.rules, "rule")}: ${plural(report.errors, "error")}, ${plural(report.warnings, "warning")}.`;
  at.findings.replaceChildren(
    ...report.findings.map((f) => {
      // A finding of the whole case (no file) is text, not an empty link.
      const link = f.file ? el("a", { href: "#", "data-file": f.file }, placeText(f)) : null;
      link?.addEventListener("click", (event) => {
        event.preventDefault();
        open(f.file, f.line);
      });
      return el(
        "li",
        { class: f.severity },
        link,
        `${link ? ": " : ""}${f.severity}: ${f.message}`,
        f.hint && el("div", { class: "hint" }, `fix: ${f.hint}`),
      );
    }),
  );
}
