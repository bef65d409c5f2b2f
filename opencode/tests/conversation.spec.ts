// What the plugin reads back of a session's conversation: the texts the
// model is sent since the last compaction that hold a delivery.
import { describe, expect, test } from "bun:test";
import { Conversations, textsSinceCompaction } from "../conversation";

const SHARD = (rule: string) => `[rule-fairy shard 1/1 d1] ${rule}\nbody`;

const user = (id: string, ...parts: unknown[]) => ({
  info: { id, role: "user", sessionID: "ses_a" },
  parts,
});
const assistant = (id: string, extra: Record<string, unknown>, ...parts: unknown[]) => ({
  info: { id, role: "assistant", sessionID: "ses_a", ...extra },
  parts,
});
const text = (value: string, flags: Record<string, unknown> = {}) => ({
  type: "text",
  text: value,
  ...flags,
});
const tool = (output: string, time: Record<string, unknown> = {}) => ({
  type: "tool",
  tool: "edit",
  state: { status: "completed", output, time: { start: 1, end: 2, ...time } },
});

describe("textsSinceCompaction", () => {
  test("keeps text parts and tool outputs holding a shard, in order", () => {
    const messages = [
      user("m1", text("hello"), text(SHARD("base.mdc"), { synthetic: true })),
      assistant("m2", {}, tool(`Edited.\n\n${SHARD("api.mdc")}`), tool("no rules here")),
    ];
    expect(textsSinceCompaction(messages)).toEqual([
      SHARD("base.mdc"),
      `Edited.\n\n${SHARD("api.mdc")}`,
    ]);
  });

  test("keeps what opencode's read tool attached of an instruction file, not a quote of it", () => {
    const attached =
      "<file>\nx\n</file>\n\n<system-reminder>\nInstructions from: /p/a/AGENTS.md\nA.\n</system-reminder>";
    const messages = [
      assistant("m1", {}, tool(attached)),
      user("m2", text("Instructions from: /p/b/AGENTS.md, quoted")),
    ];
    expect(textsSinceCompaction(messages)).toEqual([attached]);
  });

  test("starts after the last compaction's summary", () => {
    const messages = [
      user("m1", text(SHARD("old.mdc"), { synthetic: true })),
      user("m2", { type: "compaction", auto: false }),
      assistant(
        "m3",
        { summary: true, finish: "stop" },
        text(`summary quoting ${SHARD("quoted.mdc")}`),
      ),
      user("m4", text(SHARD("new.mdc"), { synthetic: true })),
    ];
    expect(textsSinceCompaction(messages)).toEqual([SHARD("new.mdc")]);
  });

  test("passes over what the model is not sent, and kinds it does not know", () => {
    const messages = [
      user("m1", text(SHARD("ignored.mdc"), { ignored: true }), {
        type: "hologram",
        text: SHARD("x"),
      }),
      assistant(
        "m2",
        {},
        tool(SHARD("cleared.mdc"), { compacted: 5 }),
        { type: "tool", state: { status: "error", error: SHARD("failed.mdc") } },
        null,
        "not a part",
      ),
      { info: null, parts: "not a list" },
    ];
    expect(textsSinceCompaction(messages)).toEqual([]);
  });
});

describe("Conversations", () => {
  const unusedClient = {
    session: {
      messages: async () => {
        throw new Error("not asked");
      },
    },
  } as never;

  test("a session seen before a model call costs no request, and deliveries since are added", async () => {
    const conversations = new Conversations();
    conversations.seen([user("m1", text(SHARD("base.mdc"), { synthetic: true }))]);
    conversations.delivered("ses_a", [SHARD("api.mdc"), "[rule-fairy error: edit delivery threw]"]);
    expect(await conversations.of(unusedClient, "ses_a")).toEqual([
      SHARD("base.mdc"),
      SHARD("api.mdc"),
    ]);
  });

  test("a compacted session holds nothing; a forgotten one is asked for again", async () => {
    const conversations = new Conversations();
    conversations.seen([user("m1", text(SHARD("base.mdc"), { synthetic: true }))]);
    conversations.empty("ses_a");
    expect(await conversations.of(unusedClient, "ses_a")).toEqual([]);
    conversations.forget("ses_a");
    let asked = 0;
    const client = {
      session: {
        messages: async ({ path }: { path: { id: string } }) => {
          asked += 1;
          expect(path.id).toBe("ses_a");
          return { data: [user("m1", text(SHARD("again.mdc"), { synthetic: true }))] };
        },
      },
    } as never;
    expect(await conversations.of(client, "ses_a")).toEqual([SHARD("again.mdc")]);
    expect(await conversations.of(client, "ses_a")).toEqual([SHARD("again.mdc")]);
    expect(asked).toBe(1);
  });

  test("a server that gives no messages is an error, not an empty conversation", async () => {
    const client = { session: { messages: async () => ({ error: "gone" }) } } as never;
    await expect(new Conversations().of(client, "ses_b")).rejects.toThrow("ses_b");
  });
});
