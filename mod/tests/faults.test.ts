import { expect, test } from "claude-code/testing";
import { injected, ROOT, STATE, world } from "./world";

const RULES = {
  ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base rule",
  ".cursor/rules/widget.mdc": "---\nglobs: src/**\npromptAnyOf: widget\n---\n# Widget rule",
};
const prompt = (text: string) => ({ text, wait: false, origin: { kind: "composer" } }) as const;
const NOTHING = "No matched rules were injected or marked as injected.";

test("a refused $ call is an error entry; the prompt goes on", async ($, on) => {
  const w = world(on, RULES);
  w.refuse.set("session.messages", "not in this session");
  const result = await $.prompt.submit(prompt("add a widget"));
  expect(result.text).toBe("add a widget");
  expect(result.context).toEqual([
    `[rule-fairy error: prompt delivery threw]\nrule-fairy: $.session.messages: not in this session\n${NOTHING}`,
  ]);
  expect(w.logs).toEqual([
    "rule-fairy: prompt delivery threw: rule-fairy: $.session.messages: not in this session",
  ]);
  expect(w.state()).toBeUndefined();
});

test("a refused call during an edit keeps the tool result and says why", async ($, on) => {
  const w = world(on, RULES);
  w.refuse.set("fs.list", "EACCES: permission denied");
  const result = await $.tool.call({ tool: "Write", file_path: `${ROOT}/src/a.ts`, content: "x" });
  expect(result.result).toBe("done");
  expect(result.deny).toBeUndefined();
  // An unreadable rules directory means no rules, not a failure.
  expect(result.context).toBeUndefined();
  w.refuse.delete("fs.list");
  w.refuse.set("fs.write", "EROFS: read-only file system");
  await w.clock.advance(1_000);
  const failed = await $.tool.call({ tool: "Write", file_path: `${ROOT}/src/a.ts`, content: "x" });
  expect(failed.result).toBe("done");
  expect(failed.context).toEqual([
    `[rule-fairy error: edit delivery threw]\nrule-fairy: $.fs.write: EROFS: read-only file system\n${NOTHING}`,
  ]);
});

test("a rule file that disappears between listing and reading is left out", async ($, on) => {
  const w = world(on, RULES);
  w.vanishing.add(`${ROOT}/.cursor/rules/base.mdc`);
  const result = await $.prompt.submit(prompt("a widget"));
  expect(injected(result.context)).toEqual(["widget.mdc"]);
  expect(result.context?.join("\n")).not.toContain("error");
});

test("a rules directory that is a symbolic link loop is reported", async ($, on) => {
  const w = world(on, {});
  w.links.set(`${ROOT}/.cursor/rules`, `${ROOT}/.cursor/rules`);
  const result = await $.prompt.submit(prompt("hello"));
  expect(result.context).toEqual([
    expect.stringMatching(
      /^\[rule-fairy error: \.cursor\/rules: Cannot read the rules directory: too many levels of symbolic links/,
    ),
  ]);
});

test("a link inside the rules that leads back up is skipped with a warning", async ($, on) => {
  const w = world(on, RULES);
  w.links.set(`${ROOT}/.cursor/rules/again`, `${ROOT}/.cursor`);
  const result = await $.prompt.submit(prompt("a widget"));
  expect(injected(result.context)).toEqual(["base.mdc", "widget.mdc"]);
  // `again` leads to `.cursor`, whose `rules` is where the walk started.
  expect(result.context?.at(-1)).toMatch(
    /^\[rule-fairy warning: \.cursor\/rules\/again\/rules: Symbolic link loop/,
  );
});

// How fast is the benchmark's business (docs/benchmarks.md); the bound
// here only catches a blow-up, and holds on a loaded machine.
test("a 4 MiB prompt is matched whole", { timeoutMs: 30_000 }, async ($, on) => {
  world(on, RULES);
  const text = `${"lorem ipsum ".repeat((4 * 1024 * 1024) / 12)} and a widget`;
  const result = await $.prompt.submit(prompt(text));
  expect(injected(result.context)).toEqual(["base.mdc", "widget.mdc"]);
});

test("a state directory that is a link is never written through", async ($, on) => {
  const w = world(on, RULES);
  w.write("/elsewhere/kept.json", "{}");
  w.links.set(`${ROOT}/.rule-fairy/claude`, "/elsewhere");
  const first = await $.prompt.submit(prompt("a widget"));
  expect(injected(first.context)).toEqual(["base.mdc", "widget.mdc"]);
  const written = [...w.files.keys()].filter((path) => path.startsWith("/elsewhere/"));
  expect(written).toEqual(["/elsewhere/kept.json"]);
  expect(w.runs.filter((argv) => argv[0] === "find")).toEqual([]);
  expect(w.logs.filter((line) => line.includes("is a symbolic link"))).toEqual([
    "rule-fairy: .rule-fairy/claude is a symbolic link; nothing is written through it, so this session's deliveries are not recorded",
  ]);
  // The module still remembers what it delivered in this session.
  const second = await $.prompt.submit(prompt("a widget again"));
  expect(injected(second.context)).toEqual([]);
  expect(w.logs.filter((line) => line.includes("is a symbolic link"))).toHaveLength(1);
});

test("a corrupt state file is reported, kept, and replaced", async ($, on) => {
  const w = world(on, RULES);
  w.write(STATE, '{"delivered": {"base.mdc": ');
  const result = await $.prompt.submit(prompt("hi"));
  expect(result.context?.[0]).toMatch(
    /^\[rule-fairy error: \.rule-fairy\/claude\/[0-9a-f-]+\.json is not a session state \(EOF while parsing/,
  );
  expect(injected(result.context)).toEqual(["base.mdc"]);
  expect(w.files.get(`${STATE}.corrupt`)?.text).toBe('{"delivered": {"base.mdc": ');
  expect(w.state()).toMatchObject({ delivered: { "base.mdc": w.clock.now() } });
});

test("a broken rule is named once; the other rules still work", async ($, on) => {
  const w = world(on, RULES);
  w.write(
    ".cursor/rules/bad.mdc",
    new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]),
  );
  const first = await $.prompt.submit(prompt("a widget"));
  expect(injected(first.context)).toEqual(["base.mdc", "widget.mdc"]);
  expect(first.context?.at(-1)).toMatch(
    /^\[rule-fairy error: \.cursor\/rules\/bad\.mdc:3: .*UTF-8/,
  );
  await w.clock.advance(1_000);
  const second = await $.prompt.submit(prompt("more"));
  expect(second.context ?? []).toEqual([]);
});

test("a broken configuration fails each event visibly", async ($, on) => {
  const w = world(on, { ...RULES, "rule-fairy.edn": '{:rule {:dirs ["x"]}}' });
  const result = await $.prompt.submit(prompt("a widget"));
  expect(result.context).toEqual([
    `[rule-fairy error: prompt delivery failed]\n${ROOT}/rule-fairy.edn:1: Unknown keys in rule-fairy.edn: :rule (did you mean :rules?)\n${NOTHING}`,
  ]);
  w.write("rule-fairy.edn", '{:rules {:dirs [".cursor/rules"]}}');
  await w.clock.advance(1_000);
  expect(injected((await $.prompt.submit(prompt("a widget"))).context)).toEqual([
    "base.mdc",
    "widget.mdc",
  ]);
});

test("rule files are read once and again only when they change", async ($, on) => {
  const w = world(on, RULES);
  await $.prompt.submit(prompt("hello"));
  const reads = w.reads.filter((path) => path.endsWith(".mdc")).length;
  expect(reads).toBe(2);
  await w.clock.advance(61_000);
  await $.prompt.submit(prompt("hello"));
  expect(w.reads.filter((path) => path.endsWith(".mdc")).length).toBe(reads);
  w.write(".cursor/rules/base.mdc", "---\nalwaysApply: true\n---\n# Base rule, revised");
  await w.clock.advance(61_000);
  const changed = await $.prompt.submit(prompt("hello"));
  expect(changed.context?.[0]).toContain("# Base rule, revised");
  expect(w.reads.filter((path) => path.endsWith(".mdc")).length).toBe(reads + 1);
});

test("a session id that cannot name a file is an error, not a write elsewhere", async ($, on) => {
  const w = world(on, RULES);
  w.sessionId = "../../etc/x";
  const result = await $.prompt.submit(prompt("hi"));
  expect(result.context?.[0]).toMatch(
    /^\[rule-fairy error: prompt delivery threw\]\nsession id "\.\.\/\.\.\/etc\/x" cannot name a state file/,
  );
  expect([...w.files.keys()].filter((path) => path.includes(".rule-fairy"))).toEqual([]);
});
