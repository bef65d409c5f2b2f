// Error entries for deliveries that stopped in the mod itself (a `$` call
// refused, the engine not loading, the hook's time running out). Decisions
// the engine reaches carry their own entries; these must not need it.
import type { HookFailure } from "claude-code";

export type Kind = "prompt" | "edit" | "shell";

/** The original's closing line: nothing was recorded, so the same rules
 * come with the next matching event. */
export const NOTHING_INJECTED = "No matched rules were injected or marked as injected.";

/** Characters of detail an entry keeps, as the engine's entries do. */
const DETAIL_CHARS = 1_000;

/** `[rule-fairy error: <kind> delivery <how>]`, the detail, the closing
 * line. No shard header, so it is never read back as a delivery. */
export function failureEntry(kind: Kind, how: "threw" | "timed out", detail: string): string {
  const kept = detail.trim().slice(0, DETAIL_CHARS);
  const lines = [`[rule-fairy error: ${kind} delivery ${how}]`];
  if (kept !== "") lines.push(kept);
  lines.push(NOTHING_INJECTED);
  return lines.join("\n");
}

/** The entry for a hook the engine reports failed. */
export function entryFor(kind: Kind, error: HookFailure | undefined): string {
  const how = error?.kind === "timeout" ? "timed out" : "threw";
  return failureEntry(kind, how, message(error));
}

/** What went wrong, without the `Error: ` the engine's report starts with. */
function message(error: HookFailure | undefined): string {
  return (error?.message ?? "").trim().replace(/^Error: /, "");
}

/** The transcript line for a failed delivery. */
export function logLine(kind: Kind, error: HookFailure | undefined): string {
  const how = error?.kind === "timeout" ? "timed out" : "threw";
  const detail = message(error);
  return `rule-fairy: ${kind} delivery ${how}${detail === "" ? "" : `: ${detail.slice(0, DETAIL_CHARS)}`}`;
}
