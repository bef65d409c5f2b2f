// Nested rules folders (behaviour §1.2) through the mod: where they are is
// asked of git once, and again only after an event that may have moved
// one; the folders found are listed like the root's on each event. The
// mod's module state outlives a test: counts of git runs are relative.
import { expect, test } from "claude-code/testing";
import { injected, ROOT, world } from "./world";

const prompt = (text: string) => ({ text, wait: false, origin: { kind: "composer" } }) as const;
const edit = (file: string) =>
  ({ tool: "Edit", file_path: `${ROOT}/${file}`, old_string: "a", new_string: "b" }) as const;

const MONOREPO = {
  ".git/HEAD": "ref: refs/heads/main\n",
  ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base",
  "packages/web/.cursor/rules/ui.mdc": "---\nglobs: src/**\n---\n# Web UI",
  "packages/web/.cursor/rules/web.mdc": "---\nalwaysApply: true\n---\n# Web always",
  "node_modules/dep/.cursor/rules/dep.mdc": "---\nalwaysApply: true\n---\n# Dep",
};

/** Runs of git asked where the rules folders are (not where the
 * instruction files are, which an edit asks too). */
const listings = (runs: string[][]) =>
  runs.filter(
    (argv) =>
      argv[0] === "git" &&
      argv[1] === "ls-files" &&
      argv.some((word) => word.includes(".cursor/rules")),
  ).length;

test("a nested folder's rules come with an edit below it, git asked once", async ($, on) => {
  const w = world(on, MONOREPO);
  const first = await $.prompt.submit(prompt("hello"));
  expect(injected(first.context)).toEqual(["base.mdc"]);
  const root = await $.tool.call(edit("src/a.ts"));
  expect(injected(root.context)).toEqual([]);
  const below = await $.tool.call(edit("packages/web/src/a.ts"));
  expect(injected(below.context)).toEqual([
    "packages/web/.cursor/rules/ui.mdc",
    "packages/web/.cursor/rules/web.mdc",
  ]);
  expect(below.context?.[0]).toContain("[rule-fairy matched: glob on packages/web/src/a.ts]");
  const asked = listings(w.runs);
  expect(asked).toBeLessThanOrEqual(1);
  await $.prompt.submit(prompt("more"));
  await $.tool.call(edit("packages/web/src/b.ts"));
  expect(listings(w.runs)).toBe(asked);
  expect(w.reads.filter((path) => path.includes("node_modules"))).toEqual([]);
});

test("an edit inside a rules folder makes git be asked again", async ($, on) => {
  const w = world(on, MONOREPO);
  await $.prompt.submit(prompt("hello"));
  const asked = listings(w.runs);
  w.write("packages/api/.cursor/rules/api.mdc", "---\nglobs: **/*\n---\n# Api");
  await $.tool.call(edit("packages/api/.cursor/rules/api.mdc"));
  expect(listings(w.runs)).toBe(asked);
  const next = await $.tool.call(edit("packages/api/x.ts"));
  expect(listings(w.runs)).toBe(asked + 1);
  expect(injected(next.context)).toEqual(["packages/api/.cursor/rules/api.mdc"]);
});

test("git that cannot run is a warning, and the root's rules still come", async ($, on) => {
  const w = world(on, MONOREPO);
  w.answerRun = (argv) =>
    argv[1] === "ls-files"
      ? {
          exitCode: 128,
          stdout: "",
          stderr: "fatal: detected dubious ownership in repository\n",
          isStdoutTruncated: false,
          isStderrTruncated: false,
        }
      : undefined;
  // An edit inside a rules folder: the next event asks git again.
  await $.tool.call(edit("packages/web/.cursor/rules/ui.mdc"));
  const result = await $.prompt.submit(prompt("hello"));
  expect(listings(w.runs)).toBeGreaterThan(0);
  expect(injected(result.context)).toContain("base.mdc");
  expect((result.context ?? []).join("\n")).toContain(
    "Nested rule folders were not looked for: git ls-files failed (exit 128): fatal: detected dubious ownership",
  );
});
