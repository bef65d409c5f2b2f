// The mod in a real Claude Code session: `claude -p` with this repository as
// the plugin, the model played by a mock Messages API on 127.0.0.1 that
// scripts a prompt naming a keyword, an Edit of a glob-matched file and a
// Bash command writing another; a second prompt in the same session and an
// Edit that breaks a gate rule; then `/compact` and a prompt. Asserts on
// the request bodies Claude Code sent: each durable rule reaches the model
// once, and again after the compaction; the rule on the session's model
// comes with every prompt; the gate's finding and its note follow the Edit
// that broke the rule. Then the same plugin installed from the marketplace
// of a checkout, as a person installs it. The gate check runs the binary
// RULE_FAIRY_BIN names (tests/claude/run sets it to the workspace build).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { startMock } from "./mock-messages.mjs";
import { CLAUDE, claude, REPO } from "./session.mjs";

const GATE_NOTE = "Incident 7 - eval ran a request body.";

const RULES = {
  ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\n# Always\n\nAnswer in plain words.",
  ".cursor/rules/widget.mdc":
    "---\npromptAnyOf: widget\n---\n# Widgets\n\nA widget is a small component.",
  ".cursor/rules/typescript.mdc":
    "---\nglobs: src/**/*.ts\n---\n# TypeScript\n\nStrict types.\n\n@docs/guide.md#types",
  ".cursor/rules/notes.mdc": "---\nglobs: notes/**\n---\n# Notes\n\nNotes are dated.",
  // Ephemeral: it depends on the model `$.session.model()` names.
  ".cursor/rules/model.mdc":
    "---\nmodel: [claude-opus-5-5]\n---\n# Model\n\nThis model answers in short sentences.",
  "docs/guide.md": "# Guide\n\n## Types\n\nNo any, ever.\n\n## Other\n\nNot imported.\n",
  "src/app.ts": "export const answer = 1\n",
  // A gate rule in ast-grep's format, checked on every file Claude writes.
  ".kairoku/rules/no-eval.yml": `id: no-eval\nlanguage: TypeScript\nseverity: error\nmessage: Do not call eval.\nnote: ${GATE_NOTE}\nrule:\n  pattern: eval($X)\n`,
};

let home;
let project;
let mock;
// The mock's script; a later test adds the turns it needs a session id for.
let script;
let sessionId;
const debugFile = () => join(home, "debug.log");

function write(root, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

before(async () => {
  home = mkdtempSync(join(tmpdir(), "rule-fairy-e2e-"));
  project = join(home, "project");
  write(project, RULES);
  const git = (args) => execFileSync("git", args, { cwd: project, stdio: "ignore" });
  git(["init", "-q"]);
  git(["add", "-A"]);
  git(["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "start"]);
  mkdirSync(join(home, "config"));
  const app = join(project, "src/app.ts");
  script = [
    {
      prompt: "add a widget",
      turns: [
        { tool: "Read", input: { file_path: app } },
        {
          tool: "Edit",
          input: { file_path: app, old_string: "answer = 1", new_string: "answer = 2" },
        },
        {
          tool: "Bash",
          input: {
            command: 'mkdir -p notes && printf "today\\n" > notes/today.md',
            description: "Write a note",
          },
        },
        { text: "Added." },
      ],
    },
    {
      prompt: "run the request body",
      turns: [
        { tool: "Read", input: { file_path: app } },
        {
          tool: "Edit",
          input: { file_path: app, old_string: "answer = 2", new_string: 'answer = eval("2")' },
        },
        { text: "Done." },
      ],
    },
    { prompt: "one more widget", turns: [{ text: "Sure." }] },
  ];
  mock = await startMock(script);
});

after(async () => {
  await mock?.close();
  if (process.env.RULE_FAIRY_KEEP_E2E === undefined) rmSync(home, { recursive: true, force: true });
  else console.log(`kept ${home}`);
});

const run = (args) =>
  claude({
    args,
    cwd: project,
    config: join(home, "config"),
    mockUrl: mock.url,
    debugFile: debugFile(),
  });

/** Hook context in the messages of a request: the texts after
 * "hook additional context: ", whichever wire form the model gets. */
function hookContext(request) {
  const texts = [];
  const visit = (value) => {
    if (typeof value === "string") {
      for (const part of value.split("hook additional context: ").slice(1)) texts.push(part);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(request.messages);
  return texts.join("\n");
}

const count = (text, rule) => text.split(`[rule-fairy injected: ${rule}]`).length - 1;

test("a prompt, an edit and a shell change each bring their rules once", async () => {
  const result = await run([
    "add a widget to the app",
    "--permission-mode",
    "acceptEdits",
    "--allowedTools",
    "Bash",
  ]);
  assert.equal(result.code, 0, result.stderr);
  sessionId = result.events.find((event) => event.session_id !== undefined)?.session_id;
  assert.ok(sessionId, "the session has an id");
  assert.equal(
    readFileSync(join(project, "src/app.ts"), "utf8"),
    "export const answer = 2\n",
    "the Edit ran",
  );
  assert.equal(
    readFileSync(join(project, "notes/today.md"), "utf8"),
    "today\n",
    "the Bash command ran",
  );

  assert.equal(mock.requests.length, 4, "one request per assistant turn");
  assert.equal(mock.requests[0].model, "claude-opus-5-5", "the model model.mdc names");
  const [afterPrompt, afterRead, afterEdit, afterBash] = mock.requests.map(hookContext);
  assert.equal(count(afterPrompt, "always.mdc"), 1);
  assert.equal(
    count(afterPrompt, "model.mdc"),
    1,
    "the rule on the session model came with the prompt",
  );
  assert.equal(count(afterPrompt, "widget.mdc"), 1);
  assert.match(afterPrompt, /\[rule-fairy matched: keyword "widget"\]/);
  assert.equal(count(afterRead, "typescript.mdc"), 0, "a Read is not an edit");
  assert.equal(count(afterEdit, "typescript.mdc"), 1);
  assert.match(afterEdit, /\[rule-fairy matched: glob on src\/app\.ts\]/);
  assert.match(afterEdit, /No any, ever\./, "the imported section came with the rule");
  assert.doesNotMatch(afterEdit, /Not imported\./);
  assert.doesNotMatch(afterEdit, /\[rule-fairy gate:/, "a clean Edit brings no gate text");
  assert.equal(count(afterBash, "notes.mdc"), 1);
  assert.match(
    afterBash,
    /\[rule-fairy matched: glob on notes\/today\.md, changed by a shell command\]/,
  );
  assert.match(afterBash, /Apply these rules on the next pass over this change\./);
  // The last request carries the whole conversation: every rule once.
  for (const rule of ["always.mdc", "widget.mdc", "typescript.mdc", "notes.mdc", "model.mdc"]) {
    assert.equal(count(afterBash, rule), 1, `${rule} reached the model once`);
  }
  assert.doesNotMatch(afterBash, /rule-fairy error/);
  const state = JSON.parse(
    readFileSync(join(project, `.rule-fairy/claude/${sessionId}.json`), "utf8"),
  );
  // The ephemeral rule is never recorded.
  assert.deepEqual(Object.keys(state.delivered).sort(), [
    "always.mdc",
    "notes.mdc",
    "typescript.mdc",
    "widget.mdc",
  ]);
  // The person saw one transcript line per delivery, naming the rules and
  // why (behaviour §10.1).
  const lines = result.events
    .filter((e) => e.type === "system" && e.subtype === "ui_log" && e.plugin === "rule-fairy")
    .map((e) => e.text);
  assert.deepEqual(
    lines.filter((line) => line.startsWith("Rule Fairy: ")),
    [
      'Rule Fairy: always.mdc (always on), model.mdc (model claude-opus-5-5), widget.mdc (keyword "widget")',
      "Rule Fairy: typescript.mdc (glob src/**/*.ts)",
      "Rule Fairy: notes.mdc (glob notes/**)",
    ],
    JSON.stringify(lines),
  );
  // `status --json` names exactly the rules that reached the model, with
  // the events that brought them.
  const status = JSON.parse(
    execFileSync(process.env.RULE_FAIRY_BIN, ["status", "--json", "--session", sessionId], {
      cwd: project,
      encoding: "utf8",
    }),
  );
  assert.equal(status.sessions.length, 1);
  const received = status.sessions[0].deliveries.flatMap((d) =>
    d.rules.map((r) => `${d.event} ${r.name}`),
  );
  assert.deepEqual(received, [
    "prompt always.mdc",
    "prompt model.mdc",
    "prompt widget.mdc",
    "edit typescript.mdc",
    "shell notes.mdc",
  ]);
  for (const name of ["always.mdc", "model.mdc", "widget.mdc", "typescript.mdc", "notes.mdc"]) {
    assert.equal(count(afterBash, name), 1, `${name}: status and the model agree`);
  }
  assert.equal(readFileSync(join(project, ".rule-fairy/claude/.gitignore"), "utf8"), "*\n");
  // Where the plugin is, for a project's own review skill.
  assert.equal(readFileSync(join(project, ".rule-fairy/claude/plugin-root"), "utf8"), `${REPO}\n`);
});

test("the next prompt brings the ephemeral rule again, and an Edit that breaks a gate rule gets the finding", async () => {
  assert.ok(sessionId, "the first session ran");
  const before = mock.requests.length;
  const result = await run([
    "run the request body",
    "--resume",
    sessionId,
    "--permission-mode",
    "acceptEdits",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    readFileSync(join(project, "src/app.ts"), "utf8"),
    'export const answer = eval("2")\n',
    "the Edit ran",
  );
  assert.equal(mock.requests.length, before + 3, "one request per assistant turn");
  const [afterPrompt, afterRead, afterEdit] = mock.requests.slice(before).map(hookContext);
  // The whole conversation: turn 1's delivery and this prompt's.
  assert.equal(
    count(afterPrompt, "model.mdc"),
    2,
    "the ephemeral rule came again with this prompt",
  );
  assert.equal(count(afterPrompt, "always.mdc"), 1, "the durable rule did not come again");
  assert.equal(count(afterPrompt, "widget.mdc"), 1);
  assert.doesNotMatch(afterRead, /\[rule-fairy gate:/);
  const gate = afterEdit.slice(
    afterEdit.indexOf("[rule-fairy gate: 1 finding in the files just written]"),
  );
  assert.ok(
    afterEdit.includes("[rule-fairy gate: 1 finding in the files just written]"),
    "the request after the Edit carries the finding",
  );
  assert.match(
    gate,
    /^\[rule-fairy gate: 1 finding in the files just written\]\nerror\[no-eval\] src\/app\.ts:1: Do not call eval\.\n {2}Incident 7 - eval ran a request body\./,
  );
  assert.match(gate, /These are the repository's own ast-grep rules\./);
  assert.equal(
    count(afterEdit, "typescript.mdc"),
    1,
    "the rule is still in the conversation, not sent again",
  );
  assert.doesNotMatch(afterEdit, /rule-fairy error|could not run/);
});

test("after /compact the rules the prompt matches come again", async () => {
  assert.ok(sessionId, "the first session ran");
  const before = mock.requests.length;
  const compacted = await run(["/compact", "--resume", sessionId]);
  assert.equal(compacted.code, 0, compacted.stderr);
  assert.ok(mock.requests.length > before, "the compaction asked the model for a summary");

  const next = mock.requests.length;
  const result = await run(["one more widget please", "--resume", sessionId]);
  assert.equal(result.code, 0, result.stderr);
  const request = mock.requests[next];
  assert.ok(request, "the prompt reached the model");
  const context = hookContext(request);
  assert.match(
    JSON.stringify(request.messages),
    /continued from a previous conversation|<summary>|summary/i,
  );
  assert.equal(count(context, "always.mdc"), 1, "the always-on rule came again");
  assert.equal(count(context, "widget.mdc"), 1, "the keyword rule came again");
  assert.equal(
    count(context, "model.mdc"),
    1,
    "the ephemeral rule came with this prompt, the earlier ones compacted away",
  );
  assert.equal(count(context, "typescript.mdc"), 0, "no edit matched it since");
});

test("installed from the marketplace in a checkout, the mod loads without --plugin-dir", async () => {
  // Claude Code copies a local plugin folder whole when it installs it:
  // install a checkout holding only the repository's files, no build output.
  const checkout = join(home, "checkout");
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const path of tracked) {
    if (!existsSync(join(REPO, path))) continue;
    mkdirSync(dirname(join(checkout, path)), { recursive: true });
    copyFileSync(join(REPO, path), join(checkout, path));
  }
  const config = join(home, "installed-config");
  mkdirSync(config);
  const cli = (args) =>
    execFileSync(CLAUDE, args, {
      env: { ...process.env, CLAUDE_CONFIG_DIR: config },
      encoding: "utf8",
    });
  assert.match(cli(["plugin", "marketplace", "add", checkout]), /rule-fairy/);
  assert.match(cli(["plugin", "install", "rule-fairy@rule-fairy"]), /installed/i);
  const before = mock.requests.length;
  const result = await claude({
    args: ["a widget please"],
    cwd: project,
    config,
    mockUrl: mock.url,
    debugFile: debugFile(),
    pluginDir: null,
  });
  assert.equal(result.code, 0, result.stderr);
  const context = hookContext(mock.requests[before]);
  assert.equal(count(context, "always.mdc"), 1);
  assert.equal(count(context, "widget.mdc"), 1);
  assert.match(readFileSync(debugFile(), "utf8"), /hooks module rule-fairy@rule-fairy loaded/);
});

test("a rule importing a missing document is named, and the others still arrive", async () => {
  // Its own project: an always-on rule whose import is missing used to
  // fail the whole delivery, so no rule came with any prompt.
  const broken = join(home, "broken-project");
  write(broken, {
    ".cursor/rules/always.mdc": RULES[".cursor/rules/always.mdc"],
    ".cursor/rules/widget.mdc": RULES[".cursor/rules/widget.mdc"],
    ".cursor/rules/broken.mdc":
      "---\nalwaysApply: true\n---\n# Broken\n\nBroken rule body.\n\n@docs/missing.md\n",
  });
  execFileSync("git", ["init", "-q"], { cwd: broken, stdio: "ignore" });
  const before = mock.requests.length;
  const result = await claude({
    args: ["a widget despite the broken rule"],
    cwd: broken,
    config: join(home, "config"),
    mockUrl: mock.url,
    debugFile: debugFile(),
  });
  assert.equal(result.code, 0, result.stderr);
  const context = hookContext(mock.requests[before]);
  assert.equal(count(context, "always.mdc"), 1, "the other always-on rule arrived");
  assert.equal(count(context, "widget.mdc"), 1, "the keyword rule arrived");
  assert.equal(count(context, "broken.mdc"), 0, "the broken rule is not marked as injected");
  assert.doesNotMatch(context, /Broken rule body\./);
  const named =
    "- .cursor/rules/broken.mdc:8: broken.mdc: Rule import does not exist: docs/missing.md";
  assert.ok(
    context.includes(`[rule-fairy error: 1 broken rule left out: broken.mdc]\n${named}\n`),
    context,
  );
  // The person sees one transcript line naming it.
  const logs = result.events.filter((e) => e.type === "system" && e.subtype === "ui_log");
  assert.ok(
    logs.some((e) => e.text === `rule-fairy: 1 broken rule left out: ${named.slice(2)}`),
    JSON.stringify(logs),
  );
  const sessionOf = result.events.find((e) => e.session_id !== undefined)?.session_id;
  const state = JSON.parse(
    readFileSync(join(broken, `.rule-fairy/claude/${sessionOf}.json`), "utf8"),
  );
  assert.deepEqual(Object.keys(state.delivered).sort(), ["always.mdc", "widget.mdc"]);
});

test("a requestable rule is offered in the index, comes rendered when its file is Read, and a mention brings a rule with no trigger", async () => {
  // A project of its own, with its own scripted model (behaviour §9).
  const root = join(home, "requested");
  write(root, {
    ".cursor/rules/ops/release-checklist.mdc":
      "---\ndescription: Steps before tagging a release\nglobs:\nalwaysApply: false\n---\n# Release\n\nBump the version first.\n\n@docs/release.md#tagging",
    ".cursor/rules/manual.mdc": "# Manual\n\nWrite the changelog by hand.",
    "docs/release.md": "# Release\n\n## Tagging\n\nSign every tag.\n\n## Other\n\nNot imported.\n",
  });
  const git = (args) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git(["init", "-q"]);
  git(["add", "-A"]);
  git(["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "start"]);
  const rule = join(root, ".cursor/rules/ops/release-checklist.mdc");
  const own = await startMock([
    {
      prompt: "prepare the release",
      turns: [{ tool: "Read", input: { file_path: rule } }, { text: "Ready." }],
    },
    { prompt: "use @manual", turns: [{ text: "Noted." }] },
  ]);
  const config = join(home, "requested-config");
  mkdirSync(config);
  const session = (args) =>
    claude({ args, cwd: root, config, mockUrl: own.url, debugFile: debugFile() });
  try {
    const first = await session(["prepare the release"]);
    assert.equal(first.code, 0, first.stderr);
    const [afterPrompt, afterRead] = own.requests.map(hookContext);
    const indexed =
      "- `ops/release-checklist.mdc` (`.cursor/rules/ops/release-checklist.mdc`): Steps before tagging a release";
    assert.ok(afterPrompt.includes(indexed), "the first prompt carries the index entry");
    assert.match(afterPrompt, /\[rule-fairy injected: index of requestable rules [0-9a-f]{8}\]/);
    assert.doesNotMatch(afterPrompt, /Sign every tag/, "the index, not the rule");
    assert.equal(count(afterRead, "ops/release-checklist.mdc"), 1, "the Read brought the rule");
    assert.match(
      afterRead,
      /\[rule-fairy matched: requested by reading \.cursor\/rules\/ops\/release-checklist\.mdc\]/,
    );
    assert.match(afterRead, /Sign every tag\./, "with the section it imports");
    assert.doesNotMatch(afterRead, /Not imported\./);

    const id = first.events.find((event) => event.session_id !== undefined)?.session_id;
    assert.ok(id, "the session has an id");
    const before = own.requests.length;
    const second = await session(["use @manual for the notes", "--resume", id]);
    assert.equal(second.code, 0, second.stderr);
    const context = hookContext(own.requests[before]);
    assert.equal(count(context, "manual.mdc"), 1, "the mention brought the rule");
    assert.match(context, /\[rule-fairy matched: mention @manual\]/);
    assert.match(context, /Write the changelog by hand\./);
    assert.equal(
      (context.match(/\[rule-fairy injected: index of requestable rules /g) ?? []).length,
      1,
      "the index is in the conversation once, not sent again",
    );
    assert.doesNotMatch(context, /rule-fairy error/);
  } finally {
    await own.close();
  }
});

test("a nested folder's always-on rule comes with a Read below it, its glob rule with an edit there, neither for the same path at the root", async () => {
  // Its own project and script: a root rule, a nested `.cursor/rules`
  // in packages/web, and the same relative file at the root and there.
  const monorepo = join(home, "monorepo");
  const WEB_UI = "Web UI: components are functions.";
  const WEB_ALWAYS = "Web always: run the web tests.";
  write(monorepo, {
    ".cursor/rules/root.mdc": "---\nalwaysApply: true\n---\n# Root\n\nRoot rule.",
    "packages/web/.cursor/rules/ui.mdc": `---\nglobs: src/**\n---\n# Web UI\n\n${WEB_UI}`,
    "packages/web/.cursor/rules/always.mdc": `---\nalwaysApply: true\n---\n# Web always\n\n${WEB_ALWAYS}`,
    "src/app.ts": "export const root = 1\n",
    "packages/web/src/app.ts": "export const web = 1\n",
  });
  execFileSync("git", ["init", "-q"], { cwd: monorepo });
  const rootApp = join(monorepo, "src/app.ts");
  const webApp = join(monorepo, "packages/web/src/app.ts");
  const nested = await startMock([
    {
      prompt: "edit both apps",
      turns: [
        { tool: "Read", input: { file_path: rootApp } },
        { tool: "Edit", input: { file_path: rootApp, old_string: "= 1", new_string: "= 2" } },
        { tool: "Read", input: { file_path: webApp } },
        { tool: "Edit", input: { file_path: webApp, old_string: "= 1", new_string: "= 2" } },
        { text: "Edited." },
      ],
    },
  ]);
  try {
    const result = await claude({
      args: ["edit both apps", "--permission-mode", "acceptEdits"],
      cwd: monorepo,
      config: join(home, "config"),
      mockUrl: nested.url,
      debugFile: debugFile(),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(webApp, "utf8"), "export const web = 2\n", "both Edits ran");
    assert.equal(nested.requests.length, 5, "one request per assistant turn");
    const [afterPrompt, afterRootRead, afterRootEdit, afterWebRead, afterWebEdit] =
      nested.requests.map(hookContext);
    const UI = "packages/web/.cursor/rules/ui.mdc";
    const ALWAYS = "packages/web/.cursor/rules/always.mdc";
    assert.equal(count(afterPrompt, "root.mdc"), 1);
    assert.equal(count(afterPrompt, UI), 0, "a nested glob rule does not come with a prompt");
    assert.equal(count(afterPrompt, ALWAYS), 0, "nor a nested always-on rule");
    assert.equal(count(afterRootRead, ALWAYS), 0, "src/app.ts at the root is not below the folder");
    assert.equal(count(afterWebRead, ALWAYS), 1, "the Read below the folder brought it");
    assert.match(
      afterWebRead,
      /\[rule-fairy matched: alwaysApply in a nested folder, on reading packages\/web\/src\/app\.ts\]/,
    );
    assert.ok(afterWebRead.includes(WEB_ALWAYS), "with its body");
    assert.equal(count(afterWebRead, UI), 0, "a Read brings no glob rule");
    assert.equal(count(afterWebEdit, ALWAYS), 1, "held: the Edit does not bring it again");
    assert.equal(count(afterRootEdit, UI), 0, "src/app.ts at the root is not below the folder");
    assert.equal(count(afterWebEdit, UI), 1);
    assert.match(afterWebEdit, /\[rule-fairy matched: glob on packages\/web\/src\/app\.ts\]/);
    assert.ok(afterWebEdit.includes(WEB_UI), "the rule's body came with the Edit below it");
    assert.doesNotMatch(afterWebEdit, /rule-fairy error/);
  } finally {
    await nested.close();
  }
});

test("a subagent gets the always-on and keyword rules with its task, and a glob rule with its edit although the main thread held it", async () => {
  // A project and a script of its own: the main thread edits a matched
  // file, hands a task naming a keyword to a subagent (in line), the
  // subagent edits another matched file, and the main thread edits a third.
  const root = join(home, "subagents");
  write(root, {
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\n# Always\n\nAlways rule body.",
    ".cursor/rules/widget.mdc": "---\npromptAnyOf: widget\n---\n# Widget\n\nWidget rule body.",
    ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\n# TypeScript\n\nTypeScript rule body.",
  });
  execFileSync("git", ["init", "-q"], { cwd: root });
  const TASK = "Shrink the widget in src/b.ts";
  const file = (name) => join(root, "src", name);
  const own = await startMock([
    // The subagent's script first: the main thread's later requests hold
    // the task too, in the Agent call's input, but not as their prompt.
    {
      prompt: TASK,
      turns: [
        { tool: "Write", input: { file_path: file("b.ts"), content: "export const b = 1\n" } },
        { text: "Shrunk." },
      ],
    },
    {
      prompt: "delegate the work",
      turns: [
        { tool: "Write", input: { file_path: file("a.ts"), content: "export const a = 1\n" } },
        {
          tool: "Agent",
          input: {
            description: "shrink",
            prompt: TASK,
            subagent_type: "general-purpose",
            run_in_background: false,
          },
        },
        { tool: "Write", input: { file_path: file("c.ts"), content: "export const c = 1\n" } },
        { text: "Done." },
      ],
    },
  ]);
  try {
    const result = await claude({
      args: ["delegate the work", "--permission-mode", "acceptEdits"],
      cwd: root,
      config: join(home, "config"),
      mockUrl: own.url,
      debugFile: debugFile(),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(file("c.ts"), "utf8"), "export const c = 1\n", "every Write ran");
    const isSubagent = (request) =>
      JSON.stringify(request.system ?? "").includes("cc_is_subagent=true");
    const sub = own.requests.filter(isSubagent);
    const main = own.requests.filter((request) => !isSubagent(request));
    assert.equal(sub.length, 2, "the subagent's two turns");
    assert.equal(main.length, 4, "the main thread's four turns");
    const all = (request) => JSON.stringify(request.messages);
    // The task comes with the always-on rule and the keyword it names.
    assert.equal(
      count(all(sub[0]), "always.mdc"),
      1,
      "the subagent's first request holds the always-on rule",
    );
    assert.equal(count(all(sub[0]), "widget.mdc"), 1, "and the keyword rule its task names");
    assert.ok(all(sub[0]).includes("Widget rule body."), "with its body");
    assert.equal(count(all(sub[0]), "ts.mdc"), 0, "not yet the glob rule");
    // The main thread held ts.mdc since its first edit; the subagent gets it with its own.
    assert.equal(count(hookContext(main[1]), "ts.mdc"), 1, "the main thread's edit brought ts.mdc");
    assert.equal(
      count(hookContext(sub[1]), "ts.mdc"),
      1,
      "the subagent's edit brought it to the subagent",
    );
    assert.match(hookContext(sub[1]), /\[rule-fairy matched: glob on src\/b\.ts\]/);
    // The main thread's later edit: held there still, not sent again.
    assert.equal(
      count(hookContext(main[3]), "ts.mdc"),
      1,
      "the main thread's next edit is unaffected",
    );
    assert.doesNotMatch(all(main[3]), /rule-fairy error/);
    assert.doesNotMatch(all(sub[1]), /rule-fairy error/);
    // The person's lines name the subagent's deliveries as its own.
    const lines = result.events
      .filter((e) => e.type === "system" && e.subtype === "ui_log")
      .map((e) => e.text);
    assert.ok(
      lines.includes(
        'Rule Fairy (new subagent): always.mdc (always on), widget.mdc (keyword "widget")',
      ),
      JSON.stringify(lines),
    );
    assert.ok(
      lines.some((line) => /^Rule Fairy \(subagent [^)]+\): ts\.mdc \(glob /.test(line)),
      JSON.stringify(lines),
    );
    // Each conversation has its own record.
    const id = result.events.find((event) => event.session_id !== undefined)?.session_id;
    const states = readdirSync(join(root, ".rule-fairy/claude")).filter((name) =>
      name.endsWith(".json"),
    );
    assert.ok(states.includes(`${id}.json`), JSON.stringify(states));
    assert.ok(
      states.some((name) => name.startsWith(`${id}.agent-`)),
      JSON.stringify(states),
    );
  } finally {
    await own.close();
  }
});

test("instruction files Claude Code does not load come with the edit or shell change below them, and those it loaded are not repeated", async () => {
  // Its own project: a nested AGENTS.md (which Claude Code never reads
  // below the root), a nested CLAUDE.md importing a file (which it reads
  // for its own tools, not for a shell change), and one it attaches itself
  // after a Read.
  const root = join(home, "instructions");
  const API = "API agents: every handler validates its input.";
  const BILLING = "Billing: amounts are integers of cents.";
  const NOTES = "Billing notes: rounding is banker's.";
  const SHIPPING = "Shipping: weights are grams.";
  write(root, {
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\n# Always\n\nAlways.",
    "services/api/AGENTS.md": API,
    "services/billing/CLAUDE.md": `${BILLING}\n\nSee @notes.md.`,
    "services/billing/notes.md": NOTES,
    "services/shipping/CLAUDE.md": SHIPPING,
    "services/shipping/rates.ts": "export const rate = 1\n",
  });
  const git = (args) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git(["init", "-q"]);
  git(["add", "-A"]);
  git(["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-qm", "start"]);
  const own = await startMock([
    {
      prompt: "touch the services",
      turns: [
        {
          tool: "Bash",
          input: { command: "printf x > services/billing/run.ts", description: "Write" },
        },
        {
          tool: "Write",
          input: { file_path: join(root, "services/api/h.ts"), content: "export const h = 1\n" },
        },
        { tool: "Read", input: { file_path: join(root, "services/shipping/rates.ts") } },
        {
          tool: "Bash",
          input: { command: "printf x > services/shipping/run.ts", description: "Write" },
        },
        { text: "Touched." },
      ],
    },
  ]);
  try {
    const result = await claude({
      args: ["touch the services", "--permission-mode", "acceptEdits", "--allowedTools", "Bash"],
      cwd: root,
      config: join(home, "config"),
      mockUrl: own.url,
      debugFile: debugFile(),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(own.requests.length, 5, "one request per assistant turn");
    const all = own.requests.map((request) => JSON.stringify(request.messages));
    const [, afterShell, afterWrite, afterRead, afterShipping] = own.requests.map(hookContext);
    for (const text of [BILLING, NOTES, API]) {
      assert.ok(!all[0].includes(text), `the first request does not hold ${text}`);
    }
    // The shell change: the CLAUDE.md and its import, each a file of its own.
    assert.equal(count(afterShell, "instruction file services/billing/CLAUDE.md"), 1);
    assert.equal(count(afterShell, "instruction file services/billing/notes.md"), 1);
    assert.ok(afterShell.includes(BILLING) && afterShell.includes(NOTES), "with their text");
    assert.match(
      afterShell,
      /\[rule-fairy matched: instruction files Claude Code did not load, for services\/billing\/run\.ts, changed by a shell command\]/,
    );
    // The Write: the AGENTS.md Claude Code does not read below the root.
    assert.equal(count(afterWrite, "instruction file services/api/AGENTS.md"), 1);
    assert.ok(afterWrite.includes(API));
    // The Read: Claude Code attached the shipping CLAUDE.md itself ...
    assert.ok(all[3].includes(`Contents of ${join(root, "services/shipping/CLAUDE.md")}`));
    // ... so the shell change there brings nothing more.
    assert.equal(count(afterShipping, "instruction file services/shipping/CLAUDE.md"), 0);
    assert.equal(
      all[4].split(SHIPPING).length - 1,
      1,
      "the shipping file once, as Claude Code put it",
    );
    for (const text of [BILLING, NOTES, API]) {
      assert.equal(all[4].split(text).length - 1, 1, `${text} once in the last request`);
    }
    assert.equal(count(afterRead, "instruction file services/api/AGENTS.md"), 1);
    assert.doesNotMatch(all[4], /rule-fairy error/);
  } finally {
    await own.close();
  }
});

test("/rule-fairy:status runs status and doctor through the skill's launcher, and the model reads what the session received", async () => {
  assert.ok(sessionId, "the first session ran");
  const launcher = join(REPO, "skills/status/scripts/run");
  // The model follows the skill: both commands as SKILL.md writes them.
  script.push({
    prompt: "What this session received",
    turns: [
      {
        tool: "Bash",
        input: {
          command: `"${launcher}" status --host claude --session ${sessionId}`,
          description: "What this session received",
        },
      },
      { tool: "Bash", input: { command: `"${launcher}" doctor`, description: "Doctor" } },
      { text: "This session received five rules; nothing is broken." },
    ],
  });
  const before = mock.requests.length;
  const result = await run([
    "/rule-fairy:status",
    "--resume",
    sessionId,
    "--permission-mode",
    "acceptEdits",
    "--allowedTools",
    "Bash",
  ]);
  assert.equal(result.code, 0, result.stderr);
  const asked = mock.requests.slice(before).map((r) => JSON.stringify(r.messages));
  assert.equal(asked.length, 3, "one request per assistant turn");
  // Claude Code handed the model the skill, with this session's id in it.
  assert.ok(asked[0].includes(`--session ${sessionId}`), "the skill's session id was filled in");
  // What `status` printed reached the model: this session and its rules.
  assert.ok(asked[1].includes(`Claude Code session ${sessionId}`), asked[1].slice(-2000));
  assert.match(asked[1], /typescript\.mdc \(glob `src\/\*\*\/\*\.ts` on src\/app\.ts\)/);
  assert.match(asked[1], /notes\.mdc \(glob `notes\/\*\*` on notes\/today\.md\)/);
  // And then what `doctor` printed.
  assert.match(asked[2], /ok {6}version: rule-fairy \d/);
  assert.match(asked[2], /gate: 1 ast-grep rule/);
});
