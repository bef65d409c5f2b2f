import { expect, test } from "claude-code/testing";
import { conversation, injected, reminder, world } from "./world";

const RULES = {
  ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base rule\n\nBe brief.",
  ".cursor/rules/widget.mdc": "---\npromptAnyOf: widget\n---\n# Widget rule\n\nWidgets are small.",
};

test("a prompt brings the always-on rule, then a keyword rule, each once", async ($, on) => {
  const w = world(on, RULES);
  const first = await $.prompt.submit({
    text: "hello there",
    wait: false,
    origin: { kind: "composer" },
  });
  const text = (first.context ?? []).join("\n");
  expect(injected(first.context)).toEqual(["base.mdc"]);
  expect(text).toContain("[rule-fairy matched: alwaysApply base.mdc]");
  expect(text).toContain("# Base rule");
  expect(text).not.toContain("keyword");
  expect(first.context?.[0]).toMatch(/^\[rule-fairy shard 1\/1 [0-9a-f]{12}\]\n/);

  w.messages = conversation(reminder("prompt.submit", first.context ?? []));
  await w.clock.advance(1_000);
  const second = await $.prompt.submit({
    text: "add a Widget",
    wait: false,
    origin: { kind: "composer" },
  });
  expect(injected(second.context)).toEqual(["widget.mdc"]);
  expect((second.context ?? []).join("\n")).toContain('[rule-fairy matched: keyword "widget"]');

  await w.clock.advance(1_000);
  const third = await $.prompt.submit({
    text: "hello there",
    wait: false,
    origin: { kind: "sdk" },
  });
  expect(third.context ?? []).toEqual([]);
  // One transcript line per delivery, none for the prompt that delivered
  // nothing (behaviour §10.1).
  expect(w.logs).toEqual([
    "Rule Fairy: base.mdc (always on)",
    'Rule Fairy: widget.mdc (keyword "widget")',
  ]);
});

test("with :notify false a delivery shows no line, and a problem still does", async ($, on) => {
  const w = world(on, {
    ...RULES,
    "rule-fairy.edn": "{:notify false}",
    ".cursor/rules/broken.mdc": "---\nalwaysApply: true\n---\n# Broken\n\n@docs/missing.md\n",
  });
  const first = await $.prompt.submit({
    text: "hello there",
    wait: false,
    origin: { kind: "composer" },
  });
  expect(injected(first.context)).toEqual(["base.mdc"]);
  expect(w.logs).toEqual([
    "rule-fairy: 1 broken rule left out: .cursor/rules/broken.mdc:6: broken.mdc: Rule import does not exist: docs/missing.md",
  ]);
});

test("prompts another agent composed deliver nothing and touch nothing", async ($, on) => {
  const w = world(on, RULES);
  const origins = [
    { kind: "task-notification" },
    { kind: "peer" },
    { kind: "coordinator" },
    { kind: "plugin", name: "other" },
  ] as const;
  for (const origin of origins) {
    const result = await $.prompt.submit({ text: "a widget", wait: false, origin });
    expect(result.context ?? []).toEqual([]);
  }
  expect(w.reads).toEqual([]);
  expect(w.state()).toBeUndefined();
});

test("the prompt starts the shell check and the state directory ignores itself", async ($, on) => {
  const w = world(on, RULES);
  await $.prompt.submit({ text: "hi", wait: false, origin: { kind: "composer" } });
  expect(w.state()).toMatchObject({
    delivered: { "base.mdc": w.clock.now() },
    shell: { checked_at_ms: w.clock.now(), pending: [] },
  });
  expect(w.files.get("/srv/ada/shop/.rule-fairy/claude/.gitignore")?.text).toBe("*\n");
});

test("the prompt text and context already attached stay as they were", async ($, on) => {
  world(on, RULES);
  const result = await $.prompt.submit({
    text: "hi",
    wait: false,
    origin: { kind: "composer" },
    context: ["from another plugin"],
  });
  expect(result.text).toBe("hi");
  expect(result.context?.[0]).toBe("from another plugin");
  expect(injected(result.context)).toEqual(["base.mdc"]);
});

test("the first delivery records where the plugin is, once", async ($, on) => {
  const w = world(on, RULES);
  await $.prompt.submit({ text: "hi", wait: false, origin: { kind: "composer" } });
  const recorded = w.files.get("/srv/ada/shop/.rule-fairy/claude/plugin-root");
  expect(recorded?.text).toMatch(/^\/.+\n$/);
  const written = recorded?.mtimeMs;
  await w.clock.advance(5_000);
  await $.prompt.submit({ text: "again", wait: false, origin: { kind: "composer" } });
  expect(w.files.get("/srv/ada/shop/.rule-fairy/claude/plugin-root")?.mtimeMs).toBe(written);
});
