// The playground page: loads the engine, restores the case from the link
// (or opens the first example), and answers again on every change. The
// engine decides everything; this module only carries inputs to it and
// its answers to the views.

import init, { Playground, ruleFilesIn } from "./engine/rule_fairy_wasm.js";
import { caseFromFragment } from "./case-link.js";
import { completeCase, engineEvent, engineFacts } from "./case.js";
import { el } from "./dom.js";
import { EventForm } from "./event-form.js";
import { EXAMPLES } from "./examples.js";
import { dropped, pickedFolder, placeLoose, readFolder } from "./file-import.js";
import { FilesPanel } from "./files-panel.js";
import { LinkKeeper } from "./link-keeper.js";
import { showCheck } from "./check-view.js";
import { showDelivery } from "./delivery-view.js";
import { showRules } from "./rules-view.js";
import { WhyNotView } from "./why-not-view.js";

/** @typedef {import("./case.js").Case} Case */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// The link's case decompresses while the engine compiles. The empty catch
// only keeps a damaged link from counting as unhandled before restore()
// reports it.
const linked = caseFromFragment(location.hash);
linked.catch(() => {});
await init();
performance.mark("engine-loaded");

let engine = new Playground();
/** @type {Record<string, string>} */
let files = {};
const link = new LinkKeeper(currentCase, $("link-status"));

const form = new EventForm(document, () => update("update"));
const whyNot = new WhyNotView(
  {
    rule: /** @type {HTMLSelectElement} */ ($("why-not-rule")),
    answer: $("why-not"),
    test: $("as-test"),
    testText: $("as-test-text"),
    copy: $("copy-test"),
    download: /** @type {HTMLAnchorElement} */ ($("download-test")),
  },
  () => update("update"),
);
const panel = new FilesPanel(
  {
    list: $("file-list"),
    empty: $("files-empty"),
    editor: $("editor"),
    lines: $("file-lines"),
    path: /** @type {HTMLInputElement} */ ($("file-path")),
    content: /** @type {HTMLTextAreaElement} */ ($("file-content")),
    remove: $("remove-file"),
  },
  {
    put: (path, content) => putFiles({ [path]: content }, false),
    rename: (from, to) => {
      const content = files[from];
      delete files[from];
      engine.removeFile(from);
      putFiles({ [to]: content }, true, to);
    },
    remove: (path) => removeFile(path),
  },
);

/** @param {Case} value */
function loadCase(value) {
  engine.free();
  engine = new Playground();
  files = {};
  form.show(value.event, value.facts);
  putFiles(value.files, true);
}

/**
 * @param {Record<string, string>} added
 * @param {boolean} listChanged whether the file list must be shown again
 * @param {string | null} [pick] the file to open
 */
function putFiles(added, listChanged, pick = null) {
  for (const [path, content] of Object.entries(added)) {
    files[path] = content;
    engine.putFile(path, content);
  }
  if (listChanged) panel.show(files, pick);
  update("files");
}

/** @param {string} path */
function removeFile(path) {
  delete files[path];
  engine.removeFile(path);
  panel.show(files);
  update("files");
}

/** @param {string} path @param {number | undefined} line */
const openFinding = (path, line) => panel.open(path, line);

/**
 * Answers the case again and shows it. Measured, so that the figures the
 * page shows are the ones its test reports: `update` after a keystroke in
 * the event or the facts, `files` after a change to the files (which also
 * loads the project again, and lints it in a task of its own: `check`).
 * @param {"update" | "files"} what
 */
function update(what) {
  if (what === "files") scheduleCheck();
  const start = performance.now();
  try {
    const { event, facts } = form.read();
    if (what === "files") whyNot.names(engine.ruleNames());
    const answer = engine.answer(engineEvent(event), engineFacts(facts));
    showRules(answer, {
      rules: $("rules"),
      problems: $("problems"),
      loadError: $("load-error"),
      tags: $("project-tags"),
    });
    showDelivery(answer, { claude: $("claude"), codex: $("codex") });
    whyNot.show(engine, engineEvent(event), engineFacts(facts));
  } catch (error) {
    showCaseError(`The engine could not answer: ${/** @type {Error} */ (error).message}`);
  }
  const took = performance.measure(what, { start }).duration;
  $("timing").textContent = `Answered in ${took.toFixed(1)} ms.`;
  link.schedule();
}

let checkPending = false;
function scheduleCheck() {
  if (checkPending) return;
  checkPending = true;
  // The lint reads every rule and document again and takes longer than the
  // answer; the answer a person waits for goes first, the findings follow
  // in the next task, once for a burst of keystrokes.
  setTimeout(() => {
    checkPending = false;
    const start = performance.now();
    try {
      showCheck(
        engine.check(),
        { summary: $("check-summary"), findings: $("check-findings") },
        openFinding,
      );
    } catch (error) {
      showCaseError(
        `The engine could not check the files: ${/** @type {Error} */ (error).message}`,
      );
    }
    performance.measure("check", { start });
  });
}

/** @returns {Case} */
function currentCase() {
  return { files, ...form.read() };
}

/** @param {string} message */
function showCaseError(message) {
  $("case-error").hidden = false;
  $("case-error").textContent = message;
}

/**
 * Restores the case a link holds; the first example when it holds none.
 * @param {Promise<import("./case.js").Case | null>} [pending] the link's case, being decoded
 */
async function restore(pending = caseFromFragment(location.hash)) {
  $("case-error").hidden = true;
  try {
    const value = await pending;
    loadCase(completeCase(value ?? EXAMPLES[0].value));
  } catch (error) {
    showCaseError(/** @type {Error} */ (error).message);
    loadCase(completeCase({}));
  }
}

for (const example of EXAMPLES) {
  const button = el("button", { type: "button" }, example.title);
  button.addEventListener("click", () => loadCase(completeCase(structuredClone(example.value))));
  $("examples").append(button);
}

window.addEventListener("hashchange", () => {
  if (link.foreign()) restore();
});

$("copy-link").addEventListener("click", async () => {
  await navigator.clipboard.writeText(location.href);
  $("link-status").textContent = "Link copied.";
});

/** @param {string} content */
function newFile(content) {
  let path = ".cursor/rules/new-rule.mdc";
  for (let n = 2; path in files; n++) path = `.cursor/rules/new-rule-${n}.mdc`;
  putFiles({ [path]: content }, true, path);
  $("file-path").focus();
}

$("new-file").addEventListener("click", () =>
  newFile("---\ndescription: \npromptAnyOf: \nglobs: \n---\n# New rule\n"),
);

// A paste outside the text fields: files from the clipboard join the case,
// and text becomes a new rule file whose path can then be changed.
document.addEventListener("paste", async (event) => {
  const target = event.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
  if (typing || !event.clipboardData || $("workspace").hasAttribute("disabled")) return;
  event.preventDefault();
  const pasted = [...event.clipboardData.files];
  if (pasted.length > 0) await takeLoose(pasted);
  else if (event.clipboardData.getData("text/plain"))
    newFile(event.clipboardData.getData("text/plain"));
});

$("clear-files").addEventListener("click", () => loadCase({ ...currentCase(), files: {} }));

/** @param {import("./file-import.js").FolderEntry[]} entries */
async function takeFolder(entries) {
  const read = await readFolder(entries, { ruleFilesIn, Playground });
  // A folder is a project: it replaces the files, keeping the event and facts.
  loadCase({ ...currentCase(), files: read });
}

/** @param {File[]} loose */
async function takeLoose(loose) {
  const texts = await Promise.all(
    loose.map(async (f) => /** @type {[string, string]} */ ([f.name, await f.text()])),
  );
  const isRule = (/** @type {string} */ name) => name.endsWith(".mdc") || name === "rule-fairy.edn";
  // Rules first, so that documents can be placed where they import them.
  const rules = Object.fromEntries(
    texts.filter(([n]) => isRule(n)).map(([n, t]) => [placeLoose(n, []), t]),
  );
  for (const [path, content] of Object.entries(rules)) engine.putFile(path, content);
  const missing = engine.missingDocuments();
  const others = Object.fromEntries(
    texts.filter(([n]) => !isRule(n)).map(([n, t]) => [placeLoose(n, missing), t]),
  );
  const added = { ...rules, ...others };
  putFiles(added, true, Object.keys(added)[0] ?? null);
}

const folderInput = /** @type {HTMLInputElement} */ ($("folder-input"));
folderInput.addEventListener("change", async () => {
  if (folderInput.files) await takeFolder(pickedFolder(folderInput.files));
  folderInput.value = "";
});
const filesInput = /** @type {HTMLInputElement} */ ($("files-input"));
filesInput.addEventListener("change", async () => {
  if (filesInput.files) await takeLoose([...filesInput.files]);
  filesInput.value = "";
});
// Buttons, not labels around the inputs: a label is not reachable by Tab.
$("pick-folder").addEventListener("click", () => folderInput.click());
$("add-files").addEventListener("click", () => filesInput.click());
const filesPanel = $("files-panel");
filesPanel.addEventListener("dragover", (event) => {
  event.preventDefault();
  filesPanel.classList.add("dropping");
});
filesPanel.addEventListener("dragleave", () => filesPanel.classList.remove("dropping"));
filesPanel.addEventListener("drop", async (event) => {
  event.preventDefault();
  filesPanel.classList.remove("dropping");
  if (!event.dataTransfer) return;
  const { folder, loose } = await dropped(event.dataTransfer);
  if (folder) await takeFolder(folder);
  else await takeLoose(loose);
});

await restore(linked);
/** @type {HTMLFieldSetElement} */ ($("workspace")).disabled = false;
// The moment a person can type and see an answer: the test reads this mark.
performance.mark("interactive");
document.body.dataset.ready = "true";
