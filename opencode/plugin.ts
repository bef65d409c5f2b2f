// Rule Fairy for opencode: a repository's rules delivered when they
// matter, in process, by the same WebAssembly engine and the same delivery
// code as the Claude Code mod (../mod), over a `$` made for opencode
// (./host). A prompt brings always-on, keyword and mentioned rules and the
// index of requestable rules, as parts of the person's message that
// opencode keeps; reading a requestable rule's file brings it, and edits,
// patches and shell changes bring the rules whose globs match, appended to
// the tool's output; a subagent (opencode's `task`) gets them in its own
// session; a compaction lets every rule come again. The engine decides
// everything; this file only carries.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin";
import { compacted, deliverApart, type Event, type Thread } from "../mod/deliver";
import { applyPatchPaths, opencodeGlobalRules } from "../mod/engine/rule_fairy_wasm";
import { loadEngine } from "../mod/engine";
import { failureEntry, failureSummary, type Kind } from "../mod/failure";
import { checkWritten } from "../mod/gate";
import { configureWorkspaces } from "../mod/snapshot";
import { useStateDir } from "../mod/state";
import { Conversations } from "./conversation";
import { guardAll } from "./guard";
import { nextPartId, personText, withTurnRules } from "./parts";
import { engineHost, hostFor, type Places, type SessionFacts, screenOf } from "./host";

type Client = PluginInput["client"];

/** Tools that write one file, named by `filePath`. */
const FILE_TOOLS = new Set(["edit", "write"]);
/** Tools that apply a patch text, naming its files in headers. */
const PATCH_TOOLS = new Set(["patch", "apply_patch"]);

const here = dirname(fileURLToPath(import.meta.url));
const PLACES: Places = { pluginRoot: join(here, ".."), engineDir: join(here, "../mod/engine") };

export const RuleFairy: Plugin = async ({ client, directory }) => {
  useStateDir(".rule-fairy/opencode");
  const screen = screenOf(client);
  const conversations = new Conversations();
  const sessions = new Sessions(client);
  // Loaded at the first event, and tried again at the next one after a
  // failure, never left as a rejection no one awaits.
  let booting: Promise<void> | undefined;
  const booted = () => {
    booting ??= bootEngine().catch((error: unknown) => {
      booting = undefined;
      throw error;
    });
    return booting;
  };

  /** The frames of per-turn rules each session's model gets with every
   * call of the current turn, until the person's next message. */
  const turns = new Map<string, string[]>();

  /** Delivers `event` for `session`: the entries to keep in its
   * conversation (or one error entry), the per-turn frames kept aside. */
  async function carry(
    session: string,
    kind: Kind,
    event: Event,
    after?: ($: ReturnType<typeof hostFor>) => Promise<string[]>,
  ): Promise<string[]> {
    try {
      await booted();
      const facts = await sessions.facts(session);
      const $ = hostFor(directory, facts, PLACES, conversations, client, screen);
      const thread: Thread =
        facts.session === facts.rootSession
          ? { kind: "main" }
          : { kind: "agent", id: facts.session };
      const { entries, perTurn } = await deliverApart($, event, thread);
      if (after !== undefined) entries.push(...(await after($)));
      conversations.delivered(session, entries);
      if (perTurn.length > 0) turns.set(session, [...(turns.get(session) ?? []), ...perTurn]);
      return entries;
    } catch (error) {
      const detail = String(error instanceof Error ? error.message : error);
      screen.show(`rule-fairy: ${failureSummary(kind, "threw", detail)}`);
      return [failureEntry(kind, "threw", detail)];
    }
  }

  const hooks: Hooks = {
    "chat.message": async (input, output) => {
      const started = performance.now();
      // The message names its agent and model when the input does not.
      const message = output.message as { agent?: string; model?: { modelID?: string } };
      sessions.saw(
        input.sessionID,
        input.agent ?? message.agent,
        input.model?.modelID ?? message.model?.modelID,
      );
      if (!Array.isArray(output.parts)) throw new Error("the message has no list of parts");
      const prompt = personText(output.parts);
      // A message opencode composed itself (every text part synthetic) is
      // not the person's: keyword rules match what the person asked.
      if (prompt === undefined) return;
      const command = sessions.takeCommand(input.sessionID);
      // A new turn: the last one's per-turn rules hold no more.
      turns.delete(input.sessionID);
      const entries = await carry(input.sessionID, "prompt", { kind: "prompt", prompt, command });
      let last = output.parts.at(-1)?.id;
      for (const text of entries) {
        last = nextPartId(last);
        output.parts.push({
          id: last,
          sessionID: output.message.sessionID,
          messageID: output.message.id,
          type: "text",
          text,
          synthetic: true,
        });
      }
      // The whole hook as the plugin times it (opencode times no hook):
      // the benchmark reads it (tests/opencode/bench-session.mjs).
      screen.debug(
        `rule-fairy: chat.message hook took ${(performance.now() - started).toFixed(2)} ms`,
      );
    },

    "command.execute.before": async (input) => {
      sessions.noteCommand(input.sessionID, input.command);
    },

    "tool.execute.after": async (input, output) => {
      const entries = await toolEntries(input.tool, input.args, input.sessionID, input.callID);
      if (entries.length > 0) output.output = `${output.output}\n\n${entries.join("\n\n")}`;
    },

    // Before every model call: what the model holds is read back from
    // here, then the turn's per-turn rules are added for this call alone.
    "experimental.chat.messages.transform": async (_input, output) => {
      const session = conversations.seen(output.messages);
      const frames = session === undefined ? undefined : turns.get(session);
      if (frames !== undefined) withTurnRules(output.messages, frames);
    },

    event: async ({ event }) => {
      const properties = (event as { properties?: Record<string, unknown> }).properties ?? {};
      const session = typeof properties.sessionID === "string" ? properties.sessionID : undefined;
      switch (event.type) {
        case "session.created": {
          const info = properties.info as { id?: string; parentID?: string } | undefined;
          if (typeof info?.id === "string") {
            sessions.created(info.id, info.parentID);
            conversations.empty(info.id);
          }
          return;
        }
        case "session.compacted":
          if (session === undefined) return;
          conversations.empty(session);
          await compactedSafely(session);
          return;
        // A revert hides messages from the model before it removes them:
        // what was delivered is asked of the server again.
        case "session.updated": {
          const info = properties.info as { id?: string; revert?: unknown } | undefined;
          if (typeof info?.id === "string" && info.revert != null) conversations.forget(info.id);
          return;
        }
        case "message.removed":
        case "message.part.removed":
          if (session !== undefined) conversations.forget(session);
          return;
      }
    },
  };

  async function toolEntries(
    tool: string,
    args: unknown,
    session: string,
    callID: string,
  ): Promise<string[]> {
    const given = (typeof args === "object" && args !== null ? args : {}) as Record<
      string,
      unknown
    >;
    if (FILE_TOOLS.has(tool) && typeof given.filePath === "string") {
      const file = given.filePath;
      return carry(session, "edit", { kind: "edit", file, id: callID }, ($) =>
        checkWritten($, file),
      );
    }
    if (PATCH_TOOLS.has(tool)) {
      const patch = [given.patchText, given.patch, given.input].find((v) => typeof v === "string");
      if (typeof patch !== "string") return [];
      await booted();
      const entries: string[] = [];
      for (const file of applyPatchPaths(patch)) {
        entries.push(
          ...(await carry(session, "edit", { kind: "edit", file, id: `${callID}:${file}` }, ($) =>
            checkWritten($, file),
          )),
        );
      }
      return entries;
    }
    if (tool === "read" && typeof given.filePath === "string") {
      return carry(session, "read", { kind: "read", file: given.filePath, id: callID });
    }
    if (tool === "bash") return carry(session, "shell", { kind: "shell", id: callID });
    return [];
  }

  async function compactedSafely(session: string): Promise<void> {
    try {
      await booted();
      const facts = await sessions.facts(session);
      const $ = hostFor(directory, facts, PLACES, conversations, client, screen);
      await compacted($, facts.session === facts.rootSession ? undefined : facts.session);
    } catch (error) {
      screen.show(`rule-fairy: compaction not recorded: ${String(error)}`);
    }
  }

  return guardAll(hooks, (line) => screen.show(line));
};

/** Loads the engine once, before any session's first event, and tells
 * every workspace it serves opencode, with opencode-rules' global rules
 * directory as the engine picks it from the environment (behaviour §5.2.4). */
async function bootEngine(): Promise<void> {
  await loadEngine(engineHost(PLACES));
  const { OPENCODE_CONFIG_DIR, XDG_CONFIG_HOME, HOME } = process.env;
  const global = opencodeGlobalRules(OPENCODE_CONFIG_DIR, XDG_CONFIG_HOME, HOME);
  configureWorkspaces((ws) => {
    ws.setHost("opencode");
    if (global !== undefined) ws.setGlobalRules(global, HOME);
  });
}

/** Which top-level session each session belongs to, and the agent and
 * model its last message named. A subagent's session (opencode's `task`)
 * has a parent; its record lives beside its top-level session's. */
class Sessions {
  private readonly parents = new Map<string, string | null>();
  private readonly last = new Map<string, { agent?: string; model?: string }>();
  private readonly commands = new Map<string, string>();

  constructor(private readonly client: Client) {}

  created(session: string, parent: string | undefined): void {
    this.parents.set(session, parent ?? null);
  }

  saw(session: string, agent: string | undefined, model: string | undefined): void {
    this.last.set(session, { agent, model });
  }

  noteCommand(session: string, command: string): void {
    // Named without its slash, as Claude Code names a command.
    this.commands.set(session, command.replace(/^\//, ""));
  }

  takeCommand(session: string): string | undefined {
    const command = this.commands.get(session);
    this.commands.delete(session);
    return command;
  }

  async facts(session: string): Promise<SessionFacts> {
    const rootSession = await this.rootOf(session);
    return { rootSession, session, ...this.last.get(session) };
  }

  /** The top-level session above `session` (itself when it has none). */
  private async rootOf(session: string): Promise<string> {
    let current = session;
    for (let depth = 0; depth < 16; depth += 1) {
      const parent = await this.parentOf(current);
      if (parent === null) return current;
      current = parent;
    }
    return current;
  }

  private async parentOf(session: string): Promise<string | null> {
    const known = this.parents.get(session);
    if (known !== undefined) return known;
    const answer = await this.client.session.get({ path: { id: session } });
    const parent = (answer.data as { parentID?: string } | undefined)?.parentID ?? null;
    this.parents.set(session, parent);
    return parent;
  }
}
