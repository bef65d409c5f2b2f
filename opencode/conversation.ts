// What each session's model holds, as far as deliveries go: the texts of
// its conversation since the last compaction (user text parts, tool
// outputs not yet cleared), where the engine reads back the rules it
// delivered. opencode hands the plugin the conversation before every model
// call (`experimental.chat.messages.transform`); it is kept from there, with
// each delivery made since added, so an event costs no request. A session
// never seen that way is asked of opencode's server once.
import type { PluginInput } from "@opencode-ai/plugin";

type Client = PluginInput["client"];

/** A message as opencode's server and hooks give it, read loosely: a newer
 * opencode may add fields or kinds of part, which are passed over. */
type Message = { info?: unknown; parts?: unknown };

/** Only texts that may hold a delivery are kept: the engine reads shard
 * headers, and the instruction files opencode's `read` tool attached
 * itself (`Instructions from: <path>` in a system reminder), nothing else
 * of the conversation. */
const MARK = "[rule-fairy shard ";
const ATTACHED = "Instructions from: ";
const REMINDER = "<system-reminder>";

function mayHoldDelivery(text: string): boolean {
  return text.includes(MARK) || (text.includes(ATTACHED) && text.includes(REMINDER));
}

export class Conversations {
  private readonly known = new Map<string, string[]>();

  /** The conversation opencode is about to send; its session's id. */
  seen(messages: readonly Message[]): string | undefined {
    const session = sessionOf(messages);
    if (session !== undefined) this.known.set(session, textsSinceCompaction(messages));
    return session;
  }

  /** Entries the plugin just attached to the session's conversation. */
  delivered(session: string, entries: readonly string[]): void {
    const texts = this.known.get(session);
    if (texts !== undefined) texts.push(...entries.filter(mayHoldDelivery));
  }

  /** A new session, or one just compacted: it holds no delivery. */
  empty(session: string): void {
    this.known.set(session, []);
  }

  /** Messages were removed (a revert): ask the server again next time. */
  forget(session: string): void {
    this.known.delete(session);
  }

  /** The session's texts that may hold deliveries. */
  async of(client: Client, session: string): Promise<string[]> {
    const texts = this.known.get(session);
    if (texts !== undefined) return texts;
    const answer = await client.session.messages({ path: { id: session } });
    if (!Array.isArray(answer.data)) {
      throw new Error(`opencode did not give session ${session}'s messages`);
    }
    const read = textsSinceCompaction(answer.data as Message[]);
    this.known.set(session, read);
    return read;
  }
}

/** The texts, shaped as the mod reads Claude Code's conversation: one
 * message whose blocks are the texts. */
export function apiMessages(texts: readonly string[]): unknown[] {
  return [{ role: "user", content: texts.map((text) => ({ type: "text", text })) }];
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

function sessionOf(messages: readonly Message[]): string | undefined {
  for (const message of messages) {
    const id = record(message.info)?.sessionID;
    if (typeof id === "string") return id;
  }
  return undefined;
}

/** Whether the message is a compaction's finished summary: the model sees
 * the conversation from there on (the summary, then what came after). */
function isSummary(message: Message): boolean {
  const info = record(message.info);
  return info?.role === "assistant" && info.summary === true;
}

/** The texts after the last compaction's summary that may hold a
 * delivery: text parts the model is sent, and tool outputs not cleared. */
export function textsSinceCompaction(messages: readonly Message[]): string[] {
  let start = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message !== undefined && isSummary(message)) {
      start = index + 1;
      break;
    }
  }
  const found: string[] = [];
  for (const message of messages.slice(start)) {
    if (!Array.isArray(message.parts)) continue;
    for (const value of message.parts) {
      const text = textOf(record(value));
      if (text !== undefined && mayHoldDelivery(text)) found.push(text);
    }
  }
  return found;
}

/** What the model is sent of a part, where it may hold a delivery. */
function textOf(part: Record<string, unknown> | undefined): string | undefined {
  if (part === undefined) return undefined;
  if (part.type === "text" && part.ignored !== true && typeof part.text === "string") {
    return part.text;
  }
  if (part.type === "tool") {
    const state = record(part.state);
    // A cleared output (`time.compacted`) is no longer sent.
    if (state?.status !== "completed" || record(state.time)?.compacted !== undefined)
      return undefined;
    return typeof state.output === "string" ? state.output : undefined;
  }
  return undefined;
}
