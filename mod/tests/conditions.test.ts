import { expect, test } from "claude-code/testing";
import { conversation, injected, reminder, ROOT, world } from "./world";

const prompt = (text: string, command?: string) =>
  ({
    text,
    wait: false,
    origin: { kind: "composer" },
    ...(command === undefined ? {} : { command: { name: command, args: "" } }),
  }) as const;

test("a durable and an ephemeral rule over two prompts and a compaction", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base rule",
    ".cursor/rules/opus.mdc": "---\nmodel: [claude-opus-5-5]\n---\n# Opus rule",
  });
  const first = await $.prompt.submit(prompt("hello"));
  expect(injected(first.context)).toEqual(["base.mdc", "opus.mdc"]);
  // Only the durable rule is recorded.
  expect(Object.keys(w.state()?.delivered as object)).toEqual(["base.mdc"]);

  // Both are in the conversation and were delivered a second ago: the
  // ephemeral rule comes again all the same, the durable one does not.
  w.messages = conversation(reminder("prompt.submit", first.context ?? []));
  await w.clock.advance(1_000);
  const second = await $.prompt.submit(prompt("more"));
  expect(injected(second.context)).toEqual(["opus.mdc"]);
  expect(second.context?.[0]).toContain("# Opus rule");

  w.messages = conversation(
    reminder("prompt.submit", first.context ?? []),
    reminder("prompt.submit", second.context ?? []),
  );
  await w.clock.advance(1_000);
  await $.session.compact({
    trigger: "manual",
    messages: [{ role: "user", text: "earlier", toolUses: [] }],
  } as never);
  const third = await $.prompt.submit(prompt("after the compaction"));
  expect(injected(third.context)).toEqual(["base.mdc", "opus.mdc"]);
  expect(Object.keys(w.state()?.delivered as object)).toEqual(["base.mdc"]);
});

test("the model and the platform the session reports reach the conditions", async ($, on) => {
  const rules = {
    ".cursor/rules/opus.mdc": "---\nmodel: [claude-opus-5-5]\n---\n# Opus",
    ".cursor/rules/sonnet.mdc": "---\nmodel: [claude-sonnet-4-5]\n---\n# Sonnet",
    ".cursor/rules/linux.mdc": "---\nos: linux\n---\n# Linux",
    ".cursor/rules/mac.mdc": "---\nos: macos\n---\n# Mac",
  };
  const w = world(on, rules);
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual([
    "linux.mdc",
    "opus.mdc",
  ]);
  expect(w.asked).toEqual(["session.model", "session.info"]);

  // Another session, on a Mac, with another model.
  w.sessionId = "b2b6c7d8-0000-4000-8000-000000000002";
  w.platform = "macos";
  w.model = "claude-sonnet-4-5";
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual([
    "mac.mdc",
    "sonnet.mdc",
  ]);

  // WSL runs Linux programs; a platform Claude Code cannot tell is no fact.
  w.sessionId = "b2b6c7d8-0000-4000-8000-000000000003";
  w.platform = "wsl";
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual([
    "linux.mdc",
    "sonnet.mdc",
  ]);
  w.sessionId = "b2b6c7d8-0000-4000-8000-000000000004";
  w.platform = "unknown";
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual(["sonnet.mdc"]);
});

test("facts no rule tests are never asked for", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base",
    ".cursor/rules/ts.mdc": "---\nglobs: src/**\n---\n# TS",
  });
  await $.prompt.submit(prompt("hi"));
  await $.tool.call({ tool: "Write", file_path: `${ROOT}/src/a.ts`, content: "x" });
  expect(w.asked).toEqual([]);
  expect(w.runs.filter((argv) => argv[1] === "symbolic-ref")).toEqual([]);
  // No rule tests contents: the edited file is not read.
  expect(w.reads).not.toContain(`${ROOT}/src/a.ts`);
});

test("every CI variable the mod reads says a CI run, as the engine reads it", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/ci.mdc": "---\nci: true\n---\n# CI run",
    ".cursor/rules/local.mdc": "---\nci: false\n---\n# Local run",
  });
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual(["local.mdc"]);
  // The names the mod read; the engine's list is held to them by the wasm
  // crate's tests (each must be read by a literal name).
  const names = w.asked
    .filter((asked) => asked.startsWith("env.get "))
    .map((asked) => asked.slice("env.get ".length));
  expect(names[0]).toBe("CI");
  expect(names).toContain("GITHUB_ACTIONS");
  for (const [index, name] of names.entries()) {
    w.sessionId = `c1c1c1c1-0000-4000-8000-${String(index).padStart(12, "0")}`;
    w.env = { [name]: "true" };
    expect({ name, rules: injected((await $.prompt.submit(prompt("hi"))).context) }).toEqual({
      name,
      rules: ["ci.mdc"],
    });
  }
  // `CI` decides when it is set.
  w.sessionId = "c1c1c1c1-0000-4000-8000-100000000000";
  w.env = { CI: "false", GITHUB_ACTIONS: "true" };
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual(["local.mdc"]);
});

test("project tags come from the marker files, read once until they change", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/node.mdc": "---\nproject: node\n---\n# Node",
    ".cursor/rules/ext.mdc": "---\nproject: browser-extension\n---\n# Extension",
    "package.json": '{"name": "shop"}',
  });
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual(["node.mdc"]);
  const markerReads = () =>
    w.reads.filter((path) => path === `${ROOT}/package.json` || path === `${ROOT}/manifest.json`)
      .length;
  expect(markerReads()).toBe(1);
  w.write("manifest.json", '{"manifest_version": 3, "action": {}}');
  await w.clock.advance(61_000);
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual(["ext.mdc", "node.mdc"]);
  expect(markerReads()).toBe(2);
});

test("the branch is asked of git only when a rule names one, every prompt", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/feature.mdc": "---\nbranch: feature/*\n---\n# Feature work",
  });
  w.branch = "feature/login";
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual(["feature.mdc"]);
  expect(w.runs).toContainEqual(["git", "symbolic-ref", "--quiet", "--short", "HEAD"]);
  w.branch = "feature/a/b";
  expect((await $.prompt.submit(prompt("hi"))).context ?? []).toEqual([]);
  // Detached: no branch, no match.
  w.branch = undefined;
  expect((await $.prompt.submit(prompt("hi"))).context ?? []).toEqual([]);
  w.branch = "feature/pay";
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual(["feature.mdc"]);
});

test("tools the session lists, the agent it runs as, and the slash command", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/docs.mdc": "---\ntools: [mcp__docs__search]\n---\n# Docs tool",
    ".cursor/rules/review.mdc": "---\nagent: [reviewer]\n---\n# Reviewer",
    ".cursor/rules/plan.mdc": "---\ncommand: /plan\n---\n# Planning",
  });
  expect((await $.prompt.submit(prompt("hi"))).context ?? []).toEqual([]);
  w.tools = ["Edit", "mcp__docs__search"];
  w.agentType = "reviewer";
  expect(injected((await $.prompt.submit(prompt("hi"))).context)).toEqual([
    "docs.mdc",
    "review.mdc",
  ]);
  // The command Claude Code names, or else the prompt's first word.
  await w.clock.advance(61_000);
  w.tools = [];
  w.agentType = undefined;
  expect(injected((await $.prompt.submit(prompt("write the steps", "plan"))).context)).toEqual([
    "plan.mdc",
  ]);
  await w.clock.advance(61_000);
  expect(injected((await $.prompt.submit(prompt("/plan the steps"))).context)).toEqual([
    "plan.mdc",
  ]);
  await w.clock.advance(61_000);
  expect((await $.prompt.submit(prompt("plan the steps"))).context ?? []).toEqual([]);
});

test("fileContains tests the edited file as it is after the edit", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/drops.mdc":
      '---\nfileContains: ["DROP TABLE", "(?i)truncate"]\n---\n# Dropping tables',
  });
  w.write("db/001.sql", "CREATE TABLE users (id int);\n");
  const create = await $.tool.call({
    tool: "Write",
    file_path: `${ROOT}/db/001.sql`,
    content: "CREATE TABLE users (id int);\n",
  });
  expect(create.context).toBeUndefined();
  w.write("db/002.sql", "DROP TABLE users;\n");
  const drop = await $.tool.call({
    tool: "Edit",
    file_path: `${ROOT}/db/002.sql`,
    old_string: "x",
    new_string: "DROP TABLE users;",
  });
  expect(injected(drop.context)).toEqual(["drops.mdc"]);
  expect(drop.context?.[0]).toContain("[rule-fairy matched: glob on db/002.sql]");
  expect(w.reads.filter((path) => path === `${ROOT}/db/002.sql`)).toHaveLength(1);
  // A file that is gone or not text holds no pattern.
  await w.clock.advance(61_000);
  w.write("db/003.sql", new Uint8Array([0x74, 0x72, 0x75, 0x6e, 0x63, 0x61, 0x74, 0x65, 0xff]));
  expect(
    (await $.tool.call({ tool: "Write", file_path: `${ROOT}/db/003.sql`, content: "x" })).context,
  ).toBeUndefined();
  expect(
    (await $.tool.call({ tool: "Write", file_path: `${ROOT}/db/gone.sql`, content: "x" })).context,
  ).toBeUndefined();
});

test("fileContains never reads a file through a link out of the project", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/keys.mdc": "---\nfileContains: PRIVATE KEY\n---\n# Keys",
  });
  w.write("/outside/.ssh/id_rsa", "-----BEGIN PRIVATE KEY-----\n");
  w.links.set(`${ROOT}/src/key.ts`, "/outside/.ssh/id_rsa");
  const result = await $.tool.call({
    tool: "Write",
    file_path: `${ROOT}/src/key.ts`,
    content: "x",
  });
  expect(result.context).toBeUndefined();
  expect(w.reads.filter((path) => path.endsWith("id_rsa") || path.endsWith("key.ts"))).toEqual([]);
  // The same text inside the project is read: the rule itself works.
  w.write("src/inside.ts", "-----BEGIN PRIVATE KEY-----\n");
  const inside = await $.tool.call({
    tool: "Write",
    file_path: `${ROOT}/src/inside.ts`,
    content: "x",
  });
  expect(injected(inside.context)).toEqual(["keys.mdc"]);
});

test("fileContains tests a file a shell command changed", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/drops.mdc": "---\nfileContains: DROP TABLE\n---\n# Dropping tables",
  });
  await $.prompt.submit(prompt("go"));
  await w.clock.advance(2_000);
  w.write("db/a.sql", "select 1;\n");
  w.write("db/b.sql", "DROP TABLE users;\n");
  w.status = ["?? db/a.sql", "?? db/b.sql"];
  const result = await $.tool.call({ tool: "Bash", command: "write migrations" } as never);
  expect(injected(result.context)).toEqual(["drops.mdc"]);
  expect(result.context?.[0]).toContain(
    "[rule-fairy matched: glob on db/b.sql, changed by a shell command]",
  );
});
