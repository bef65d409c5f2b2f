// Rule Fairy for Claude Code: a repository's rules delivered when they
// matter. Prompts bring always-on, keyword and mentioned rules and the
// index of requestable rules, reading a requestable rule's file brings it,
// edits and shell changes bring the rules whose globs match, and a written file is held to
// the repository's ast-grep rules; the WebAssembly engine decides
// everything (../wasm, built into ./engine), this module only carries.
import type { Register } from "claude-code";
import { compacted, deliver } from "./deliver";
import { entryFor, logLine } from "./failure";
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
    if (e.agentId === undefined && e.trigger !== "precompute" && result.skip === undefined)
      await compacted($);
    return result;
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

  on("tool.call", { tool: EDIT_TOOLS }, async ($, e, next) => {
    const result = await next(e);
    if (e.agentId !== undefined || result.deny !== undefined) return result;
    const input = e as unknown as Record<string, unknown>;
    const file = [input.file_path, input.notebook_path, input.path].find(
      (value) => typeof value === "string",
    );
    if (typeof file !== "string") return result;
    const entries = await deliver($, { kind: "edit", file, id: e.tool_use_id ?? "" });
    // A call that errored wrote nothing: the file's old findings are not
    // this write's. Its rules still come, as for any edit.
    if (result.isError !== true) entries.push(...(await checkWritten($, file)));
    return entries.length === 0
      ? result
      : { ...result, context: [...(result.context ?? []), ...entries] };
  }).catch(async ($, e, next) => {
    const result = await next(e);
    if (e.agentId !== undefined || result.deny !== undefined) return result;
    const entry = entryFor("edit", next.error);
    $.ui.log(logLine("edit", next.error), { to: "transcript" });
    return { ...result, context: [...(result.context ?? []), entry] };
  });

  // Reading a requestable rule's file is how the model asks for the rule
  // (behaviour §9.2), and reading a file below a nested rules folder
  // brings that folder's always-on rules (§1.2): they come rendered,
  // attached to the read's result.
  on("tool.call", { tool: "Read" }, async ($, e, next) => {
    const result = await next(e);
    if (e.agentId !== undefined || result.deny !== undefined || result.isError === true)
      return result;
    const file = (e as unknown as Record<string, unknown>).file_path;
    if (typeof file !== "string") return result;
    const entries = await deliver($, { kind: "read", file, id: e.tool_use_id ?? "" });
    return entries.length === 0
      ? result
      : { ...result, context: [...(result.context ?? []), ...entries] };
  }).catch(async ($, e, next) => {
    const result = await next(e);
    if (e.agentId !== undefined || result.deny !== undefined) return result;
    const entry = entryFor("read", next.error);
    $.ui.log(logLine("read", next.error), { to: "transcript" });
    return { ...result, context: [...(result.context ?? []), entry] };
  });

  on("tool.call", { tool: "Bash" }, async ($, e, next) => {
    const result = await next(e);
    if (e.agentId !== undefined || result.deny !== undefined) return result;
    const entries = await deliver($, { kind: "shell", id: e.tool_use_id ?? "" });
    return entries.length === 0
      ? result
      : { ...result, context: [...(result.context ?? []), ...entries] };
  }).catch(async ($, e, next) => {
    const result = await next(e);
    if (e.agentId !== undefined || result.deny !== undefined) return result;
    const entry = entryFor("shell", next.error);
    $.ui.log(logLine("shell", next.error), { to: "transcript" });
    return { ...result, context: [...(result.context ?? []), entry] };
  });
};
