// End to end with the real Codex: `codex exec` in a fresh Codex home, this
// repository installed as a plugin the way the README says (marketplace,
// plugin add, `rule-fairy codex trust`), against the scripted Responses
// server in mock-responses.mjs on 127.0.0.1. Every request Codex sends is
// kept, and the assertions read what reached the model.
//
// Usage: node tests/codex/e2e.mjs <directory holding the rule-fairy binary>

import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import {
  answer,
  applyPatch,
  isSubagent,
  say,
  shell,
  spawnAgent,
  startMock,
  waitAgent,
} from "./mock-responses.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const codexBin = path.join(here, "node_modules/.bin/codex");
const binDir = path.resolve(process.argv[2] ?? path.join(repo, "target/debug"));

// Text only each rule's body holds, so a count of it is a count of deliveries.
const BASE = "Base rule: keep changes small.";
const WIDGET = "Widget rule: widgets have a name.";
const UI = "UI rule: components are pure.";
const SCRIPTS = "Scripts rule: scripts start with set -eu.";
const MODEL = "Model rule: this model answers in short sentences.";
const GATE_NOTE = "Incident 7 - eval ran a request body.";

const RULES = {
  "base.mdc": `---\nalwaysApply: true\n---\n# Base\n\n${BASE}\n`,
  "widget.mdc": `---\npromptAnyOf: widget\n---\n# Widget\n\n${WIDGET}\n`,
  "ui.mdc": `---\nglobs: src/ui/**\n---\n# UI\n\n${UI}\n`,
  "scripts.mdc": `---\nglobs: scripts/**\n---\n# Scripts\n\n${SCRIPTS}\n`,
  // Ephemeral: it depends on the turn's model, so it comes every turn.
  "model.mdc": `---\nmodel: [gpt-5.5]\n---\n# Model\n\n${MODEL}\n`,
};

// A gate rule in ast-grep's format, checked on every file Codex writes.
const GATE_RULE = `id: no-eval\nlanguage: TypeScript\nseverity: error\nmessage: Do not call eval.\nnote: ${GATE_NOTE}\nrule:\n  pattern: eval($X)\n`;

let failures = 0;
function check(condition, what) {
  if (condition) {
    console.log(`  ok: ${what}`);
  } else {
    failures += 1;
    console.log(`  FAILED: ${what}`);
  }
}

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
}

// The files a clone of this repository holds (the working tree's, so the
// test sees uncommitted work too): Codex copies a local plugin whole,
// build output included, so the plugin is installed from a clean copy.
function copyRepository(to) {
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repo,
  })
    .split("\0")
    .filter((f) => f && fs.existsSync(path.join(repo, f)));
  for (const file of files) {
    const target = path.join(to, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(repo, file), target);
    fs.chmodSync(target, fs.statSync(path.join(repo, file)).mode);
  }
}

function makeProject(dir) {
  fs.mkdirSync(path.join(dir, ".cursor/rules"), { recursive: true });
  for (const [name, text] of Object.entries(RULES)) {
    fs.writeFileSync(path.join(dir, ".cursor/rules", name), text);
  }
  fs.writeFileSync(path.join(dir, "rule-fairy.edn"), "{:shell-hook {:codex true}}\n");
  fs.mkdirSync(path.join(dir, ".kairoku/rules"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".kairoku/rules/no-eval.yml"), GATE_RULE);
  fs.mkdirSync(path.join(dir, "src/ui"), { recursive: true });
  fs.writeFileSync(path.join(dir, "src/ui/button.ts"), "export const button = 1;\n");
  const git = (...args) => run("git", args, { cwd: dir });
  git("init", "-q");
  git("config", "user.email", "test@example.com");
  git("config", "user.name", "test");
  git("add", "-A");
  git("commit", "-q", "-m", "project");
}

// `codex exec` with the mock as its model provider. Async: the mock runs in
// this process and must keep serving while Codex waits on it.
function codexExec(env, project, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(codexBin, args, { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`codex ${args.join(" ")} exited ${code}\n${stderr}\n${stdout}`));
      } else {
        resolve(stdout);
      }
    });
  });
}

// A `rule-fairy` that runs the real one and appends what it printed to
// `log`, one line per run; returns the directory holding it.
function recordingShim(work, real, log) {
  const dir = path.join(work, "shims");
  fs.mkdirSync(dir);
  const shim = path.join(dir, "rule-fairy");
  fs.writeFileSync(
    shim,
    `#!/usr/bin/env bash\nout=$(${JSON.stringify(real)} "$@"); code=$?\n[ -n "$out" ] && printf '%s\\n' "$out" >> ${JSON.stringify(log)}\nprintf '%s' "$out"\nexit $code\n`,
  );
  fs.chmodSync(shim, 0o755);
  return dir;
}

// The JSON objects the hooks printed, in order.
function hookOutputs(log) {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

// The rule names a delivery's markers name.
function injectedNames(text) {
  return [...text.matchAll(/^\[rule-fairy injected: (.+)\]$/gm)].map((m) => m[1]);
}

function providerArgs(port) {
  return [
    "-c",
    'model_provider="mock"',
    "-c",
    'model="gpt-5.5"',
    "-c",
    'model_providers.mock.name="Mock"',
    "-c",
    `model_providers.mock.base_url="http://127.0.0.1:${port}/v1"`,
    "-c",
    'model_providers.mock.wire_api="responses"',
    "-c",
    "model_providers.mock.request_max_retries=0",
    "-c",
    "model_providers.mock.stream_max_retries=0",
  ];
}

// The texts of the developer messages (where hook context lands) of one request.
function developerTexts(request) {
  return request.input
    .filter((item) => item.type === "message" && item.role === "developer")
    .flatMap((item) => item.content.map((c) => c.text ?? ""));
}

function count(request, text) {
  return developerTexts(request).filter((t) => t.includes(text)).length;
}

function counts(request) {
  return {
    base: count(request, BASE),
    widget: count(request, WIDGET),
    ui: count(request, UI),
    scripts: count(request, SCRIPTS),
  };
}

function expectModelRule(requests, index, expected, why) {
  const got = count(requests[index], MODEL);
  check(got === expected, `request ${index + 1} ${why}: the model rule ${got} time(s)`);
}

function expectCounts(requests, index, expected, why) {
  const got = counts(requests[index]);
  check(
    JSON.stringify(got) === JSON.stringify(expected),
    `request ${index + 1} ${why}: ${JSON.stringify(got)}`,
  );
}

async function main() {
  if (!fs.existsSync(codexBin)) {
    throw new Error(`${codexBin} is missing: run npm ci in tests/codex`);
  }
  if (!fs.existsSync(path.join(binDir, "rule-fairy"))) {
    throw new Error(`no rule-fairy binary in ${binDir}`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rule-fairy-codex-e2e-"));
  const market = path.join(work, "rule-fairy");
  const home = path.join(work, "codex-home");
  const project = path.join(work, "project");
  fs.mkdirSync(home);
  copyRepository(market);
  makeProject(project);
  const hookLog = path.join(work, "hook-outputs.jsonl");
  const shims = recordingShim(work, path.join(binDir, "rule-fairy"), hookLog);
  const env = {
    ...process.env,
    CODEX_HOME: home,
    // hooks/run finds rule-fairy on PATH, as after `cargo install`; the
    // shim before it keeps what each hook printed, since `codex exec`
    // shows no `systemMessage` (behaviour §10.1).
    PATH: `${shims}:${binDir}:${path.dirname(codexBin)}:${process.env.PATH}`,
  };
  delete env.RULE_FAIRY_PROJECT_DIR;
  delete env.RULE_FAIRY_BIN;

  console.log("install: the README's steps");
  run(codexBin, ["plugin", "marketplace", "add", market], { env, cwd: project });
  run(codexBin, ["plugin", "add", "rule-fairy@rule-fairy"], { env, cwd: project });
  const trusted = run(path.join(binDir, "rule-fairy"), ["codex", "trust"], { env, cwd: project });
  check(
    (trusted.match(/^trusted: /gm) ?? []).length === 4,
    "rule-fairy codex trust trusts the four hooks",
  );

  const mock = await startMock();
  const base = [...providerArgs(mock.port), "--dangerously-bypass-approvals-and-sandbox", "--json"];
  const requests = mock.state.requests;
  try {
    console.log("turn 1: a keyword prompt, an apply_patch edit, a shell write");
    mock.expect(
      answer([
        applyPatch(
          "call_ap1",
          "*** Begin Patch\n*** Add File: src/ui/card.ts\n+export const card = 1;\n*** End Patch\n",
        ),
      ]),
      answer([shell("call_sh1", "mkdir -p scripts && printf 'echo hi\\n' > scripts/build.sh")]),
      answer([say("done")]),
    );
    const out = await codexExec(env, project, ["exec", ...base, "please add a widget to the page"]);
    const thread = JSON.parse(out.split("\n")[0]).thread_id;
    check(typeof thread === "string", `session ${thread}`);
    expectCounts(
      requests,
      0,
      { base: 1, widget: 1, ui: 0, scripts: 0 },
      "carries the always-on and keyword rules",
    );
    expectCounts(
      requests,
      1,
      { base: 1, widget: 1, ui: 1, scripts: 0 },
      "adds the glob rule after the patch",
    );
    const patchOutput = requests[1].input.find((i) => i.type === "custom_tool_call_output");
    check(
      JSON.stringify(patchOutput ?? "").includes("Success"),
      "the patch's real result still reaches the model",
    );
    check(
      developerTexts(requests[1]).some((t) =>
        t.includes("[rule-fairy matched: glob on src/ui/card.ts]"),
      ),
      "the edit delivery names the edited file",
    );
    expectCounts(
      requests,
      2,
      { base: 1, widget: 1, ui: 1, scripts: 1 },
      "adds the rule of the file the shell wrote",
    );
    check(
      developerTexts(requests[2]).some((t) =>
        /\[rule-fairy matched: glob on [^\]]*scripts\/build\.sh[^\]]*, changed by a shell command\]/.test(
          t,
        ),
      ),
      "the shell delivery says a shell command changed the file",
    );

    // The person's line for each delivery, in the hooks' systemMessage.
    const shown = hookOutputs(hookLog)
      .map((o) => o.systemMessage)
      .filter((m) => typeof m === "string");
    check(
      JSON.stringify(shown) ===
        JSON.stringify([
          'Rule Fairy: base.mdc (always on), model.mdc (model gpt-5.5), widget.mdc (keyword "widget")',
          "Rule Fairy: ui.mdc (glob src/ui/**)",
          "Rule Fairy: scripts.mdc (glob scripts/**)",
        ]),
      `each delivery showed the person its line: ${JSON.stringify(shown)}`,
    );
    // `status --json` names the rules that reached the model.
    const status = JSON.parse(
      run(path.join(binDir, "rule-fairy"), ["status", "--json", "--session", thread], {
        env,
        cwd: project,
      }),
    );
    const received = status.sessions[0]?.deliveries.flatMap((d) =>
      d.rules.map((r) => `${d.event} ${r.name}`),
    );
    check(
      JSON.stringify(received) ===
        JSON.stringify([
          "prompt base.mdc",
          "prompt model.mdc",
          "prompt widget.mdc",
          "edit ui.mdc",
          "shell scripts.mdc",
        ]),
      `status lists what the hooks delivered: ${JSON.stringify(received)}`,
    );
    const reached = [...new Set(developerTexts(requests[2]).flatMap((t) => injectedNames(t)))];
    check(
      JSON.stringify(reached.sort()) ===
        JSON.stringify([...new Set(received.map((r) => r.split(" ")[1]))].sort()),
      `status and the model agree on the rules: ${JSON.stringify(reached)}`,
    );

    console.log("turn 2: the same session again, before any compaction");
    mock.expect(
      answer([
        applyPatch(
          "call_ap2",
          "*** Begin Patch\n*** Update File: src/ui/button.ts\n@@\n-export const button = 1;\n+export const button = 2;\n*** End Patch\n",
        ),
      ]),
      answer([say("done")]),
    );
    await codexExec(env, project, ["exec", "resume", ...base, thread, "make the widget bigger"]);
    expectCounts(
      requests,
      3,
      { base: 1, widget: 1, ui: 1, scripts: 1 },
      "sends no delivered rule again for the prompt",
    );
    expectCounts(
      requests,
      4,
      { base: 1, widget: 1, ui: 1, scripts: 1 },
      "sends no delivered rule again for the edit",
    );

    console.log("turn 3: a forced compaction");
    mock.expect(
      answer([shell("call_sh2", "true")], 200_000),
      answer([say("Summary: a widget was added.")]),
      answer([say("done")]),
    );
    await codexExec(env, project, [
      "exec",
      "resume",
      ...base,
      "-c",
      "model_auto_compact_token_limit=1000",
      thread,
      "check the build",
    ]);
    const compaction = requests[6].input.at(-1);
    check(
      JSON.stringify(compaction?.content ?? "").includes("CONTEXT CHECKPOINT COMPACTION"),
      "request 7 is the compaction",
    );
    expectCounts(
      requests,
      7,
      { base: 1, widget: 0, ui: 0, scripts: 0 },
      "after the compaction holds the always-on rule again, at once",
    );

    console.log("turn 4: a prompt after the compaction");
    mock.expect(
      answer([
        applyPatch(
          "call_ap3",
          "*** Begin Patch\n*** Update File: src/ui/button.ts\n@@\n-export const button = 2;\n+export const button = 3;\n*** End Patch\n",
        ),
      ]),
      answer([say("done")]),
    );
    await codexExec(env, project, ["exec", "resume", ...base, thread, "one more widget tweak"]);
    expectCounts(
      requests,
      8,
      { base: 1, widget: 1, ui: 0, scripts: 0 },
      "brings the keyword rule back, the always-on rule once",
    );
    expectCounts(
      requests,
      9,
      { base: 1, widget: 1, ui: 1, scripts: 0 },
      "brings the glob rule back after the edit",
    );
    expectModelRule(requests, 0, 1, "has the ephemeral model rule of turn 1");
    expectModelRule(requests, 3, 2, "has it again for turn 2, beside turn 1's");
    // SessionStart brings back every rule that needs no prompt right after
    // the compaction, the ephemeral one included; turn 4's prompt brings
    // it again, as every turn's does.
    expectModelRule(requests, 7, 1, "has it again at once after the compaction, from SessionStart");
    expectModelRule(
      requests,
      8,
      2,
      "has SessionStart's and turn 4's, the compaction having removed the earlier ones",
    );

    console.log("turn 5: an apply_patch that breaks a gate rule");
    mock.expect(
      answer([
        applyPatch(
          "call_ap4",
          "*** Begin Patch\n*** Add File: src/ui/danger.ts\n+export const run = (body: string) => eval(body);\n*** End Patch\n",
        ),
      ]),
      answer([say("done")]),
    );
    await codexExec(env, project, ["exec", "resume", ...base, thread, "run the request body"]);
    const gateText = developerTexts(requests[11]).find((t) =>
      t.includes("[rule-fairy gate: 1 finding in the files just written]"),
    );
    check(gateText !== undefined, "request 12 carries the gate finding after the patch");
    check(
      gateText?.includes("error[no-eval] src/ui/danger.ts:1: Do not call eval.") ?? false,
      "the finding names the rule, file:line and message",
    );
    check(gateText?.includes(GATE_NOTE) ?? false, "the finding carries the rule's note verbatim");
    check(
      !developerTexts(requests[1]).some((t) => t.includes("[rule-fairy gate:")),
      "a clean patch brought no gate text",
    );

    check(requests.length === 12, `Codex sent ${requests.length} requests (12 scripted)`);
    check(
      mock.state.unexpected.length === 0,
      `no unscripted request ${JSON.stringify(mock.state.unexpected)}`,
    );
    const state = JSON.parse(
      fs.readFileSync(path.join(project, ".rule-fairy/codex", `${thread}.json`), "utf8"),
    );
    check(state.transcript_scan.compaction_count === 1, "the session state counted one compaction");
    const pluginRoot = fs
      .readFileSync(path.join(project, ".rule-fairy/codex/plugin-root"), "utf8")
      .trim();
    check(
      pluginRoot.startsWith(path.join(home, "plugins/cache/rule-fairy/rule-fairy")),
      `plugin-root names the installed plugin`,
    );
    check(
      !fs.existsSync(path.join(pluginRoot, ".rule-fairy")),
      "nothing was written under the plugin",
    );

    console.log("turn 6: $status, the skill's launcher running status and doctor");
    // A session saved later than this one: `--latest` would show it, the
    // launcher must take Codex's own thread instead.
    fs.writeFileSync(
      path.join(project, ".rule-fairy/codex/zz-other-session.json"),
      JSON.stringify({ injected: {}, saved_at_ms: 9_000_000_000_000 }),
    );
    const launcher = path.join(pluginRoot, "skills/status/scripts/run");
    const beforeStatus = requests.length;
    mock.expect(
      answer([shell("call_st1", `"${launcher}" status --host codex`)]),
      answer([shell("call_st2", `"${launcher}" doctor`)]),
      answer([say("This session received five rules; nothing is broken.")]),
    );
    // The skill's shell runs with the environment Codex gives commands, not
    // the hooks' PATH: the launcher is told where the program is.
    const withBin = { ...env, RULE_FAIRY_BIN: path.join(binDir, "rule-fairy") };
    await codexExec(withBin, project, ["exec", "resume", ...base, thread, "$status"]);
    const seen = requests.slice(beforeStatus).map((r) => JSON.stringify(r.input));
    check(seen.length === 3, `$status took three requests (${seen.length})`);
    // Codex lists the plugin's skills to the model, which opens SKILL.md
    // when asked for it (the mock plays that part).
    check(
      seen[0]?.includes("rule-fairy:status: Shows what Rule Fairy has delivered") ?? false,
      "Codex offers the model the status skill",
    );
    check(
      (seen[1]?.includes(`Codex session ${thread}`) ?? false) &&
        !(seen[1]?.includes("zz-other-session") ?? true),
      "status showed this thread's session, taken from CODEX_THREAD_ID",
    );
    check(
      seen[1]?.includes("ui.mdc (glob `src/ui/**` on src/ui/card.ts)") ?? false,
      "status named the rules this session received, with why",
    );
    // Whether the hooks are trusted is tests/codex/doctor.mjs's to check
    // (the commands' shell here has no codex on its PATH).
    check(
      /version: rule-fairy \d/.test(seen[2] ?? "") && /hook trust: /.test(seen[2] ?? ""),
      "doctor's answer reached the model",
    );
    fs.rmSync(path.join(project, ".rule-fairy/codex/zz-other-session.json"));

    console.log("a broken rule: an always-on rule importing a missing document");
    const brokenProject = path.join(work, "broken-project");
    fs.mkdirSync(path.join(brokenProject, ".cursor/rules"), { recursive: true });
    const brokenRules = {
      "base.mdc": RULES["base.mdc"],
      "widget.mdc": RULES["widget.mdc"],
      "broken.mdc":
        "---\nalwaysApply: true\n---\n# Broken\n\nBroken rule body.\n\n@docs/missing.md\n",
    };
    for (const [name, text] of Object.entries(brokenRules)) {
      fs.writeFileSync(path.join(brokenProject, ".cursor/rules", name), text);
    }
    run("git", ["init", "-q"], { cwd: brokenProject });
    const first = requests.length;
    mock.expect(answer([say("done")]));
    await codexExec(env, brokenProject, ["exec", ...base, "add a widget despite the broken rule"]);
    expectCounts(
      requests,
      first,
      { base: 1, widget: 1, ui: 0, scripts: 0 },
      "still carries the other always-on and keyword rules",
    );
    const brokenTexts = developerTexts(requests[first]);
    check(
      !brokenTexts.some((t) => t.includes("Broken rule body.")),
      "the broken rule's body is left out",
    );
    check(
      brokenTexts.some((t) =>
        t.includes(
          "[rule-fairy error: 1 broken rule left out: broken.mdc]\n- .cursor/rules/broken.mdc:8: broken.mdc: Rule import does not exist: docs/missing.md\n",
        ),
      ),
      "an error entry names the broken rule with its file and line",
    );
    const brokenState = fs
      .readdirSync(path.join(brokenProject, ".rule-fairy/codex"))
      .filter((f) => f.endsWith(".json"))
      .map((f) =>
        JSON.parse(fs.readFileSync(path.join(brokenProject, ".rule-fairy/codex", f), "utf8")),
      );
    check(
      brokenState.length === 1 &&
        JSON.stringify(Object.keys(brokenState[0].injected).sort()) ===
          JSON.stringify(["base.mdc", "widget.mdc"]),
      "the state records the delivered rules, never the broken one",
    );

    await requestedRules(env, base, mock, path.join(work, "requested"));

    console.log("scenario: a nested rules folder in a monorepo");
    const monorepo = path.join(work, "monorepo");
    const NESTED_UI = "Web UI rule: components are functions.";
    const NESTED_ALWAYS = "Web always rule: run the web tests.";
    const nestedFiles = {
      ".cursor/rules/root.mdc": "---\nalwaysApply: true\n---\n# Root\n\nRoot rule.\n",
      "packages/web/.cursor/rules/ui.mdc": `---\nglobs: src/**\n---\n# Web UI\n\n${NESTED_UI}\n`,
      "packages/web/.cursor/rules/always.mdc": `---\nalwaysApply: true\n---\n# Web always\n\n${NESTED_ALWAYS}\n`,
      "packages/web/README.md": "# Web\n",
    };
    for (const [file, text] of Object.entries(nestedFiles)) {
      fs.mkdirSync(path.dirname(path.join(monorepo, file)), { recursive: true });
      fs.writeFileSync(path.join(monorepo, file), text);
    }
    run("git", ["init", "-q"], { cwd: monorepo });
    const nestedFirst = requests.length;
    mock.expect(
      answer([shell("call_ns0", "cat packages/web/README.md")]),
      answer([
        applyPatch(
          "call_ap5",
          "*** Begin Patch\n*** Add File: src/app.ts\n+export const root = 1;\n*** End Patch\n",
        ),
      ]),
      answer([
        applyPatch(
          "call_ap6",
          "*** Begin Patch\n*** Add File: packages/web/src/app.ts\n+export const web = 1;\n*** End Patch\n",
        ),
      ]),
      answer([say("done")]),
    );
    await codexExec(env, monorepo, ["exec", ...base, "add both apps"]);
    check(
      count(requests[nestedFirst], NESTED_UI) === 0 &&
        count(requests[nestedFirst], NESTED_ALWAYS) === 0,
      "neither nested rule comes with the prompt",
    );
    check(
      developerTexts(requests[nestedFirst + 1]).some(
        (t) =>
          t.includes(
            "[rule-fairy matched: alwaysApply in a nested folder, on reading packages/web/README.md]",
          ) && t.includes(NESTED_ALWAYS),
      ),
      "the folder's always-on rule comes with a cat of a file below it",
    );
    check(count(requests[nestedFirst + 1], NESTED_UI) === 0, "a read brings no glob rule");
    check(
      count(requests[nestedFirst + 2], NESTED_UI) === 0,
      "nor does src/app.ts at the root, the same path relative to its folder",
    );
    check(
      count(requests[nestedFirst + 3], NESTED_UI) === 1,
      "the glob rule comes with the edit of packages/web/src/app.ts",
    );
    check(
      count(requests[nestedFirst + 3], NESTED_ALWAYS) === 1,
      "the always-on rule, held, does not come again with the edit",
    );
    check(
      developerTexts(requests[nestedFirst + 3]).some((t) =>
        t.includes("[rule-fairy matched: glob on packages/web/src/app.ts]"),
      ),
      "the delivery names the edited file below the folder",
    );
    check(
      mock.state.unexpected.length === 0,
      `no unscripted request in the nested scenario ${JSON.stringify(mock.state.unexpected)}`,
    );

    console.log("scenario: an AGENTS.md below the working directory");
    const services = path.join(work, "services-project");
    const ROOT_AGENTS = "Root agents file: keep the changelog.";
    const BILLING = "Billing agents file: amounts are integer cents.";
    const servicesFiles = {
      "AGENTS.md": `${ROOT_AGENTS}\n`,
      "services/billing/AGENTS.md": `# Billing\n\n${BILLING}\n`,
      ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base\n\nBase rule.\n",
    };
    for (const [file, text] of Object.entries(servicesFiles)) {
      fs.mkdirSync(path.dirname(path.join(services, file)), { recursive: true });
      fs.writeFileSync(path.join(services, file), text);
    }
    run("git", ["init", "-q"], { cwd: services });
    const servicesFirst = requests.length;
    mock.expect(
      answer([
        applyPatch(
          "call_ap7",
          "*** Begin Patch\n*** Add File: services/billing/src/invoice.ts\n+export const total = 0;\n*** End Patch\n",
        ),
      ]),
      answer([say("done")]),
    );
    await codexExec(env, services, ["exec", ...base, "add an invoice module"]);
    const whole = (request) => JSON.stringify(request.input);
    check(
      whole(requests[servicesFirst]).includes(ROOT_AGENTS),
      "Codex itself carries the root AGENTS.md with the first request",
    );
    check(
      !whole(requests[servicesFirst]).includes(BILLING),
      "but not services/billing/AGENTS.md, below the working directory",
    );
    const billing = developerTexts(requests[servicesFirst + 1]).find((t) =>
      t.includes("[rule-fairy injected: instruction file services/billing/AGENTS.md]"),
    );
    check(
      billing?.includes(BILLING) ?? false,
      "the apply_patch under services/billing/ brings services/billing/AGENTS.md",
    );
    check(
      billing?.includes(
        "[rule-fairy matched: instruction files of directories below the working directory, which Codex did not read]",
      ) ?? false,
      "labelled with why it came",
    );
    check(
      !(billing ?? "").includes(ROOT_AGENTS),
      "and not the root AGENTS.md, which Codex read itself",
    );
    check(
      mock.state.unexpected.length === 0,
      `no unscripted request in the instructions scenario ${JSON.stringify(mock.state.unexpected)}`,
    );

    await subagents(env, base, mock, path.join(work, "subagents"));
  } finally {
    await mock.close();
    if (failures > 0 || process.env.RULE_FAIRY_E2E_KEEP) {
      fs.writeFileSync(path.join(work, "requests.json"), JSON.stringify(requests, null, 1));
      console.log(`requests and files kept in ${work}`);
    } else {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  if (failures > 0) {
    throw new Error(`${failures} check(s) failed`);
  }
  console.log("codex end to end: all checks passed");
}

// Scenario: a subagent (Codex offers them with `features.multi_agent_v2`)
// gets its own always-on rules when it starts, and a glob rule with its own
// edit although the parent holds it; the parent's records stay its own.
async function subagents(env, base, mock, project) {
  for (const [name, text] of Object.entries(RULES)) {
    fs.mkdirSync(path.join(project, ".cursor/rules"), { recursive: true });
    fs.writeFileSync(path.join(project, ".cursor/rules", name), text);
  }
  run("git", ["init", "-q"], { cwd: project });
  const requests = mock.state.requests;
  const first = requests.length;
  console.log("subagents: SubagentStart and a subagent's own edit");
  mock.expect(
    answer([
      applyPatch(
        "call_sa1",
        "*** Begin Patch\n*** Add File: src/ui/parent.ts\n+export const p = 1;\n*** End Patch\n",
      ),
    ]),
    answer([spawnAgent("call_sa2", "helper", "add src/ui/child.ts")]),
    answer([waitAgent("call_sa3")]),
    answer([
      applyPatch(
        "call_sa4",
        "*** Begin Patch\n*** Add File: src/ui/later.ts\n+export const l = 1;\n*** End Patch\n",
      ),
    ]),
    answer([say("done")]),
  );
  mock.expectSubagent(
    answer([
      applyPatch(
        "call_sc1",
        "*** Begin Patch\n*** Add File: src/ui/child.ts\n+export const c = 1;\n*** End Patch\n",
      ),
    ]),
    answer([say("child done")]),
  );
  await codexExec(env, project, [
    "exec",
    ...base,
    "-c",
    "features.multi_agent_v2=true",
    "delegate the ui work",
  ]);
  const mine = requests.slice(first);
  const child = mine.filter(isSubagent);
  const parent = mine.filter((request) => !isSubagent(request));
  check(
    child.length === 2 && parent.length === 5,
    `${child.length} subagent and ${parent.length} parent requests (2, 5)`,
  );
  check(
    count(child[0], BASE) === 1,
    "the subagent's first request holds the always-on rule, from SubagentStart",
  );
  check(count(child[0], UI) === 0, "and not yet the glob rule");
  check(count(parent[1], UI) === 1, "the parent got the glob rule with its own edit");
  check(count(child[1], UI) === 1, "the subagent's edit brings it to the subagent too");
  check(count(parent[4], UI) === 1, "the parent's later edit does not bring it again");
  const states = fs
    .readdirSync(path.join(project, ".rule-fairy/codex"))
    .filter((name) => name.endsWith(".json"));
  check(
    states.length === 2 && states.some((name) => name.includes(".agent-")),
    `the parent and the subagent each keep a record (${states.join(", ")})`,
  );
  check(
    mock.state.unexpected.length === 0,
    `no unscripted request in the subagent scenario ${JSON.stringify(mock.state.unexpected)}`,
  );
}

// Scenario: requestable rules and mentions (behaviour §9), in a project of
// its own with the shell hook off, as Codex has it by default.
const RELEASE = "Release rule: bump the version first.";
const TAGGING = "Tagging section: sign every tag.";
const MANUAL = "Manual rule: write the changelog by hand.";
const REQUESTED_RULES = {
  "ops/release-checklist.mdc": `---\ndescription: Steps before tagging a release\nglobs:\nalwaysApply: false\n---\n# Release\n\n${RELEASE}\n\n@docs/release.md#tagging\n`,
  "manual.mdc": `# Manual\n\n${MANUAL}\n`,
};

async function requestedRules(env, base, mock, project) {
  for (const [name, text] of Object.entries(REQUESTED_RULES)) {
    fs.mkdirSync(path.dirname(path.join(project, ".cursor/rules", name)), { recursive: true });
    fs.writeFileSync(path.join(project, ".cursor/rules", name), text);
  }
  fs.mkdirSync(path.join(project, "docs"), { recursive: true });
  fs.writeFileSync(
    path.join(project, "docs/release.md"),
    `# Release\n\n## Tagging\n\n${TAGGING}\n\n## Other\n\nNot imported.\n`,
  );
  const git = (...args) => run("git", args, { cwd: project });
  git("init", "-q");
  git("config", "user.email", "test@example.com");
  git("config", "user.name", "test");
  git("add", "-A");
  git("commit", "-q", "-m", "project");
  const requests = mock.state.requests;
  const first = requests.length;

  console.log("requested rules: the index, a cat of a rule file, a mention");
  mock.expect(
    answer([shell("call_rq1", "cat .cursor/rules/ops/release-checklist.mdc")]),
    answer([say("done")]),
  );
  const out = await codexExec(env, project, ["exec", ...base, "prepare the next release"]);
  const thread = JSON.parse(out.split("\n")[0]).thread_id;
  const index =
    "- `ops/release-checklist.mdc` (`.cursor/rules/ops/release-checklist.mdc`): Steps before tagging a release";
  check(count(requests[first], index) === 1, "the first prompt carries the index entry");
  check(
    count(requests[first], RELEASE) === 0 && count(requests[first], TAGGING) === 0,
    "and not the rule's body",
  );
  const read = developerTexts(requests[first + 1]).find((t) =>
    t.includes(
      "[rule-fairy matched: requested by reading .cursor/rules/ops/release-checklist.mdc]",
    ),
  );
  check(read !== undefined, "the cat of the rule file brings the rule, shell hook off");
  check(read?.includes(TAGGING) ?? false, "rendered with the section it imports");
  check(!(read?.includes("Not imported.") ?? true), "and only that section");

  mock.expect(
    answer([shell("call_rq2", "sed -n 1,80p .cursor/rules/ops/release-checklist.mdc")]),
    answer([say("done")]),
  );
  await codexExec(env, project, ["exec", "resume", ...base, thread, "use @manual for the notes"]);
  const mention = developerTexts(requests[first + 2]).find((t) =>
    t.includes("[rule-fairy matched: mention @manual]"),
  );
  check(mention?.includes(MANUAL) ?? false, "a mention delivers the rule with no trigger");
  check(count(requests[first + 2], index) === 1, "the index is not delivered again");
  check(
    count(requests[first + 3], TAGGING) === 1,
    "reading the rule again while it is held brings nothing more",
  );
  check(requests.length === first + 4, `the scenario sent ${requests.length - first} requests (4)`);
  check(
    mock.state.unexpected.length === 0,
    `no unscripted request ${JSON.stringify(mock.state.unexpected)}`,
  );
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
