// Claude Code's file watch (behaviour §5.2.3): at session start the mod
// names the paths the rules came from; while Claude Code reports no
// change a prompt lists nothing, and a reported change, an edit, or a
// full minute brings the rules as they now are.
import { expect, test } from "claude-code/testing";
import { injected, ROOT, world } from "./world";

const RULES = {
  ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base rule",
  ".cursor/rules/widget.mdc": "---\npromptAnyOf: widget\n---\n# Widget rule",
};
const prompt = (text: string) => ({ text, wait: false, origin: { kind: "composer" } }) as const;
const REVISED = "---\npromptAnyOf: widget, gadget\n---\n# Widget rule";

test("session start names the rules directory to watch, not the project", async ($, on) => {
  world(on, RULES);
  const result = await $.classic.SessionStart({ source: "startup" });
  expect(result.watchPaths).toContain(`${ROOT}/.cursor/rules`);
  expect(result.watchPaths).not.toContain(ROOT);
});

test("under the watch a prompt lists nothing until a change is reported", async ($, on) => {
  const w = world(on, RULES);
  await $.classic.SessionStart({ source: "startup" });
  await $.prompt.submit(prompt("hello"));
  const lists = w.lists.length;
  await w.clock.advance(1_000);
  await $.prompt.submit(prompt("hello again"));
  expect(w.lists.length).toBe(lists);
  // Edited: not seen until Claude Code says so...
  w.write(".cursor/rules/widget.mdc", REVISED);
  await w.clock.advance(1_000);
  expect(injected((await $.prompt.submit(prompt("a gadget"))).context)).toEqual([]);
  await $.classic.FileChanged({ file_path: `${ROOT}/.cursor/rules/widget.mdc`, event: "change" });
  await w.clock.advance(1_000);
  expect(injected((await $.prompt.submit(prompt("a gadget"))).context)).toEqual(["widget.mdc"]);
  // Added, then deleted.
  w.write(".cursor/rules/sprocket.mdc", "---\npromptAnyOf: sprocket\n---\n# Sprocket rule");
  await $.classic.FileChanged({ file_path: `${ROOT}/.cursor/rules/sprocket.mdc`, event: "add" });
  await w.clock.advance(1_000);
  expect(injected((await $.prompt.submit(prompt("a sprocket"))).context)).toEqual(["sprocket.mdc"]);
  w.files.delete(`${ROOT}/.cursor/rules/sprocket.mdc`);
  await $.classic.FileChanged({ file_path: `${ROOT}/.cursor/rules/sprocket.mdc`, event: "unlink" });
  await w.clock.advance(1_000);
  expect(injected((await $.prompt.submit(prompt("sprocket again"))).context)).toEqual([]);
});

test("a change the watch missed is seen by the next edit, or within a minute", async ($, on) => {
  const w = world(on, RULES);
  await $.classic.SessionStart({ source: "startup" });
  await $.prompt.submit(prompt("hello"));
  w.write(".cursor/rules/widget.mdc", REVISED);
  await w.clock.advance(1_000);
  expect(injected((await $.prompt.submit(prompt("a gadget"))).context)).toEqual([]);
  // No report came; a minute on, the prompt revalidates anyway (and the
  // always-on rule, out of the one-minute record, comes again).
  await w.clock.advance(60_000);
  expect(injected((await $.prompt.submit(prompt("a gadget"))).context)).toEqual([
    "base.mdc",
    "widget.mdc",
  ]);
  // An edit revalidates at once: it may have written a rule itself.
  const lists = w.lists.length;
  await w.clock.advance(1_000);
  await $.tool.call({
    tool: "Edit",
    file_path: `${ROOT}/src/a.ts`,
    old_string: "a",
    new_string: "b",
  });
  expect(w.lists.length).toBeGreaterThan(lists);
});

test("without the watch (a mod reloaded mid-session) every prompt revalidates", async ($, on) => {
  const w = world(on, RULES);
  await $.prompt.submit(prompt("hello"));
  const lists = w.lists.length;
  await w.clock.advance(1_000);
  await $.prompt.submit(prompt("hello again"));
  expect(w.lists.length).toBeGreaterThan(lists);
});

test("under the watch an imported document is not stat'ed, and a reported change brings it", async ($, on) => {
  const importing = (word: string) =>
    `---\npromptAnyOf: ${word}\n---\n# ${word}\n\n@docs/guide.md\n`;
  const w = world(on, {
    ".cursor/rules/guide.mdc": importing("guide"),
    ".cursor/rules/manual.mdc": importing("manual"),
    ".cursor/rules/handbook.mdc": importing("handbook"),
    "docs/guide.md": "Old advice.",
  });
  const result = await $.classic.SessionStart({ source: "startup" });
  expect(result.watchPaths).toContain(`${ROOT}/docs/guide.md`);
  const text = async (words: string) =>
    ((await $.prompt.submit(prompt(words))).context ?? []).join("\n");
  expect(await text("the guide")).toContain("Old advice.");
  const stats = w.stats.length;
  await w.clock.advance(1_000);
  expect(await text("the manual")).toContain("Old advice.");
  expect(w.stats.slice(stats).filter((path) => path.includes("/docs/"))).toEqual([]);
  w.write("docs/guide.md", "New advice.");
  await $.classic.FileChanged({ file_path: `${ROOT}/docs/guide.md`, event: "change" });
  await w.clock.advance(1_000);
  expect(await text("the handbook")).toContain("New advice.");
});
