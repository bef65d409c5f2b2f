// The parts the plugin reads of a person's message and adds to it.
import { describe, expect, test } from "bun:test";
import { nextPartId, personText, withTurnRules } from "../parts";

describe("personText", () => {
  test("joins the person's text parts and leaves out what opencode composed", () => {
    const parts = [
      { type: "text", text: "add a test" },
      { type: "file", url: "file:///x" },
      { type: "text", text: "The user attached x", synthetic: true },
      { type: "text", text: "for orders" },
      { type: "text", text: "hidden", ignored: true },
    ];
    expect(personText(parts)).toBe("add a test\nfor orders");
  });

  test("a message with only composed parts is nobody's prompt", () => {
    expect(
      personText([{ type: "text", text: "Continue", synthetic: true } as never]),
    ).toBeUndefined();
    expect(personText([])).toBeUndefined();
  });
});

describe("nextPartId", () => {
  test("sorts right after the part it follows, in opencode's shape", () => {
    const after = "prt_242e78c65001m58873STsCiUlq";
    const first = nextPartId(after);
    const second = nextPartId(first);
    expect(first).toMatch(/^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(first.slice(0, 16)).toBe("prt_242e78c65002");
    expect(after < first && first < second).toBe(true);
  });

  test("without a part to follow, from the clock", () => {
    const id = nextPartId(undefined);
    const now = (BigInt(Date.now()) * 4096n) & 0xffffffffffffn;
    expect(BigInt(`0x${id.slice(4, 16)}`) >= now - 4096n * 1000n).toBe(true);
  });
});

describe("withTurnRules", () => {
  const conversation = () => [
    {
      info: { id: "msg_1", role: "user", sessionID: "ses_a" },
      parts: [{ id: "prt_242e78c65001aaaaaaaaaaaaaa", type: "text", text: "first" }],
    },
    {
      info: { id: "msg_2", role: "assistant", sessionID: "ses_a" },
      parts: [{ id: "prt_242e78c65100aaaaaaaaaaaaaa", type: "text", text: "ok" }],
    },
    {
      info: { id: "msg_3", role: "user", sessionID: "ses_a" },
      parts: [{ id: "prt_242e78c65200aaaaaaaaaaaaaa", type: "text", text: "second" }],
    },
    { info: { id: "msg_4", role: "assistant", sessionID: "ses_a" }, parts: [] },
  ];

  test("adds the frames after the last user message's parts, on a copy of it", () => {
    const messages = conversation();
    const kept = messages[2];
    withTurnRules(messages, ["[rule-fairy shard 1/1 at] build.mdc", "second frame"]);
    const parts = messages[2]?.parts as {
      id: string;
      text: string;
      synthetic?: boolean;
      messageID?: string;
    }[];
    expect(parts.map((p) => p.text)).toEqual([
      "second",
      "[rule-fairy shard 1/1 at] build.mdc",
      "second frame",
    ]);
    expect(parts.slice(1).every((p) => p.synthetic === true && p.messageID === "msg_3")).toBe(true);
    const ids = parts.map((p) => p.id);
    expect([...ids].sort()).toEqual(ids);
    // The message opencode keeps is not the one changed.
    expect(kept?.parts).toHaveLength(1);
    expect(messages[0]?.parts).toHaveLength(1);
  });

  test("a conversation without a user message is left as it is", () => {
    const messages = [
      { info: { role: "assistant" }, parts: [] },
      { info: null, parts: "x" },
    ];
    withTurnRules(messages, ["frame"]);
    expect(messages).toEqual([
      { info: { role: "assistant" }, parts: [] },
      { info: null, parts: "x" },
    ]);
  });
});
