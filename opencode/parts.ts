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
