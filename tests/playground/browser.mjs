// The browser playground in real Chromium, served by scripts/playground on
// 127.0.0.1: two rules and a document added the three ways a person adds
// them (a new file typed in, a file added, a file dropped), a prompt typed,
// the rules and both deliveries asserted (against the native
// `rule-fairy explain --render` of the same project, so the page and the
// command line are seen to be one engine); the shared link opened in a
// fresh page and asserted the same; a paste, an edit event, and typed facts
// reaching the conditions, with why a rule does not fire (against the
// native `rule-fairy explain --why-not`); then a 200-rule project picked as a folder to
// measure load-to-interactive and per-keystroke updates in the page.
// Screenshots go to the output folder.
//
// Usage: node tests/playground/browser.mjs <directory holding the rule-fairy binary> <output folder>

import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { fileRules, manyRules } from "./projects.mjs";

const require = createRequire(import.meta.url);
/** axe-core, pinned in package-lock.json: the accessibility audit. */
const AXE = require.resolve("axe-core/axe.min.js");

const started = performance.now();
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const binDir = path.resolve(process.argv[2] ?? path.join(repo, "target/debug"));
const outDir = path.resolve(process.argv[3] ?? path.join(repo, "target/playground"));
fs.mkdirSync(outDir, { recursive: true });

// The playground's speed targets, measured in the page and reported with
// the figures (not checked: see below).
const INTERACTIVE_MS = 500;
const KEYSTROKE_MS = 16;

let failures = 0;
function check(condition, what, detail = "") {
  if (condition) {
    console.log(`  ok: ${what}`);
  } else {
    failures += 1;
    console.log(`  FAILED: ${what}${detail ? `\n    ${detail}` : ""}`);
  }
}

function equal(actual, expected, what) {
  const same = JSON.stringify(actual) === JSON.stringify(expected);
  check(
    same,
    what,
    same ? "" : `expected ${JSON.stringify(expected)}\n    got      ${JSON.stringify(actual)}`,
  );
}

/** The launcher a person runs, on a free port; resolves to its address. */
function serve() {
  const server = spawn(path.join(repo, "scripts/playground"), ["0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const address = out.match(/\(http:\/\/127\.0\.0\.1:(\d+)\/\)/);
      if (address) resolve({ server, url: `http://127.0.0.1:${address[1]}/` });
    });
    server.on("exit", (code) =>
      reject(new Error(`scripts/playground exited with ${code}: ${out}`)),
    );
  });
}

function writeProject(dir, files) {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
}

/** What the native command line renders for the same project and prompt. */
function nativeRender(project, prompt, host) {
  const binary = path.join(binDir, "rule-fairy");
  return execFileSync(
    binary,
    ["explain", "--project", project, "--prompt", prompt, `--render=${host}`],
    {
      encoding: "utf8",
    },
  );
}

/** What the native command line says of why one rule fires or not. */
function nativeWhyNot(project, args, rule) {
  const binary = path.join(binDir, "rule-fairy");
  return execFileSync(binary, ["explain", "--project", project, ...args, "--why-not", rule], {
    encoding: "utf8",
  }).replace(/\n$/, "");
}

/** Asks the page why `rule` fires or not, and reads its answer. */
async function whyNot(page, rule) {
  await page.selectOption("#why-not-rule", rule);
  return page.textContent("#why-not");
}

/** The serious and critical violations axe-core finds in the page now,
 * each as `rule: where` (WCAG 2 A and AA, and axe's best practices). */
async function accessibilityViolations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    // @ts-expect-error axe is the script just added
    const { violations } = await window.axe.run(document, { resultTypes: ["violations"] });
    return violations
      .filter(
        (/** @type {{ impact: string }} */ v) => v.impact === "serious" || v.impact === "critical",
      )
      .map(
        (/** @type {{ id: string, nodes: { target: string[] }[] }} */ v) =>
          `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
      );
  });
}

/** Everything the page shows of an answer. */
async function shown(page) {
  return page.evaluate(() => {
    const text = (/** @type {string} */ selector) =>
      [...document.querySelectorAll(selector)].map((e) => e.textContent ?? "");
    return {
      rules: text("#rules > li .rule-name"),
      reasons: text("#rules > li .reasons"),
      check: document.getElementById("check-summary")?.textContent,
      findings: text("#check-findings > li"),
      frames: text("#claude figure pre"),
      captions: text("#claude figcaption"),
      codex: text("#codex pre"),
      codexCaption: text("#codex figcaption"),
      files: text("#file-list button").map((t) => t.replace(/ [\d,]+ chars$/, "")),
      prompt: /** @type {HTMLTextAreaElement} */ (document.getElementById("prompt")).value,
    };
  });
}

async function ready(page) {
  await page.waitForSelector("body[data-ready]", { timeout: 15_000 });
  return page.evaluate(() => performance.getEntriesByName("interactive")[0].startTime);
}

/** Waits for the lint, which follows the answer in a task of its own. */
async function checked(page, summary) {
  await page.waitForFunction(
    (s) => document.getElementById("check-summary")?.textContent?.startsWith(s),
    summary,
  );
}

async function linkWritten(page) {
  await page.waitForFunction(() =>
    document.getElementById("link-status")?.textContent?.startsWith("Link up to date"),
  );
  return page.url();
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "rule-fairy-playground-"));
const { server, url } = await serve();
const browser = await chromium.launch({
  executablePath:
    process.env.CHROMIUM ??
    execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim(),
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const pageErrors = [];
/** A page in a context of its own: an empty cache, as a first visit has. */
async function visit(url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  context.on("weberror", (error) => pageErrors.push(error.error().message));
  context.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  const interactive = await ready(page);
  return { page, interactive, close: () => context.close() };
}

try {
  console.log("-- a case built by hand");
  // The browser's very first page also waits for its own processes to
  // start; that figure is printed apart from a visit to a running browser.
  const { page, interactive: coldBrowser } = await visit(url);
  check(
    (await shown(page)).rules.length > 0,
    "a first visit opens an example with rules that fire",
  );
  equal(
    await accessibilityViolations(page),
    [],
    "an example: no serious or critical axe-core violation",
  );
  const gutter = await page.evaluate(() => ({
    numbers: document.getElementById("file-lines")?.textContent?.split("\n").length,
    lines: /** @type {HTMLTextAreaElement} */ (document.getElementById("file-content")).value.split(
      "\n",
    ).length,
  }));
  check(
    gutter.numbers === gutter.lines && gutter.lines > 1,
    "the editor numbers every line, for the findings' lines",
    JSON.stringify(gutter),
  );
  await page.click("#clear-files");
  await checked(page, "Checked 0 rules");
  check(await page.isVisible("#files-empty"), "an empty case says what to do");
  equal(
    await accessibilityViolations(page),
    [],
    "empty: no serious or critical axe-core violation",
  );
  // Every control of the files panel is reached by Tab and works by key.
  await page.focus("#drop-zone");
  const reached = [];
  for (let i = 0; i < 4; i += 1) {
    await page.keyboard.press("Tab");
    reached.push(await page.evaluate(() => document.activeElement?.id ?? ""));
  }
  equal(
    reached,
    ["pick-folder", "add-files", "new-file", "clear-files"],
    "Tab reaches pick a folder, add files, new file, remove all",
  );
  // Enter activates the focused button, and the button opens the picker.
  await page.focus("#add-files");
  // The listener is in place before the key is pressed, and the wait
  // for it is bounded.
  await page.evaluate(() => {
    document.getElementById("add-files")?.addEventListener(
      "click",
      () => {
        document.body.dataset.addFilesClicked = "true";
      },
      { once: true },
    );
  });
  await page.keyboard.press("Enter");
  const activated = await page
    .waitForFunction(() => document.body.dataset.addFilesClicked === "true", null, {
      timeout: 5_000,
    })
    .then(
      () => true,
      () => false,
    );
  check(activated, "Enter on add files activates it");
  for (const [button, multiple] of [
    ["#add-files", true],
    ["#pick-folder", false],
  ]) {
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click(button)]);
    check(chooser.isMultiple() === multiple, `${button} opens its file picker`);
  }
  const emptied = await shown(page);
  equal(emptied.check, "Checked 0 rules: 0 errors, 1 warning.", "remove all leaves no rule");
  check(
    emptied.findings.some((f) => f.includes("no rule found: looked in .cursor/rules")),
    "an empty case says where rules were looked for",
  );

  const { rules, prompt } = fileRules;
  // 1: typed in as a new file.
  await page.click("#new-file");
  await page.fill("#file-path", ".cursor/rules/api/errors.mdc");
  await page.press("#file-path", "Enter");
  await page.fill("#file-content", rules[".cursor/rules/api/errors.mdc"]);
  // 2: added with the file picker, placed under .cursor/rules/ by its extension.
  await page.setInputFiles("#files-input", {
    name: "base.mdc",
    mimeType: "text/plain",
    buffer: Buffer.from(rules[".cursor/rules/base.mdc"]),
  });
  // 3: dropped, placed where the first rule imports a document of its name.
  const drop = await page.evaluateHandle((content) => {
    const data = new DataTransfer();
    data.items.add(new File([content], "errors.md", { type: "text/markdown" }));
    return data;
  }, rules["docs/errors.md"]);
  await page.dispatchEvent("#files-panel", "drop", { dataTransfer: drop });
  await page.waitForSelector('#file-list button[data-path="docs/errors.md"]');
  await page.fill("#prompt", "");
  await page.type("#prompt", prompt);
  await checked(page, "Checked 2 rules");

  const project = path.join(scratch, "project");
  writeProject(project, rules);
  const codex = nativeRender(project, prompt, "codex").replace(/\n$/, "");
  const claudeFrame = nativeRender(project, prompt, "claude")
    .replace(/^=== frame 1\/1 ===\n/, "")
    .replace(/\n$/, "");
  const built = await shown(page);
  equal(
    built.files,
    Object.keys(rules).sort(),
    "the three files are in the case, each at its path",
  );
  equal(
    built.rules,
    ["api/errors.mdc", "base.mdc"],
    "the keyword rule and the always-on rule fire, by name",
  );
  equal(built.reasons, ['keyword "endpoint"', "alwaysApply"], "each with its reason");
  equal(built.check, "Checked 2 rules: 0 errors, 0 warnings.", "check finds nothing wrong");
  check(
    built.codex[0] === codex,
    "the Codex text is the native explain --render's",
    built.codex[0],
  );
  check(
    built.codex[0].includes("## Required context: `docs/errors.md#status-codes` (api/errors.mdc)"),
    "the Codex text carries the dropped document's section",
  );
  check(
    built.frames.length === 1 && built.frames[0] === claudeFrame,
    "the Claude Code frame is the native explain --render=claude's",
    built.frames[0],
  );
  equal(
    built.captions,
    [`Frame 1/1: ${claudeFrame.length.toLocaleString("en-US")} / 100,000 characters `],
    "the frame's size is counted against the frame limit",
  );
  equal(
    built.codexCaption,
    [`additionalContext, carried whole: ${codex.length.toLocaleString("en-US")} characters `],
    "the Codex text's size is counted",
  );

  // A finding names its file and line; the case is broken on purpose, then mended.
  await page.click('#file-list button[data-path=".cursor/rules/base.mdc"]');
  await page.fill(
    "#file-content",
    rules[".cursor/rules/base.mdc"].replace("alwaysApply: true", 'alwaysApply: "true"'),
  );
  await checked(page, "Checked 2 rules: 1 error");
  const broken = await shown(page);
  check(
    broken.findings.some((f) =>
      f.startsWith('.cursor/rules/base.mdc:3: error: alwaysApply is "true" with quotes'),
    ),
    "check reports the quoted alwaysApply with file and line",
    broken.findings.join(" | "),
  );
  await page.fill("#file-content", rules[".cursor/rules/base.mdc"]);
  await page.screenshot({ path: path.join(outDir, "built.png"), fullPage: true });

  console.log("-- the shared link, opened in a fresh page");
  const link = await linkWritten(page);
  check(link.includes("#case="), "the case is in the URL fragment", link.slice(0, 80));
  const fresh = await visit(link);
  equal(
    await shown(fresh.page),
    await shown(page),
    "the link restores the files, the prompt, the rules and both deliveries",
  );
  await fresh.page.screenshot({ path: path.join(outDir, "shared.png"), fullPage: true });
  await fresh.close();

  const damaged = await visit(`${link.slice(0, link.length / 2)}`);
  const said = await damaged.page.textContent("#case-error");
  check(
    said?.startsWith("The link's case is damaged") &&
      (await shown(damaged.page)).files.length === 0,
    "a link cut short says so, and opens no case",
    said ?? "",
  );
  await damaged.close();

  console.log("-- a paste, an edit, and facts");
  await page.focus("#drop-zone");
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData("text/plain", "---\nalwaysApply: true\n---\n# Pasted\n");
    document
      .getElementById("drop-zone")
      ?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
  });
  await page.waitForSelector('#file-list button[data-path=".cursor/rules/new-rule.mdc"]');
  check(
    (await shown(page)).rules.includes("new-rule.mdc"),
    "pasted text becomes a rule file, and it fires",
  );
  await page.click("#remove-file");
  equal((await shown(page)).files, Object.keys(rules).sort(), "and Remove takes it out again");

  await page.check('input[name="kind"][value="edit"]');
  await page.fill("#paths", "src/api/orders.ts");
  const edit = await shown(page);
  equal(edit.rules, ["api/errors.mdc"], "editing a path fires the rule its glob matches");
  equal(edit.reasons, ["glob `src/api/**` on src/api/orders.ts"], "with the glob and the path");
  check(
    edit.codex[0]?.includes("[rule-fairy matched: glob on src/api/orders.ts]"),
    "the Codex text is the post-edit one",
  );
  const alwaysOn = await whyNot(page, "base.mdc");
  check(
    alwaysOn === nativeWhyNot(project, ["--path", "src/api/orders.ts"], "base.mdc"),
    "why the always-on rule does not fire for the edit is the native explain --why-not's",
    alwaysOn ?? "",
  );
  check(
    alwaysOn?.startsWith("base.mdc for editing src/api/orders.ts: does not fire\n") &&
      alwaysOn.includes(
        "\n  alwaysApply ✗ (tested at prompts, not at path events: behaviour §2.3)\n",
      ),
    "it says the rule does not fire, and which condition failed",
    alwaysOn ?? "",
  );
  // The event as a test: saved in the project, the native rule-fairy test
  // passes it (the edit is silent for base.mdc).
  const exported = (await page.textContent("#as-test-text")) ?? "";
  check(
    exported.includes('rule: "base.mdc"\nsilent:\n  - paths: ["src/api/orders.ts"]\n'),
    "the why-not's event exports as a test: silent for the rule it does not select",
    exported,
  );
  fs.mkdirSync(path.join(project, ".cursor/rule-tests"), { recursive: true });
  fs.writeFileSync(path.join(project, ".cursor/rule-tests/base.yml"), exported);
  const tested = spawnSync(path.join(binDir, "rule-fairy"), ["test", "--project", project], {
    encoding: "utf8",
  });
  check(
    tested.status === 0 && tested.stdout.includes("1 passed, 0 failed"),
    "the native rule-fairy test passes the exported test",
    tested.stdout + tested.stderr,
  );
  await page.click("text=An edit with conditions");
  const conditions = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('#rules > li[data-rule="release.mdc"] .conditions li')].map(
        (e) => e.textContent,
      ),
    );
  equal(
    await conditions(),
    ["ci false ✓ (false)", "branch release/* ✓ (release/2.4)"],
    "the typed facts reach the conditions: a release branch, not CI",
  );
  await page.fill("#fact-branch", "main");
  check(
    !(await shown(page)).rules.includes("release.mdc"),
    "on main the release rule (match: all) no longer fires",
  );
  const release = await whyNot(page, "release.mdc");
  check(
    release?.includes("\n  match all: every condition below must hold\n") &&
      release.includes("\n  glob `src/**` ✓ (src/api/orders.ts)\n") &&
      release.includes("\n  branch release/* ✗ (main)\n") &&
      release.includes("\n  verdict: does not fire: its conditions do not combine to true\n"),
    "why not: the glob held, the branch did not, and match: all needs both",
    release ?? "",
  );
  const withFacts = (await page.textContent("#as-test-text")) ?? "";
  check(
    withFacts.includes('\nsilent:\n  - paths: ["src/api/orders.ts"]\n') &&
      withFacts.includes('\n    branch: "main"\n') &&
      withFacts.includes("\n    ci: false\n"),
    "the exported test carries the typed facts",
    withFacts,
  );
  await page.screenshot({ path: path.join(outDir, "why-not.png"), fullPage: true });
  await page.fill("#fact-branch", "release/2.4");
  check(
    (await page.textContent("#why-not"))?.includes("\n  verdict: fires\n"),
    "the why-not follows the facts as they are typed",
  );
  await page.fill("#fact-branch", "main");
  await page.selectOption("#fact-ci", "");
  await page.fill("#fact-branch", "release/2.4");
  check(
    !(await shown(page)).rules.includes("release.mdc"),
    "with CI unknown it does not fire either: an unknown fact does not hold",
  );

  console.log("-- 200 rules picked as a folder");
  const big = path.join(scratch, "big");
  writeProject(big, manyRules.files);
  await page.setInputFiles("#folder-input", big);
  await checked(page, "Checked 200 rules");
  const picked = await shown(page);
  check(
    !picked.files.some((f) => f.startsWith("node_modules/")),
    "a folder brings only rules, configuration and documents",
  );
  equal(
    picked.check,
    "Checked 200 rules: 0 errors, 0 warnings.",
    "every rule of the folder is read",
  );
  await page.check('input[name="kind"][value="prompt"]');
  await page.fill("#prompt", "");
  await page.evaluate(() => performance.clearMeasures());
  await page.type("#prompt", manyRules.prompt);
  const keystrokes = await page.evaluate(() =>
    performance.getEntriesByName("update").map((e) => e.duration),
  );
  equal(keystrokes.length, manyRules.prompt.length, "every keystroke answered once");
  equal((await shown(page)).rules, manyRules.fired, "the rules the typed prompt names fire");
  await page.click('#file-list button[data-path=".cursor/rules/area-7/topic-7.mdc"]');
  await page.evaluate(() => performance.clearMeasures());
  await page.press("#file-content", "End");
  await page.type("#file-content", " edit");
  await checked(page, "Checked 200 rules");
  const fileEdits = await page.evaluate(() =>
    performance.getEntriesByName("files").map((e) => e.duration),
  );
  const lints = await page.evaluate(() =>
    performance.getEntriesByName("check").map((e) => e.duration),
  );
  await page.screenshot({ path: path.join(outDir, "200-rules.png") });
  const bigLink = await linkWritten(page);

  const firstVisits = [];
  const bigVisits = [];
  // Five visits each: this machine is shared, and one visit's figure moves with its neighbours' load.
  for (let i = 0; i < 5; i++) {
    const plain = await visit(url);
    firstVisits.push(plain.interactive);
    await plain.close();
    const again = await visit(bigLink);
    bigVisits.push(again.interactive);
    if (i === 0)
      equal(
        (await shown(again.page)).rules,
        manyRules.fired,
        "the 200-rule link restores the same answer",
      );
    await again.close();
  }

  const ms = (v) => `${v.toFixed(1)} ms`;
  console.log("-- figures (measured in the page with performance.now)");
  const list = (values) => `median ${ms(median(values))} of ${values.map(ms).join(", ")}`;
  console.log(`  load to interactive, first visit (empty cache), an example: ${list(firstVisits)}`);
  console.log(
    `  load to interactive, first visit (empty cache), 200 rules from a link: ${list(bigVisits)}`,
  );
  console.log(`  the same, as the first page of a browser just started: ${ms(coldBrowser)}`);
  console.log(
    `  keystroke in the prompt, 200 rules: median ${ms(median(keystrokes))}, p95 ${ms(percentile(keystrokes, 95))}, max ${ms(Math.max(...keystrokes))} over ${keystrokes.length}`,
  );
  console.log(
    `  keystroke in a rule file, 200 rules (loads the project again): median ${ms(median(fileEdits))}, max ${ms(Math.max(...fileEdits))} over ${fileEdits.length}`,
  );
  console.log(
    `  the lint that follows it, in its own task: median ${ms(median(lints))} over ${lints.length}`,
  );
  // The targets are figures, not checks: a timed assertion fails whenever
  // the machine is busy (other builds only ever add time), so each is
  // reported against its target here and kept out of the pass count.
  // Other builds only add time to a visit, so the fastest of five is the
  // page's own cost.
  const target = (value, limit, what) =>
    console.log(`  target ${value < limit ? "met" : "MISSED"}: ${what} (${ms(value)})`);
  target(
    Math.min(...firstVisits),
    INTERACTIVE_MS,
    `an example interactive within ${INTERACTIVE_MS} ms of load (fastest of five)`,
  );
  target(
    Math.min(...bigVisits),
    INTERACTIVE_MS,
    `200 rules interactive within ${INTERACTIVE_MS} ms of load (fastest of five)`,
  );
  target(
    median(keystrokes),
    KEYSTROKE_MS,
    `a keystroke in the prompt updates within ${KEYSTROKE_MS} ms at 200 rules (median)`,
  );
  target(
    median(fileEdits),
    KEYSTROKE_MS,
    `a keystroke in a rule file updates the answer within ${KEYSTROKE_MS} ms at 200 rules (median)`,
  );
  equal(pageErrors, [], "no errors in the page's console");
} finally {
  await browser.close();
  server.kill();
  fs.rmSync(scratch, { recursive: true, force: true });
}

console.log(
  `  screenshots in ${path.relative(repo, outDir)}; the test took ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
if (failures > 0) {
  console.log(`${failures} check(s) failed`);
  process.exit(1);
}
console.log("playground: all checks passed");
