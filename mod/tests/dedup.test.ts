import { expect, test } from "claude-code/testing";
import { conversation, injected, reminder, ROOT, world } from "./world";

const A = "---\nglobs: src/**\n---\n# A rule";
const B = "---\nglobs: src/**\n---\n# B rule";
const edit = { tool: "Write", file_path: `${ROOT}/src/a.ts`, content: "x" } as const;

/** A rule of about `chars` characters, in paragraphs that split cleanly. */
function big(name: string, chars: number): string {
  const paragraph = `${name} `.repeat(15).trim();
  return `---\nglobs: src/**\n---\n# ${name}\n\n${Array.from({ length: Math.ceil(chars / (paragraph.length + 2)) }, () => paragraph).join("\n\n")}`;
}

test("rules whole in the conversation are not delivered again", async ($, on) => {
  const w = world(on, { ".cursor/rules/a.mdc": A });
  const first = await $.tool.call(edit);
  expect(injected(first.context)).toEqual(["a.mdc"]);
  w.messages = [
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "t1",
          content: `done\n\n${reminder("tool.call", first.context ?? [])}`,
        },
      ],
    },
  ];
  w.write(".cursor/rules/b.mdc", B);
  await w.clock.advance(120_000);
  const second = await $.tool.call(edit);
  expect(injected(second.context)).toEqual(["b.mdc"]);
  expect(second.context?.[0]).toContain("# B rule");
  expect(second.context?.[0]).not.toContain("# A rule");
});

test("after a compaction the conversation no longer holds them: they come again", async ($, on) => {
  const w = world(on, { ".cursor/rules/a.mdc": A, ".cursor/rules/b.mdc": B });
  const first = await $.tool.call(edit);
  w.messages = conversation(reminder("tool.call", first.context ?? []));
  await w.clock.advance(61_000);
  expect((await $.tool.call(edit)).context).toBeUndefined();
  // The compaction summary replaced everything.
  w.messages = conversation("This session is being continued from a previous conversation.");
  const again = await $.tool.call(edit);
  expect(injected(again.context)).toEqual(["a.mdc", "b.mdc"]);
  expect(w.state()).toMatchObject({
    delivered: { "a.mdc": w.clock.now(), "b.mdc": w.clock.now() },
  });
});

test("a compaction right after a delivery does not hold the rule back for a minute", async ($, on) => {
  const w = world(on, { ".cursor/rules/a.mdc": A });
  const first = await $.tool.call(edit);
  w.messages = conversation(reminder("tool.call", first.context ?? []));
  await w.clock.advance(5_000);
  await $.session.compact({
    trigger: "manual",
    messages: [{ role: "user", text: "earlier", toolUses: [] }],
  } as never);
  expect(w.state()?.delivered).toEqual({});
  const again = await $.tool.call(edit);
  expect(injected(again.context)).toEqual(["a.mdc"]);
});

test("the one-minute record covers what the conversation does not show yet", async ($, on) => {
  const w = world(on, { ".cursor/rules/a.mdc": A });
  expect(injected((await $.tool.call(edit)).context)).toEqual(["a.mdc"]);
  await w.clock.advance(59_999);
  expect((await $.tool.call(edit)).context).toBeUndefined();
  await w.clock.advance(1);
  expect(injected((await $.tool.call(edit)).context)).toEqual(["a.mdc"]);
});

test("tool calls side by side record every delivery", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/a.mdc": "---\nglobs: src/**\n---\n# A rule",
    ".cursor/rules/d.mdc": "---\nglobs: docs/**\n---\n# D rule",
  });
  const [one, two] = await Promise.all([
    $.tool.call(edit),
    $.tool.call({ tool: "Write", file_path: `${ROOT}/docs/x.md`, content: "x" }),
  ]);
  expect([...injected(one.context), ...injected(two.context)].sort()).toEqual(["a.mdc", "d.mdc"]);
  expect(Object.keys((w.state()?.delivered ?? {}) as object).sort()).toEqual(["a.mdc", "d.mdc"]);
});

test("a two-frame delivery joined into one reminder counts whole; half of it does not", async ($, on) => {
  const w = world(on, { ".cursor/rules/large.mdc": big("large", 150_000) });
  const first = await $.tool.call(edit);
  expect(first.context).toHaveLength(2);
  expect(first.context?.[0]).toMatch(/^\[rule-fairy shard 1\/2 /);
  expect(first.context?.[1]).toMatch(/^\[rule-fairy shard 2\/2 /);
  for (const frame of first.context ?? []) expect(frame.length).toBeLessThanOrEqual(100_000);
  // Claude Code joins one event's entries into a single reminder.
  w.messages = conversation(reminder("tool.call", first.context ?? []));
  await w.clock.advance(61_000);
  expect((await $.tool.call(edit)).context).toBeUndefined();
  // Only the first frame left: the rule was cut, so it comes again.
  w.messages = conversation(reminder("tool.call", (first.context ?? []).slice(0, 1)));
  await w.clock.advance(61_000);
  expect(injected((await $.tool.call(edit)).context)).toEqual(["large.mdc"]);
});

test("rules past what one delivery carries are deferred to the next event", async ($, on) => {
  const w = world(on, {
    ".cursor/rules/one.mdc": big("one", 70_000),
    ".cursor/rules/two.mdc": big("two", 70_000),
    ".cursor/rules/three.mdc": big("three", 70_000),
  });
  const first = await $.tool.call(edit);
  expect(first.context?.[0]).toContain(
    "[rule-fairy deferred: two.mdc (past what one delivery can carry; delivered with the next matching event)]",
  );
  // Match order is by name: one, three, two; the first two fill two frames.
  expect(injected(first.context)).toEqual(["one.mdc", "three.mdc"]);
  expect(w.state()?.delivered).toEqual({ "one.mdc": w.clock.now(), "three.mdc": w.clock.now() });
  w.messages = conversation(reminder("tool.call", first.context ?? []));
  await w.clock.advance(1_000);
  const second = await $.tool.call(edit);
  expect(injected(second.context)).toEqual(["two.mdc"]);
});
