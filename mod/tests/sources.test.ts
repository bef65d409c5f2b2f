// Rule sources through the engine's one walk (behaviour §1.2): the mod
// answers what the engine asks to list, stat and read, so the formats,
// the containment of links and the refusal of what is not a regular file
// are the engine's, as in the native binary.
import { expect, test } from "claude-code/testing";
import { injected, ROOT, world } from "./world";

const prompt = (text: string) => ({ text, wait: false, origin: { kind: "composer" } }) as const;
const KEY = "/outside/.ssh/id_rsa";
const NOTHING = "No matched rules were injected or marked as injected.";

test("a rule linked to a file outside the project is named and never read", async ($, on) => {
  // issue 20: the key's text was delivered as an always-on rule.
  const w = world(on, {
    "rule-fairy.edn": "{:formats [:claude :cline :opencode]}",
    ".claude/rules/ok.md": "# Ok",
  });
  w.write(KEY, "-----BEGIN OPENSSH PRIVATE KEY-----");
  w.write("/outside/notes/n.md", "# Notes");
  w.links.set(`${ROOT}/.claude/rules/team.md`, KEY);
  w.links.set(`${ROOT}/.clinerules`, KEY);
  w.links.set(`${ROOT}/.opencode/rules/notes`, "/outside/notes");
  const result = await $.prompt.submit(prompt("hello"));
  const text = (result.context ?? []).join("\n");
  expect(injected(result.context)).toEqual(["ok.md"]);
  expect(text).not.toContain("PRIVATE KEY");
  expect(text).not.toContain("# Notes");
  expect(w.reads).not.toContain(KEY);
  expect(w.reads.filter((path) => path.startsWith("/outside/"))).toEqual([]);
  for (const [file, what] of [
    [".claude/rules/team.md", "it is not read as a rule"],
    [".clinerules", "it is not read as a rule"],
    [".opencode/rules/notes", "no rule below it is read"],
  ] as const) {
    expect(text).toContain(`[rule-fairy error: ${file}: Links outside the project, so ${what}]`);
  }
});

test("links inside the project keep working, through any rules directory", async ($, on) => {
  const w = world(on, {
    "rule-fairy.edn": "{:formats [:claude]}",
    "docs/shared/team.md": "# Team rule",
    ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base",
  });
  w.links.set(`${ROOT}/.claude/rules/shared`, `${ROOT}/docs/shared`);
  const result = await $.prompt.submit(prompt("hello"));
  expect(injected(result.context)).toEqual(["base.mdc", "shared/team.md"]);
  expect((result.context ?? []).join("\n")).not.toContain("rule-fairy error");
});

test("a configured rules directory outside the project fails visibly", async ($, on) => {
  const w = world(on, { "rule-fairy.edn": '{:rules\n {:dirs ["/"]}}' });
  const result = await $.prompt.submit(prompt("hello"));
  expect(result.context).toEqual([
    `[rule-fairy error: prompt delivery failed]\n${ROOT}/rule-fairy.edn:2: :rules :dirs in rule-fairy.edn names a directory outside the project: /\n${NOTHING}`,
  ]);
  // Nothing outside the project was read.
  expect(w.reads.filter((path) => !path.startsWith(ROOT))).toEqual([]);
});

test("a FIFO among the rules is named and never opened", async ($, on) => {
  const w = world(on, { ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base" });
  w.fifos.add(`${ROOT}/.cursor/rules/pipe.mdc`);
  const result = await $.prompt.submit(prompt("hello"));
  expect(injected(result.context)).toEqual(["base.mdc"]);
  expect(result.context?.at(-1)).toMatch(
    /^\[rule-fairy error: \.cursor\/rules\/pipe\.mdc: Not a regular file/,
  );
  expect(w.reads).not.toContain(`${ROOT}/.cursor/rules/pipe.mdc`);
});
