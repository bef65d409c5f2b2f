// The texts of the conversation Claude Code sends next that may hold
// deliveries, or instruction files Claude Code loaded itself. The engine
// reads them (hook-context reminders, shard headers, `Contents of` lines);
// here they are only gathered, cheaply: most texts hold neither.
import type { EngineInterface } from "claude-code";

const MARK = "[rule-fairy shard ";
const LOADED = "Contents of ";
const REMINDER = "<system-reminder>";

/** Every string in the messages' blocks that names a shard or holds a
 * reminder naming a file Claude Code loaded: text blocks,
 * tool results (a string or nested blocks), in conversation order. The
 * main thread's conversation, or the subagent's whose `agentId` is given:
 * each has its own context. */
export async function frameTexts($: EngineInterface, agentId?: string): Promise<string[]> {
  const messages: unknown = await $.session.messages(
    agentId === undefined ? { as: "api" } : { agentId, as: "api" },
  );
  const found: string[] = [];
  if (Array.isArray(messages)) {
    for (const message of messages) collect((message as { content?: unknown }).content, found);
  }
  return found;
}

function collect(value: unknown, found: string[]): void {
  if (typeof value === "string") {
    if (value.includes(MARK) || (value.includes(LOADED) && value.includes(REMINDER))) {
      found.push(value);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, found);
  } else if (typeof value === "object" && value !== null) {
    const block = value as { text?: unknown; content?: unknown };
    collect(block.text, found);
    collect(block.content, found);
  }
}
