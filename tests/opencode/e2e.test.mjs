// Whole opencode sessions on a copy of examples/webshop, against the mock
// model server: what reaches the model (the request bodies) and what the
// person is shown (opencode's toasts), for a keyword prompt, an edit held
// to the gate, a shell change, a subagent, a compaction, and broken input.
// Run by tests/opencode/run with RULE_FAIRY_BIN naming the program the
// gate check runs.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startMock, textOf } from "./mock-openai.mjs";
import { configure, REPO, serve } from "./session.mjs";

const scratch = mkdtempSync(join(tmpdir(), "rule-fairy-opencode-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A git checkout of the example project, as a person's would be. */
function webshop(name) {
  const project = join(scratch, name);
  cpSync(join(REPO, "examples/webshop"), project, {
    recursive: true,
    filter: (path) => !path.includes(`${join("webshop", ".rule-fairy")}`),
  });
  const git = (...args) => execFileSync("git", args, { cwd: project, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start");
  return project;
}

/** opencode serving a git copy of the example project with `files`
 * written into it (and `homeFiles` into its home), against a fresh mock. */
async function opencodeOn(name, files = {}, homeFiles = {}) {
  const project = webshop(name);
  const home = join(scratch, `home-${name}`);
  for (const [root, written] of [
    [project, files],
    [home, homeFiles],
  ]) {
    for (const [path, text] of Object.entries(written)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  }
  const mock = await startMock();
  configure(project, mock.port);
  const oc = await serve(project, home);
  return {
    project,
    mock,
    oc,
    close: async () => {
      await oc.close();
      await mock.close();
    },
  };
}

/** The model requests (tools offered: the agent's own calls, not a title
 * or a summary) made since `from`. */
function agentRequests(mock, from = 0) {
  return mock.requests.slice(from).filter((r) => (r.body.tools ?? []).length > 0);
}

/** Every text the request sends, its system prompt left out. */
function sent(request) {
  return request.body.messages
    .filter((m) => m.role !== "system")
    .map((m) => textOf(m))
    .join("\n");
}

/** What a prompt brings in this project: Cursor's always-on and keyword
 * rules, opencode-rules' project rule and its global one. */
const PROMPT_RULES = ["base.mdc", "review.md", "testing.mdc", "~/.config/opencode/rules/house.md"];

const injected = (text) =>
  [...text.matchAll(/\[rule-fairy injected: ([^\]]+)\]/g)].map((m) => m[1]);

describe("an opencode session on the example project", () => {
  let run;
  let mock;
  let oc;
  let session;
  before(async () => {
    // A rule kept for opencode-rules, in the project and in its global
    // directory, and an AGENTS.md opencode loads only when it reads there.
    run = await opencodeOn(
      "webshop",
      {
        ".opencode/rules/review.md": "Ask for a review of every change.\n",
        "src/api/AGENTS.md": "# API notes\n\nEvery handler logs its errors.\n",
      },
      { ".config/opencode/rules/house.md": "Write in plain words.\n" },
    );
    ({ mock, oc } = run);
    session = await oc.newSession();
  });
  after(() => run?.close());

  test("a prompt brings the always-on rules of every source and the keyword's rule, and the person is told", async () => {
    const from = mock.requests.length;
    await oc.prompt(session, "please add a test for the orders API");
    const [first] = agentRequests(mock, from);
    assert.ok(first, "no model request");
    const last = first.body.messages.at(-1);
    assert.equal(last.role, "user");
    assert.deepEqual(injected(textOf(last)), PROMPT_RULES);
    assert.match(textOf(last), /Money is an integer number of cents/);
    assert.match(textOf(last), /Write in plain words/);
    assert.ok(
      oc.toasts.includes(
        'Rule Fairy: base.mdc (always on), review.md (always on), testing.mdc (keyword "test"), ~/.config/opencode/rules/house.md (always on)',
      ),
      `toasts: ${JSON.stringify(oc.toasts)}`,
    );
  });

  test("an edit brings the glob's rule, the AGENTS.md opencode did not load, and the gate's finding", async () => {
    const from = mock.requests.length;
    const content = [
      "export async function refund(id: string) {",
      "  try {",
      "    return { status: 200, body: await pay(id) };",
      "  } catch (err) {",
      "    return { status: 500, body: err };",
      "  }",
      "}",
      "",
    ].join("\n");
    const args = JSON.stringify({ filePath: "src/api/refunds.ts", content });
    await oc.prompt(session, `write the refund code [[tool:write ${args}]]`);
    const requests = agentRequests(mock, from);
    const result = requests.at(-1).body.messages.find((m) => m.role === "tool");
    assert.ok(result, "the tool's result did not reach the model");
    assert.deepEqual(injected(textOf(result)), [
      "api/handlers.mdc",
      "instruction file src/api/AGENTS.md",
    ]);
    assert.match(textOf(result), /Every handler logs its errors/);
    // The rule imports a section of the project's documentation.
    assert.match(textOf(result), /Required context: `docs\/api-guide\.md#error-responses`/);
    assert.match(textOf(result), /no-raw-error-response/);
    // The prompt's own rules were held: the conversation has them.
    assert.deepEqual(injected(textOf(requests[0].body.messages.at(-1))), []);
  });

  test("a shell command that writes a migration brings the migrations rule", async () => {
    const from = mock.requests.length;
    const args = JSON.stringify({
      command: "printf 'create table refunds (id int);\\n' > db/migrations/002_refunds.sql",
      description: "Adds a migration",
    });
    await oc.prompt(session, `add the table [[tool:bash ${args}]]`);
    const result = agentRequests(mock, from)
      .at(-1)
      .body.messages.findLast((m) => m.role === "tool");
    assert.deepEqual(injected(textOf(result)), ["db/migrations.mdc"]);
  });

  test("a subagent gets the rules for its task in its own session", async () => {
    const from = mock.requests.length;
    const args = JSON.stringify({
      description: "Write tests",
      prompt: "write a vitest test for refunds",
      subagent_type: "general",
    });
    await oc.prompt(session, `delegate it [[tool:task ${args}]]`);
    const child = agentRequests(mock, from).find((r) =>
      textOf(r.body.messages.at(-1)).startsWith("write a vitest test for refunds"),
    );
    assert.ok(child, "the subagent made no request");
    const task = child.body.messages.at(-1);
    assert.deepEqual(injected(textOf(task)), PROMPT_RULES);
    assert.ok(
      oc.toasts.some((t) => /^Rule Fairy \(subagent [^)]+\): base\.mdc/.test(t)),
      `toasts: ${JSON.stringify(oc.toasts)}`,
    );
  });

  test("after a compaction the rules come again", async () => {
    const before = agentRequests(mock);
    assert.deepEqual(
      injected(textOf(before.at(-1).body.messages.findLast((m) => m.role === "user"))),
      [],
    );
    await oc.summarize(session);
    const from = mock.requests.length;
    await oc.prompt(session, "now the test for payments");
    const [first] = agentRequests(mock, from);
    assert.deepEqual(injected(sent(first)), PROMPT_RULES);
  });

  test("each session's record is kept under .rule-fairy/opencode", () => {
    const files = readdirSync(join(run.project, ".rule-fairy/opencode"));
    assert.ok(files.includes(`${session}.json`), files.join(", "));
    assert.ok(
      files.some((f) => f.startsWith(`${session}.agent-`)),
      files.join(", "),
    );
  });
});

describe("rules on per-turn facts, requestable rules and mentions", () => {
  let run;
  let mock;
  let oc;
  before(async () => {
    run = await opencodeOn("per-turn", {
      ".cursor/rules/build-agent.mdc":
        "---\nagent: [build]\n---\nThe build agent commits nothing.\n",
      ".cursor/rules/deploy.mdc":
        "---\ndescription: How the shop is deployed\n---\nDeploy with the blue-green script only.\n",
    });
    ({ mock, oc } = run);
  });
  after(() => run?.close());

  test("come with every model call of their turn and are never kept", async () => {
    const session = await oc.newSession();
    const from = mock.requests.length;
    const args = JSON.stringify({ command: "true", description: "Nothing" });
    await oc.prompt(session, `check [[tool:bash ${args}]]`);
    const requests = agentRequests(mock, from);
    assert.equal(requests.length, 2, "a tool call and the answer after it");
    for (const request of requests) {
      assert.match(sent(request), /The build agent commits nothing/);
    }
    const kept = JSON.stringify(await oc.messages(session));
    assert.doesNotMatch(kept, /The build agent commits nothing/);
    assert.match(kept, /Money is an integer number of cents/);
    // The next turn gets them again; the durable rule it holds does not come again.
    const next = mock.requests.length;
    await oc.prompt(session, "and now?");
    const [again] = agentRequests(mock, next);
    assert.deepEqual(injected(textOf(again.body.messages.at(-1))), ["build-agent.mdc"]);
  });
  test("the index lists a requestable rule, and reading its file brings it", async () => {
    const session = await oc.newSession();
    const from = mock.requests.length;
    const args = JSON.stringify({ filePath: join(run.project, ".cursor/rules/deploy.mdc") });
    await oc.prompt(session, `how do we ship? [[tool:read ${args}]]`);
    const requests = agentRequests(mock, from);
    const prompt = textOf(requests[0].body.messages.at(-1));
    assert.match(prompt, /# Requestable rules/);
    assert.match(
      prompt,
      /- `deploy\.mdc` \(`\.cursor\/rules\/deploy\.mdc`\): How the shop is deployed/,
    );
    assert.doesNotMatch(prompt, /blue-green/);
    const result = requests.at(-1).body.messages.findLast((m) => m.role === "tool");
    assert.deepEqual(injected(textOf(result)), ["deploy.mdc"]);
    assert.match(textOf(result), /\[rule-fairy matched: requested by reading/);
  });

  test("a prompt that mentions a rule brings it", async () => {
    const session = await oc.newSession();
    const from = mock.requests.length;
    await oc.prompt(session, "follow @deploy for this");
    const [first] = agentRequests(mock, from);
    assert.ok(injected(textOf(first.body.messages.at(-1))).includes("deploy.mdc"));
    assert.match(textOf(first.body.messages.at(-1)), /blue-green/);
  });
});

describe("broken input", () => {
  let run;
  let mock;
  let oc;
  let project;
  before(async () => {
    run = await opencodeOn("broken", {
      ".cursor/rules/broken.mdc":
        "---\ndescription: broken\nglobs: src/[unclosed\nalwaysApply: false\n---\nbody\n",
      ".cursor/rules/db/seeds.mdc":
        "---\ndescription: Seed data\nglobs: db/seeds/*.sql\n---\nSeeds are small.\n\n@docs/missing.md#setup\n",
    });
    ({ mock, oc, project } = run);
  });
  after(() => run?.close());

  test("a broken rule is named to the person and the model, and the other rules still come", async () => {
    const session = await oc.newSession();
    const from = mock.requests.length;
    const args = JSON.stringify({ filePath: "src/api/x.ts", content: "export const x = 1;\n" });
    await oc.prompt(session, `a test please [[tool:write ${args}]]`);
    const requests = agentRequests(mock, from);
    assert.deepEqual(injected(textOf(requests[0].body.messages.at(-1))), [
      "base.mdc",
      "testing.mdc",
    ]);
    const result = requests.at(-1).body.messages.find((m) => m.role === "tool");
    assert.ok(injected(textOf(result)).includes("api/handlers.mdc"));
    assert.match(textOf(result), /broken\.mdc/);
    assert.ok(
      oc.toasts.some((t) => t.includes("broken.mdc")),
      JSON.stringify(oc.toasts),
    );
  });

  test("a rule whose document is missing is told, and the session goes on", async () => {
    const session = await oc.newSession();
    const from = mock.requests.length;
    const args = JSON.stringify({
      filePath: "db/seeds/1.sql",
      content: "insert into t values (1);\n",
    });
    await oc.prompt(session, `seed it [[tool:write ${args}]]`);
    const requests = agentRequests(mock, from);
    const result = requests.at(-1).body.messages.findLast((m) => m.role === "tool");
    assert.match(textOf(result), /Wrote file successfully/);
    assert.match(textOf(result), /db\/seeds\.mdc/);
    assert.match(textOf(result), /docs\/missing\.md/);
    assert.ok(
      oc.toasts.some((t) => t.includes("db/seeds.mdc")),
      JSON.stringify(oc.toasts),
    );
    // The session goes on: the next prompt is answered with its rules.
    const next = mock.requests.length;
    await oc.prompt(session, "and a test");
    assert.ok(injected(sent(agentRequests(mock, next)[0])).includes("testing.mdc"));
  });

  test("a corrupt state file is kept aside and the session goes on", async () => {
    const session = await oc.newSession();
    const state = join(project, ".rule-fairy/opencode", `${session}.json`);
    writeFileSync(state, "{ not json");
    const from = mock.requests.length;
    await oc.prompt(session, "another test");
    const [first] = agentRequests(mock, from);
    assert.ok(injected(sent(first)).includes("testing.mdc"));
    const files = readdirSync(join(project, ".rule-fairy/opencode"));
    assert.ok(files.includes(`${session}.json.corrupt`), files.join(", "));
  });
});
