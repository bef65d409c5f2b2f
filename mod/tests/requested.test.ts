import { expect, test } from "claude-code/testing";
import { injected, ROOT, world } from "./world";

// Requestable rules and mentions (behaviour §9).
const RULES = {
  ".cursor/rules/ops/release.mdc":
    "---\ndescription: Steps before tagging a release\nglobs:\nalwaysApply: false\n---\n# Release\n\n@docs/release.md#tagging",
  ".cursor/rules/manual.mdc": "# Manual\n\nBy hand.",
  "docs/release.md": "# Release\n\n## Tagging\n\nSign every tag.\n\n## Other\n\nNot imported.\n",
  "src/app.ts": "export const a = 1;\n",
};

test("the first prompt carries the index, and a Read of a listed file brings the rule", async ($, on) => {
  world(on, RULES);
  const prompt = await $.prompt.submit({
    text: "prepare the release",
    wait: false,
    origin: { kind: "composer" },
  });
  const [index] = injected(prompt.context);
  expect(index).toMatch(/^index of requestable rules [0-9a-f]{8}$/);
  expect(prompt.context?.[0]).toContain(
    "- `ops/release.mdc` (`.cursor/rules/ops/release.mdc`): Steps before tagging a release",
  );
  expect(prompt.context?.[0]).not.toContain("Sign every tag.");
  const other = await $.tool.call({ tool: "Read", file_path: `${ROOT}/src/app.ts` } as never);
  expect(other.context ?? []).toEqual([]);
  const read = await $.tool.call({
    tool: "Read",
    file_path: `${ROOT}/.cursor/rules/ops/release.mdc`,
  } as never);
  expect(injected(read.context)).toEqual(["ops/release.mdc"]);
  expect(read.context?.[0]).toContain(
    "[rule-fairy matched: requested by reading .cursor/rules/ops/release.mdc]",
  );
  expect(read.context?.[0]).toContain("Sign every tag.");
  expect(read.context?.[0]).not.toContain("Not imported.");
});

test("a prompt naming @manual brings the rule with no trigger", async ($, on) => {
  world(on, RULES);
  const prompt = await $.prompt.submit({
    text: "use @manual for this",
    wait: false,
    origin: { kind: "composer" },
  });
  expect(injected(prompt.context)[0]).toBe("manual.mdc");
  expect(prompt.context?.[0]).toContain("[rule-fairy matched: mention @manual]");
  expect(prompt.context?.[0]).toContain("By hand.");
});
