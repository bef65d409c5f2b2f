// Instruction files Claude Code does not load itself (behaviour §5.3),
// through the mod: a nested AGENTS.md comes with an edit below it, the
// CLAUDE.md of a directory a shell command changed a file in comes with
// what it imports, and a file Claude Code attached already is not repeated.
import { expect, test } from "claude-code/testing";
import { injected, ROOT, world } from "./world";

const prompt = { text: "go", wait: false, origin: { kind: "composer" } } as const;

const PROJECT = {
  ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base",
  "services/api/AGENTS.md": "API: every handler validates its input.",
  "services/billing/CLAUDE.md": "# Billing\n\nSee @notes.md.",
  "services/billing/notes.md": "Amounts are integers of cents.",
};

test("an edit below a nested AGENTS.md brings it once", async ($, on) => {
  world(on, PROJECT);
  await $.prompt.submit(prompt);
  const edit = { tool: "Edit", old_string: "a", new_string: "b" } as const;
  const first = await $.tool.call({ ...edit, file_path: `${ROOT}/services/api/h.ts` });
  expect(injected(first.context)).toEqual(["instruction file services/api/AGENTS.md"]);
  const text = (first.context ?? []).join("\n");
  expect(text).toContain(
    "[rule-fairy matched: instruction files Claude Code did not load, for services/api/h.ts]",
  );
  expect(text).toContain("# services/api/AGENTS.md\n\nAPI: every handler validates its input.");
  const again = await $.tool.call({ ...edit, file_path: `${ROOT}/services/api/g.ts` });
  expect(again.context).toBeUndefined();
  // Claude Code's own Edit loads a CLAUDE.md: nothing comes for it.
  const billing = await $.tool.call({ ...edit, file_path: `${ROOT}/services/billing/b.ts` });
  expect(billing.context).toBeUndefined();
});

test("a shell change brings the CLAUDE.md and its import, less what Claude Code attached", async ($, on) => {
  const w = world(on, PROJECT);
  await $.prompt.submit(prompt);
  await w.clock.advance(2_000);
  w.write("services/billing/run.ts", "x");
  w.status = ["?? services/billing/run.ts"];
  // The model had read a file there: Claude Code attached the CLAUDE.md.
  w.messages = [
    {
      role: "user",
      content: [
        {
          type: "text",
          text: `<system-reminder>\nContents of ${ROOT}/services/billing/CLAUDE.md:\n\n# Billing\n</system-reminder>`,
        },
      ],
    },
  ];
  const result = await $.tool.call({ tool: "Bash", command: "printf x > services/billing/run.ts" });
  expect(injected(result.context)).toEqual(["instruction file services/billing/notes.md"]);
  const text = (result.context ?? []).join("\n");
  expect(text).toContain("for services/billing/run.ts, changed by a shell command]");
  expect(text).toContain("Amounts are integers of cents.");
});

test("an AGENTS.md larger than the host reads is named with its size, never read", async ($, on) => {
  const w = world(on, PROJECT);
  w.write("services/big/AGENTS.md", "x".repeat(5 * 1024 * 1024));
  await $.prompt.submit(prompt);
  const result = await $.tool.call({
    tool: "Edit",
    file_path: `${ROOT}/services/big/a.ts`,
    old_string: "a",
    new_string: "b",
  });
  const text = (result.context ?? []).join("\n");
  expect(text).toContain("services/big/AGENTS.md");
  expect(text).toContain("too large (5242880 bytes");
  expect(w.reads.filter((path) => path.endsWith("services/big/AGENTS.md"))).toEqual([]);
});
