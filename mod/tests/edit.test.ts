import { expect, test } from "claude-code/testing";
import { injected, ROOT, world } from "./world";

const RULES = {
  ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\n# TypeScript rule\n\nStrict types.",
  ".cursor/rules/docs.mdc": "---\nglobs: docs/**\n---\n# Docs rule\n\n@guide/style.md#tone",
  "guide/style.md": "# Style\n\n## Tone\n\nPlain words.\n\n## Layout\n\nNot imported.\n",
};

test("an Edit brings the rules whose globs match the edited path, after the tool ran", async ($, on) => {
  world(on, RULES);
  const result = await $.tool.call({
    tool: "Edit",
    file_path: `${ROOT}/src/app.ts`,
    old_string: "a",
    new_string: "b",
  });
  expect(result.result).toBe("done");
  expect(injected(result.context)).toEqual(["ts.mdc"]);
  expect(result.context?.[0]).toContain("[rule-fairy matched: glob on src/app.ts]");
  expect(result.context?.[0]).toContain("Strict types.");
});

test("Write, MultiEdit, NotebookEdit and MCP edit tools count as edits", async ($, on) => {
  const w = world(on, RULES);
  const write = await $.tool.call({
    tool: "Write",
    file_path: `${ROOT}/docs/new.md`,
    content: "x",
  });
  expect(injected(write.context)).toEqual(["docs.mdc"]);
  const docs = write.context?.[0] ?? "";
  expect(docs).toContain("## Required context: `guide/style.md#tone` (docs.mdc)");
  expect(docs).toContain("Plain words.");
  expect(docs).not.toContain("Not imported.");
  await w.clock.advance(61_000);
  const mcp = await $.tool.call({
    tool: "mcp__files__write_file",
    path: `${ROOT}/src/b.ts`,
    content: "x",
  } as never);
  expect(injected(mcp.context)).toEqual(["ts.mdc"]);
  expect(mcp.context?.[0]).toContain("glob on src/b.ts");
  await w.clock.advance(61_000);
  const notebook = await $.tool.call({
    tool: "NotebookEdit",
    notebook_path: `${ROOT}/src/c.ts`,
    new_source: "x",
  } as never);
  expect(injected(notebook.context)).toEqual(["ts.mdc"]);
});

test("a relative path is read against the project root", async ($, on) => {
  world(on, RULES);
  const result = await $.tool.call({ tool: "Write", file_path: "src/rel.ts", content: "x" });
  expect(result.context?.[0]).toContain("glob on src/rel.ts");
});

test("a denied call is left alone", async ($, on) => {
  const w = world(on, RULES);
  w.answerTool = (e) => (e.tool === "Edit" ? { deny: "not allowed" } : { result: "done" });
  const denied = await $.tool.call({
    tool: "Edit",
    file_path: `${ROOT}/src/app.ts`,
    old_string: "a",
    new_string: "b",
  });
  expect(denied.context).toBeUndefined();
});

test("an errored tool result still carries the rules", async ($, on) => {
  const w = world(on, RULES);
  w.answerTool = () => ({
    isError: true,
    result: "File has not been read yet",
    text: "File has not been read yet",
  });
  const result = await $.tool.call({
    tool: "Write",
    file_path: `${ROOT}/src/app.ts`,
    content: "x",
  });
  expect(result.isError).toBe(true);
  expect(injected(result.context)).toEqual(["ts.mdc"]);
});

test("an edit that matches no rule attaches nothing", async ($, on) => {
  const w = world(on, RULES);
  const result = await $.tool.call({ tool: "Write", file_path: `${ROOT}/README.md`, content: "x" });
  expect(result.context).toBeUndefined();
  expect(w.state()).toBeUndefined();
});

test("a project inside a checkout matches paths below its own root", async ($, on) => {
  const w = world(on, {});
  // The checkout is one level up; the project is `backend/`.
  w.write("/srv/ada/.git/HEAD", "ref: refs/heads/main");
  w.write(`${ROOT}/.cursor/rules/ts.mdc`, "---\nglobs: src/**/*.ts\n---\n# TypeScript rule");
  const result = await $.tool.call({ tool: "Write", file_path: `${ROOT}/src/a.ts`, content: "x" });
  expect(result.context?.[0]).toContain("glob on src/a.ts");
});
