import { expect, test } from "claude-code/testing";
import { conversation, injected, reminder, ROOT, SESSION, world } from "./world";

const RULES = {
  ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base rule\n\nBe brief.",
  ".cursor/rules/widget.mdc": "---\npromptAnyOf: widget\n---\n# Widget rule\n\nWidgets are small.",
  ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\n# TypeScript rule\n\nStrict types.",
};

const AGENT_STATE = `${ROOT}/.rule-fairy/claude/${SESSION}.agent-agent-1.json`;

/** An Agent tool call's spawn, as core fills it in. */
function spawn(prompt: string, fork = false) {
  return {
    tool_use_id: "toolu_spawn",
    prompt,
    description: "a task",
    subagentType: fork ? "fork" : "general-purpose",
    provider: { plugin: "engine", tier: "core" },
    parentModel: "claude-opus-5-5",
    background: false,
    fork,
  } as never;
}

/** A subagent's Write of a project file, as its tool call reaches hooks. */
function writeBy(agentId: string, file: string) {
  return { tool: "Write", file_path: `${ROOT}/${file}`, content: "x", agentId } as never;
}

/** The subagent's conversation as Claude Code starts it: the task prompt
 * it was spawned with, as its first user message. */
function started(prompt: string): unknown[] {
  return [{ role: "user", content: [{ type: "text", text: prompt }] }];
}

test("a subagent's task is its first prompt: its rules come before the task, recorded for no one", async ($, on) => {
  const w = world(on, RULES);
  const spawned = await $.agent.spawn(spawn("make the widget smaller"));
  expect(spawned.agentId).toBe("agent-1");
  const prompt = w.spawned[0]?.prompt ?? "";
  expect(injected([prompt])).toEqual(["base.mdc", "widget.mdc"]);
  expect(prompt).toMatch(/^\[rule-fairy shard 1\/1 [0-9a-f]{12}\]\n/);
  expect(prompt).toContain('[rule-fairy matched: keyword "widget"]');
  expect(prompt.endsWith("\n\nmake the widget smaller")).toBe(true);
  // The main thread holds none of it: its first prompt still brings base.mdc.
  expect(w.state()).toBeUndefined();
  expect(w.files.has(AGENT_STATE)).toBe(false);
  const main = await $.prompt.submit({ text: "hello", wait: false, origin: { kind: "composer" } });
  expect(injected(main.context)).toEqual(["base.mdc"]);
});

test("a subagent's edits bring glob rules to it, held by its own conversation, apart from the main thread's", async ($, on) => {
  const w = world(on, RULES);
  // The main thread already holds ts.mdc.
  const mainEdit = await $.tool.call({
    tool: "Write",
    file_path: `${ROOT}/src/a.ts`,
    content: "x",
  });
  expect(injected(mainEdit.context)).toEqual(["ts.mdc"]);
  w.messages = conversation(reminder("tool.call", mainEdit.context ?? []));

  await $.agent.spawn(spawn("fix the parser"));
  w.agentMessages.set("agent-1", started(w.spawned[0]?.prompt ?? ""));
  const edit = await $.tool.call(writeBy("agent-1", "src/b.ts"));
  expect(injected(edit.context)).toEqual(["ts.mdc"]);
  expect(edit.context?.[0]).toContain("[rule-fairy matched: glob on src/b.ts]");
  expect(w.files.has(AGENT_STATE)).toBe(true);

  // Held in the subagent's conversation: its next edit brings nothing.
  w.agentMessages.set("agent-1", [
    ...started(w.spawned[0]?.prompt ?? ""),
    ...conversation(reminder("tool.call", edit.context ?? [])),
  ]);
  await w.clock.advance(61_000);
  const again = await $.tool.call(writeBy("agent-1", "src/c.ts"));
  expect(again.context).toBeUndefined();

  // A sibling holds nothing of it.
  await $.agent.spawn(spawn("fix the lexer"));
  w.agentMessages.set("agent-2", started(w.spawned[1]?.prompt ?? ""));
  const sibling = await $.tool.call(writeBy("agent-2", "src/d.ts"));
  expect(injected(sibling.context)).toEqual(["ts.mdc"]);

  // The main thread's records are its own: its state names only its edit.
  const state = w.state() as { delivered?: Record<string, unknown> } | undefined;
  expect(Object.keys(state?.delivered ?? {})).toEqual(["ts.mdc"]);
});

test("a fork starts with what it copied: rules its parent's conversation holds are not sent again", async ($, on) => {
  const w = world(on, RULES);
  const first = await $.prompt.submit({ text: "hello", wait: false, origin: { kind: "composer" } });
  w.messages = conversation(reminder("prompt.submit", first.context ?? []));
  await $.agent.spawn(spawn("tidy the widget", true));
  expect(w.spawned[0]?.fork).toBe(true);
  expect(injected([w.spawned[0]?.prompt ?? ""])).toEqual(["widget.mdc"]);
  // A new subagent with the same task gets both.
  await $.agent.spawn(spawn("tidy the widget"));
  expect(injected([w.spawned[1]?.prompt ?? ""])).toEqual(["base.mdc", "widget.mdc"]);
});

test("with :subagents false the task and the subagent's edits are left alone", async ($, on) => {
  const w = world(on, { ...RULES, "rule-fairy.edn": "{:subagents false}" });
  await $.agent.spawn(spawn("make the widget smaller"));
  expect(w.spawned[0]?.prompt).toBe("make the widget smaller");
  w.agentMessages.set("agent-1", started("make the widget smaller"));
  const edit = await $.tool.call(writeBy("agent-1", "src/b.ts"));
  expect(edit.context).toBeUndefined();
  // Nor does one whose conversation cannot be read get an error entry.
  const unread = await $.tool.call(writeBy("agent-9", "src/c.ts"));
  expect(unread.context).toBeUndefined();
  // The main thread is served as before.
  const main = await $.tool.call({ tool: "Write", file_path: `${ROOT}/src/a.ts`, content: "x" });
  expect(injected(main.context)).toEqual(["ts.mdc"]);
});

test("a subagent whose conversation cannot be read gets one error entry, and its tool's result", async ($, on) => {
  const w = world(on, RULES);
  const edit = await $.tool.call(writeBy("agent-9", "src/b.ts"));
  expect(edit.result).toBe("done");
  expect(edit.context?.length).toBe(1);
  expect(edit.context?.[0]).toMatch(/^\[rule-fairy error: edit delivery /);
  expect(w.logs.some((line) => line.includes("no agent agent-9"))).toBe(true);
  expect(w.state()).toBeUndefined();
});

test(
  "an empty task, a 1 MB task and 50 spawns at once each start with their rules",
  { timeoutMs: 20_000 },
  async ($, on) => {
    const w = world(on, RULES);
    await $.agent.spawn(spawn(""));
    expect(injected([w.spawned[0]?.prompt ?? ""])).toEqual(["base.mdc"]);
    const huge = `${"word ".repeat(200_000)}widget`;
    await $.agent.spawn(spawn(huge));
    const hugePrompt = w.spawned[1]?.prompt ?? "";
    expect(injected([hugePrompt])).toEqual(["base.mdc", "widget.mdc"]);
    expect(hugePrompt.endsWith(`\n\n${huge}`)).toBe(true);
    await Promise.all(Array.from({ length: 50 }, (_, i) => $.agent.spawn(spawn(`task ${i}`))));
    expect(w.spawned.length).toBe(52);
    expect(w.spawned.slice(2).every((s) => injected([s.prompt]).join() === "base.mdc")).toBe(true);
    expect(w.state()).toBeUndefined();
  },
);
