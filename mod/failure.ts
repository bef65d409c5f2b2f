// Error entries for deliveries that stopped in the mod itself (a `$` call
// refused, the engine not loading, the hook's time running out). The
// engine builds these texts (`deliveryFailed`, `failureSummary`); this is
// its copy for when the engine is what failed, and tests/claude/copies.test.mjs
// holds the two equal.
import type { HookFailure } from "claude-code";
import type { RequestKind } from "./engine/rule_fairy_wasm";

export type Kind = RequestKind;
export type How = "failed" | "threw" | "timed out";

/** The original's closing line: nothing was recorded, so the same rules
 * come with the next matching event. */
export const NOTHING_INJECTED = "No matched rules were injected or marked as injected.";

/** Characters (code points) of detail an entry keeps, as the engine's do. */
const DETAIL_CHARS = 1_000;

/** Rust's `str::trim`: Unicode White_Space, which is JavaScript's `\s`
 * without U+FEFF and with U+0085. */
const EDGE_SPACE =
  /^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** The detail trimmed and cut to DETAIL_CHARS characters. */
function kept(detail: string): string {
  return Array.from(detail.replace(EDGE_SPACE, "")).slice(0, DETAIL_CHARS).join("");
}

/** `[rule-fairy error: <kind> delivery <how>]`, the detail, the closing
 * line. No shard header, so it is never read back as a delivery. */
export function failureEntry(kind: string, how: How, detail: string): string {
  const detailKept = kept(detail);
  const lines = [`[rule-fairy error: ${kind} delivery ${how}]`];
  if (detailKept !== "") lines.push(detailKept);
  lines.push(NOTHING_INJECTED);
  return lines.join("\n");
}

/** `<kind> delivery <how>: <detail>`, the line logged with the entry. */
export function failureSummary(kind: string, how: How, detail: string): string {
  const detailKept = kept(detail);
  return `${kind} delivery ${how}${detailKept === "" ? "" : `: ${detailKept}`}`;
}

/** The entry for a hook the engine reports failed. */
export function entryFor(kind: Kind, error: HookFailure | undefined): string {
  return failureEntry(kind, howOf(error), message(error));
}

function howOf(error: HookFailure | undefined): How {
  return error?.kind === "timeout" ? "timed out" : "threw";
}

/** What went wrong, without the `Error: ` the engine's report starts with. */
function message(error: HookFailure | undefined): string {
  return (error?.message ?? "").trim().replace(/^Error: /, "");
}

/** The transcript line for a failed delivery. */
export function logLine(kind: Kind, error: HookFailure | undefined): string {
  return `rule-fairy: ${failureSummary(kind, howOf(error), message(error))}`;
}
