// The case's files: a list to pick from and one editor for the picked
// file (its path and content). The panel holds no files of its own; it
// shows the case's and reports each change a person makes.

import { count, el } from "./dom.js";

/**
 * @typedef {object} FileChanges
 * @property {(path: string, content: string) => void} put a file's content changed
 * @property {(from: string, to: string) => void} rename
 * @property {(path: string) => void} remove
 */

export class FilesPanel {
  /**
   * @param {{ list: HTMLElement, empty: HTMLElement, editor: HTMLElement, lines: HTMLElement, path: HTMLInputElement, content: HTMLTextAreaElement, remove: HTMLElement }} dom
   * @param {FileChanges} changes
   */
  constructor(dom, changes) {
    this.dom = dom;
    /** @type {Record<string, string>} */
    this.files = {};
    /** @type {string | null} */
    this.selected = null;
    /** How many line numbers the gutter shows. */
    this.numbered = 0;
    dom.content.addEventListener("input", () => {
      this.numberLines();
      if (this.selected !== null) changes.put(this.selected, dom.content.value);
    });
    dom.content.addEventListener("scroll", () => {
      dom.lines.scrollTop = dom.content.scrollTop;
    });
    dom.path.addEventListener("change", () => {
      const to = dom.path.value.trim();
      const from = this.selected;
      if (from === null || to === "" || to === from) {
        dom.path.value = from ?? "";
        return;
      }
      this.selected = to;
      changes.rename(from, to);
    });
    dom.remove.addEventListener("click", () => {
      if (this.selected !== null) changes.remove(this.selected);
    });
  }

  /**
   * Shows `files`, keeping the picked file when it is still there.
   * @param {Record<string, string>} files
   * @param {string | null} [pick] the file to open instead
   */
  show(files, pick = null) {
    this.files = files;
    const paths = Object.keys(files).sort();
    if (pick !== null && pick in files) this.selected = pick;
    if (this.selected === null || !(this.selected in files)) this.selected = paths[0] ?? null;
    this.dom.empty.hidden = paths.length > 0;
    this.dom.list.hidden = paths.length === 0;
    this.dom.list.replaceChildren(
      ...paths.map((path) => {
        const button = el(
          "button",
          { type: "button", "data-path": path, "aria-current": path === this.selected },
          path,
          el("small", {}, ` ${count(files[path].length)} chars`),
        );
        button.addEventListener("click", () => this.open(path));
        return el("li", {}, button);
      }),
    );
    this.fillEditor();
  }

  /**
   * Opens a file in the editor, at a line when one is given.
   * @param {string} path
   * @param {number} [line]
   */
  open(path, line) {
    if (!(path in this.files)) return;
    this.selected = path;
    for (const button of this.dom.list.querySelectorAll("button")) {
      button.toggleAttribute("aria-current", button.dataset.path === path);
    }
    this.fillEditor();
    if (line) {
      const lines = this.files[path].split("\n");
      const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
      this.dom.content.focus();
      this.dom.content.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
    }
  }

  fillEditor() {
    const path = this.selected;
    this.dom.editor.hidden = path === null;
    this.dom.path.value = path ?? "";
    this.dom.content.value = path === null ? "" : this.files[path];
    this.numberLines();
  }

  /** The gutter's numbers, one a line of the content: rebuilt only when the
   * count changes, not at every keystroke. */
  numberLines() {
    const text = this.dom.content.value;
    let lines = 1;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines += 1;
    if (lines === this.numbered) return;
    this.numbered = lines;
    this.dom.lines.textContent = Array.from({ length: lines }, (_, i) => i + 1).join("\n");
    this.dom.lines.scrollTop = this.dom.content.scrollTop;
  }
}
