// Rule Fairy for Claude Code: a repository's rules delivered when they
// matter. Prompts bring always-on, keyword and mentioned rules and the
// index of requestable rules, reading a requestable rule's file brings it,
// edits and shell changes bring the rules whose globs match, a subagent
// gets them for its own task and edits, and a written file is held to
// the repository's ast-grep rules; the WebAssembly engine decides
// everything (../wasm, built into ./engine), this module only carries.
import type { EngineInterface, HookFailure, Register } from "claude-code";
import { compacted, deliver, fileChanged, type Thread, watchRules } from "./deliver";
import { entryFor, type Kind, logLine } from "./failure";
import { checkWritten } from "./gate";

/** Prompts another agent or process composed: keyword rules match what the
 * person asked, so these deliver nothing (behaviour §5.2.1). */
const NOT_THE_PERSON = new Set([
  "task-notification",
  "peer",
  "peer-send-message",
  "projects-relay",
  "coordinator",
  "observer",
  "observer-activity",
  "plugin",
]);

const EDIT_TOOLS = /^(Edit|Write|MultiEdit|NotebookEdit)$|^mcp__.*(edit|write|patch)/;

export const register: Register = (on) => {
  // A compaction takes every delivery out of the conversation; the rules
  // come again with the next event that matches them.
  on("session.compact", async ($, e, next) => {
    const result = await next(e);
    if (e.trigger !== "precompute" && result.skip === undefined) await compacted($, e.agentId);
    return result;
  }).catch((_, e, next) => next(e));

  // Claude Code watches the paths the rules came from and reports each
  // change, so a prompt while nothing changed asks the file system
  // nothing (behaviour §5.2.3). Without the watch (a mod reloaded
  // mid-session) every event revalidates, as before.
  on("classic.SessionStart", async ($, e, next) => {
    const result = await next(e);
    const paths = await watchRules($);
    if (paths.length === 0) return result;
    return { ...result, watchPaths: [...(result.watchPaths ?? []), ...paths] };
  }).catch((_, e, next) => next(e));

  on("classic.FileChanged", async (_, e, next) => {
    await fileChanged(e.file_path);
    return next(e);
  }).catch((_, e, next) => next(e));

  on("prompt.submit", async ($, e, next) => {
    if (NOT_THE_PERSON.has(e.origin.kind)) return next(e);
    const entries = await deliver($, { kind: "prompt", prompt: e.text, command: e.command?.name });
    return next(entries.length === 0 ? e : { ...e, context: [...(e.context ?? []), ...entries] });
  }).catch(async ($, e, next) => {
    const entry = entryFor("prompt", next.error);
    $.ui.log(logLine("prompt", next.error), { to: "transcript" });
    // Once the prompt entered, context can no longer attach: only the log.
    if (next.called) return next(e);
    return next({ ...e, context: [...(e.context ?? []), entry] });
  });

  // A subagent's task is its first prompt (behaviour §5.7): its rules come
  // before the task in the prompt it starts with, the one channel into a
  // subagent's context before its first request. A resumed agent keeps the
  // conversation it had; a workflow agent's prompt may be a placeholder the
  // rewrite does not reach.
  on("agent.spawn", async ($, e, next) => {
    if (e.resume !== undefined || e.workflow !== undefined) return next(e);
    const thread = { kind: "spawn", fork: e.fork, parentAgentId: e.parentAgentId } as const;
    const entries = await deliver($, { kind: "prompt", prompt: e.prompt }, thread);
    return next(entries.length === 0 ? e : { ...e, prompt: withRules(entries, e.prompt) });
  }).catch(async ($, e, next) => {
    $.ui.log(logLine("prompt", next.error), { to: "transcript" });
    if (next.called || e.resume !== undefined || e.workflow !== undefined) return next(e);
    return next({ ...e, prompt: withRules([entryFor("prompt", next.error)], e.prompt) });
  });

  on("tool.call", { tool: EDIT_TOOLS }, async ($, e, next) => {
    const result = await next(e);
    if (result.deny !== undefined) return result;
    const input = e as unknown as Record<string, unknown>;
    const file = [input.file_path, input.notebook_path, input.path].find(
      (value) => typeof value === "string",
    );
    if (typeof file !== "string") return result;
    const entries = await deliver($, { kind: "edit", file, id: e.tool_use_id ?? "" }, threadOf(e));
    // A call that errored wrote nothing: the file's old findings are not
    // this write's. Its rules still come, as for any edit.
    if (result.isError !== true) entries.push(...(await checkWritten($, file)));
    return attach(result, entries);
  }).catch(async ($, e, next) => failed($, "edit", await next(e), next.error));

  // Reading a requestable rule's file is how the model asks for the rule
  // (behaviour §9.2), and reading a file below a nested rules folder
  // brings that folder's always-on rules (§1.2): they come rendered,
  // attached to the read's result.
  on("tool.call", { tool: "Read" }, async ($, e, next) => {
    const result = await next(e);
    if (result.deny !== undefined || result.isError === true) return result;
    const file = (e as unknown as Record<string, unknown>).file_path;
    if (typeof file !== "string") return result;
    const entries = await deliver($, { kind: "read", file, id: e.tool_use_id ?? "" }, threadOf(e));
    return attach(result, entries);
  }).catch(async ($, e, next) => failed($, "read", await next(e), next.error));

  on("tool.call", { tool: "Bash" }, async ($, e, next) => {
    const result = await next(e);
    if (result.deny !== undefined) return result;
    const entries = await deliver($, { kind: "shell", id: e.tool_use_id ?? "" }, threadOf(e));
    return attach(result, entries);
  }).catch(async ($, e, next) => failed($, "shell", await next(e), next.error));
};

/** The conversation a tool call belongs to: a subagent's when it carries
 * the subagent's `agentId`, else the main thread's. */
function threadOf(e: { agentId?: string }): Thread {
  return e.agentId === undefined ? { kind: "main" } : { kind: "agent", id: e.agentId };
}

/** The task a subagent starts with, its rules before it. */
function withRules(entries: string[], task: string): string {
  return `${entries.join("\n\n")}\n\n${task}`;
}

/** A tool's result with `entries` after its own context. */
function attach<R extends { context?: readonly string[] }>(
  result: R,
  entries: readonly string[],
): R {
  return entries.length === 0
    ? result
    : { ...result, context: [...(result.context ?? []), ...entries] };
}

/** A tool call whose delivery failed: the tool's own result (a denial
 * untouched), with the error entry, and a line in the transcript. */
function failed<R extends { deny?: unknown; context?: readonly string[] }>(
  $: EngineInterface,
  kind: Kind,
  result: R,
  error: HookFailure | undefined,
): R {
  if (result.deny !== undefined) return result;
  $.ui.log(logLine(kind, error), { to: "transcript" });
  return attach(result, [entryFor(kind, error)]);
}
