// The parts of a person's message the plugin reads and adds: opencode
// keeps a message's parts in the order of their ids, and a text part it
// composed itself is marked synthetic.

/** The person's words in a message: its text parts opencode did not
 * compose, joined; undefined when there are none. */
export function personText(parts: readonly { type: string }[]): string | undefined {
  const texts = parts.flatMap((part) => {
    const text = part as { type: string; text?: unknown; synthetic?: unknown; ignored?: unknown };
    return text.type === "text" &&
      text.synthetic !== true &&
      text.ignored !== true &&
      typeof text.text === "string"
      ? [text.text]
      : [];
  });
  return texts.length === 0 ? undefined : texts.join("\n");
}

/** A part id that sorts right after `after`: opencode orders a message's
 * parts by id (`prt_`, 12 hex digits of time and counter, 14 more). */
export function nextPartId(after: string | undefined): string {
  const hex = after?.slice(4, 16);
  const base =
    hex !== undefined && /^[0-9a-f]{12}$/.test(hex)
      ? BigInt(`0x${hex}`)
      : BigInt(Date.now()) * 4096n;
  const next = ((base + 1n) & 0xffffffffffffn).toString(16).padStart(12, "0");
  return `prt_${next}${randomTail()}`;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomTail(): string {
  let tail = "";
  for (let index = 0; index < 14; index += 1) tail += BASE62[Math.floor(Math.random() * 62)];
  return tail;
}

type Sent = { info?: unknown; parts?: unknown };

/** The conversation about to be sent with the per-turn `frames` added for
 * this call alone: synthetic text parts after the last user message's own
 * (opencode does not keep what this hook adds). A conversation without a
 * user message is left as it is. */
export function withTurnRules(messages: Sent[], frames: readonly string[]): void {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    const info = message?.info as { id?: unknown; role?: unknown; sessionID?: unknown } | undefined;
    if (info?.role !== "user" || !Array.isArray(message?.parts)) continue;
    const parts = message.parts as { id?: unknown }[];
    let last = parts.at(-1)?.id;
    const added = frames.map((text) => {
      last = nextPartId(typeof last === "string" ? last : undefined);
      return {
        id: last,
        sessionID: info.sessionID,
        messageID: info.id,
        type: "text",
        text,
        synthetic: true,
      };
    });
    // A copy of the message: the one opencode keeps is not changed.
    messages[index] = { ...message, parts: [...parts, ...added] };
    return;
  }
}
