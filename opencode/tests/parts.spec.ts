// The parts the plugin reads of a person's message and adds to it.
import { describe, expect, test } from "bun:test";
import { nextPartId, personText } from "../parts";

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
