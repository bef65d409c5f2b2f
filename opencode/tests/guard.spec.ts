// Hooks that never fail opencode's work, whatever shape they are handed.
import { expect, test } from "bun:test";
import type { Hooks } from "@opencode-ai/plugin";
import { guardAll } from "../guard";

test("a hook that throws is told once, returns, and the others still run", async () => {
  const shown: string[] = [];
  let ran = 0;
  const hooks = guardAll(
    {
      "chat.message": async (_input, output) => {
        (output as { parts: unknown }).parts.toString();
      },
      "tool.execute.after": async () => {
        ran += 1;
      },
    } as Hooks,
    (line) => shown.push(line),
  );
  const odd = { message: {}, parts: undefined } as never;
  await hooks["chat.message"]?.({ sessionID: "s" }, odd);
  await hooks["chat.message"]?.({ sessionID: "s" }, odd);
  await hooks["tool.execute.after"]?.(
    { tool: "x", sessionID: "s", callID: "c", args: {} },
    {
      title: "",
      output: "",
      metadata: {},
    },
  );
  expect(shown).toHaveLength(1);
  expect(shown[0]).toStartWith("rule-fairy: opencode's chat.message hook came in a shape");
  expect(shown[0]).toContain("the session goes on");
  expect(ran).toBe(1);
});
