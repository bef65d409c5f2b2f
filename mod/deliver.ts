// One delivery, from an event to the context entries it attaches: gather
// what the engine reads (the project's files, the conversation, the saved
// state, the facts rules test, the files they read, git, the clock), let
// it decide, carry out what it says.
import type { EngineInterface } from "claude-code";
import { frameTexts } from "./conversation";
import { type EventRequest, stateAfterCompaction } from "./engine/rule_fairy_wasm";
import { loadEngine } from "./engine";
import { gatherFacts } from "./facts";
import { serial } from "./queue";
import { gitCheck, listInstructions } from "./shell";
import {
  everySnapshot,
  readText,
  refresh,
  refreshDocuments,
  type Snapshot,
  snapshotOf,
} from "./snapshot";
import {
  keepCorrupt,
  readState,
  recordPluginRoot,
  stateFile,
  sweepOldStates,
  stateDirProblem,
  writeState,
} from "./state";

/** `command` is the slash command a prompt runs (`e.command.name`). */
export type Event =
  | { kind: "prompt"; prompt: string; command?: string }
  | { kind: "edit"; file: string; id: string }
  | { kind: "read"; file: string; id: string }
  | { kind: "shell"; id: string };

/** Whose conversation a delivery is for (behaviour §5.7): the main
 * thread's; a subagent's, by the `agentId` its tool calls carry, with a
 * record of its own; or a subagent about to start, whose task is its first
 * prompt: nothing is recorded for it yet (its conversation will hold the
 * delivery, and its first tool call reads it back), and a fork starts with
 * the deliveries it copied from its parent's conversation. */
export type Thread =
  | { kind: "main" }
  | { kind: "agent"; id: string }
  | { kind: "spawn"; fork: boolean; parentAgentId?: string };

const MAIN: Thread = { kind: "main" };

/** Directory -> whether it holds a `.git` entry (it is a checkout root). */
const checkouts = new Map<string, Promise<boolean>>();
let events = 0;

/** Timings of the last delivery, in milliseconds, for the benchmark. */
const timings = { load: 0, total: 0, files: 0, conversation: 0, facts: 0, documents: 0, engine: 0 };

/** What one delivery attaches: `entries` to keep in the conversation, and
 * `perTurn`, the frames of the rules on per-turn facts for a host that sends
 * them with the turn's model calls only (opencode; behaviour §5.2.4). */
export type Delivered = { entries: string[]; perTurn: string[] };

const nothing = (): Delivered => ({ entries: [], perTurn: [] });

/** The context entries to attach for Claude Code, which keeps every rule
 * in the conversation (its `perTurn` is always empty). */
export async function deliver(
  $: EngineInterface,
  event: Event,
  thread: Thread = MAIN,
): Promise<string[]> {
  const { entries, perTurn } = await deliverApart($, event, thread);
  return [...entries, ...perTurn];
}

export async function deliverApart(
  $: EngineInterface,
  event: Event,
  thread: Thread = MAIN,
): Promise<Delivered> {
  const started = performance.now();
  const load = await loadEngine($);
  const [root, sessionId] = await Promise.all([$.session.root(), $.session.id()]);
  const file = stateFile(
    root,
    thread.kind === "agent" ? agentState(sessionId, thread.id) : sessionId,
  );
  const delivered = await serial(sessionId, async (): Promise<Delivered> => {
    const snapshot = await snapshotOf($, root);
    // Most reads bring no rule: those cost one lookup.
    if (event.kind === "read" && !snapshot.ws.readMayDeliver(absolute(root, event.file))) {
      return nothing();
    }
    const gathering = performance.now();
    const clock = $.clock.now();
    const [, conversation, saved, now] = await Promise.all([
      clock
        .then((now) => refresh($, snapshot, now, event.kind))
        .then(() => {
          timings.files = performance.now() - gathering;
        }),
      // Held until the project says whether subagents get rules at all: a
      // subagent's conversation that cannot be read matters only then.
      conversationOf($, thread).then(
        (texts) => {
          timings.conversation = performance.now() - gathering;
          return { texts };
        },
        (error: unknown) => ({ error }),
      ),
      thread.kind === "spawn" ? "" : readState($, file),
      clock,
      sweepOldStates($, root),
      recordPluginRoot($, root),
    ]);
    if (thread.kind !== "main" && !snapshot.ws.subagents()) return nothing();
    if ("error" in conversation) throw conversation.error;
    const context = conversation.texts;
    let shell: EventRequest["shell"];
    if (event.kind === "shell") {
      const plan = snapshot.ws.shellPlan(saved);
      if (plan === "off") return nothing();
      if (plan === "check") shell = await gitCheck($, snapshot.ws, snapshot.realRoot, now);
    }
    let fileArg: string | undefined;
    if (event.kind === "edit") {
      const [placed] = await Promise.all([
        placeEdit($, snapshot, event.file),
        snapshot.ws.instructionListingDue()
          ? listInstructions($, snapshot.ws, root, true)
          : undefined,
      ]);
      fileArg = placed;
    }
    if (event.kind === "read") fileArg = absolute(root, event.file);
    const factsStarted = performance.now();
    const wants = snapshot.ws.wants();
    const [facts] = await Promise.all([
      gatherFacts($, wants, root, event.kind === "prompt" ? event.command : undefined),
      refreshDocuments($, snapshot, wants.markers),
    ]);
    timings.facts = performance.now() - factsStarted;
    events += 1;
    const request: EventRequest = {
      kind: event.kind,
      key: JSON.stringify([
        sessionId,
        thread.kind === "agent" ? thread.id : thread.kind,
        event.kind === "prompt" ? event.prompt.length : event.id,
        now,
        events,
      ]),
      prompt: event.kind === "prompt" ? event.prompt : undefined,
      file: fileArg,
      shell,
      context,
      state: saved,
      stateFile: file.shown,
      now,
      facts,
      contents: [],
      thread: threadRequest(thread),
    };
    // The files `fileContains` tests, read once each, in the order the
    // engine reads them back.
    request.contents = await Promise.all(
      snapshot.ws.contentsDue(request).map((path) => readContent($, snapshot, path)),
    );
    const documents = performance.now();
    await makeSureOfDocuments($, snapshot, request);
    timings.documents = performance.now() - documents;
    const deciding = performance.now();
    const response = snapshot.ws.decide(request);
    timings.engine = performance.now() - deciding;
    if (thread.kind !== "spawn") {
      if (typeof response.stateError === "string") await keepCorrupt($, root, file, saved);
      if (typeof response.state === "string") await writeState($, root, file, response.state);
    }
    for (const line of response.log) $.ui.log(line, { to: "transcript" });
    await tellStateDirProblem($, root, sessionId);
    return { entries: response.entries, perTurn: response.perTurn };
  });
  timings.load = load;
  timings.total = performance.now() - started;
  // The figures the benchmark reads (tests/claude/bench-session.mjs), in
  // the debug log only.
  const compiled = load > 0 ? `; engine compiled and instantiated in ${load.toFixed(2)} ms` : "";
  const parts = `files ${timings.files.toFixed(2)}, conversation ${timings.conversation.toFixed(2)}, facts ${timings.facts.toFixed(2)}, documents ${timings.documents.toFixed(2)}, engine ${timings.engine.toFixed(2)}`;
  $.ui.log(
    `rule-fairy: ${event.kind} delivery took ${timings.total.toFixed(2)} ms (${parts})${compiled}`,
    { to: "debug" },
  );
  return delivered;
}

/** Rounds of asking for documents: the rules' imports and the instruction
 * files looked for come in the first, each further round one more hop of
 * an instruction file's imports, which the engine follows four deep. */
const DOCUMENT_ROUNDS = 6;

/** Makes sure of the documents the engine says the delivery reads, asking
 * again after each round until it names nothing new: an instruction file
 * found names the files it imports only once its text is in. */
async function makeSureOfDocuments(
  $: EngineInterface,
  snapshot: Snapshot,
  request: EventRequest,
): Promise<void> {
  const done = new Set<string>();
  for (let round = 0; round < DOCUMENT_ROUNDS; round += 1) {
    const fresh = snapshot.ws.documentsDue(request).filter((doc) => !done.has(doc));
    if (fresh.length === 0) return;
    for (const doc of fresh) done.add(doc);
    await refreshDocuments($, snapshot, fresh);
  }
}

/** The thread as the engine names it in the person's line; the main
 * thread's deliveries name none. */
function threadRequest(thread: Thread): EventRequest["thread"] {
  switch (thread.kind) {
    case "main":
      return undefined;
    case "agent":
      return { kind: "agent", id: thread.id };
    case "spawn":
      return { kind: "spawn" };
  }
}

/** The state file name of a subagent's record: its session's, then the
 * agent's id (which the engine's session id policy then judges). */
function agentState(sessionId: string, agentId: string): string {
  return `${sessionId}.agent-${agentId}`;
}

/** The deliveries the thread's conversation holds: a new subagent's is
 * empty, a fork's is its parent's. */
function conversationOf($: EngineInterface, thread: Thread): Promise<string[]> {
  switch (thread.kind) {
    case "main":
      return frameTexts($);
    case "agent":
      return frameTexts($, thread.id);
    case "spawn":
      return thread.fork ? frameTexts($, thread.parentAgentId) : Promise.resolve([]);
  }
}

/** At session start: the rules loaded, and the paths the engine names
 * for Claude Code to watch, so a prompt while nothing changed asks the
 * file system nothing (behaviour §5.2.3). */
export async function watchRules($: EngineInterface): Promise<string[]> {
  await loadEngine($);
  const [root, sessionId, now] = await Promise.all([
    $.session.root(),
    $.session.id(),
    $.clock.now(),
  ]);
  return serial(sessionId, async () => {
    const snapshot = await snapshotOf($, root);
    await refresh($, snapshot, now, "prompt");
    const paths = snapshot.ws.watchPaths();
    if (paths.length > 0) snapshot.ws.watchStarted();
    return paths;
  });
}

/** Claude Code reported a change below a watched path. */
export async function fileChanged(path: string): Promise<void> {
  for (const snapshot of await everySnapshot()) snapshot.ws.fileChanged(path);
}

/** After a conversation was compacted (the main thread's, or a
 * subagent's): every delivery left it, so the one-minute record must not
 * hold rules back (the engine says how). */
export async function compacted($: EngineInterface, agentId?: string): Promise<void> {
  await loadEngine($);
  const [root, sessionId] = await Promise.all([$.session.root(), $.session.id()]);
  const file = stateFile(root, agentId === undefined ? sessionId : agentState(sessionId, agentId));
  await serial(sessionId, async () => {
    const changed = stateAfterCompaction(await readState($, file), await $.clock.now());
    if (changed !== undefined) await writeState($, root, file, changed);
  });
}

const toldStateDir = new Set<string>();

/** Says once per session that its deliveries are not recorded, and why. */
async function tellStateDirProblem($: EngineInterface, root: string, sessionId: string) {
  const problem = await stateDirProblem($, root);
  if (problem === undefined || toldStateDir.has(sessionId)) return;
  toldStateDir.add(sessionId);
  $.ui.log(problem, { to: "transcript" });
}

/** A tool's file path, absolute: Claude Code's tools take absolute paths,
 * and a relative one is the project's. */
function absolute(root: string, file: string): string {
  return file.startsWith("/") ? file : `${root}/${file}`;
}

/** A file's text for `fileContains`, read only when the engine allows it
 * (behaviour §0.1): a regular file, small enough, inside the project once
 * its links are followed. A FIFO is never opened, a link out never read. */
async function readContent(
  $: EngineInterface,
  snapshot: Snapshot,
  path: string,
): Promise<string | null> {
  const stat = await $.fs.stat(path, { resolve: true }).catch(() => null);
  if (stat === null || stat.realPath === undefined) return null;
  if (!snapshot.ws.mayRead(stat.realPath, stat.kind, stat.size)) return null;
  return readText($, path);
}

/** The edited file, absolute, with the checkouts that place it made known
 * to the engine (behaviour §5.6). */
async function placeEdit($: EngineInterface, snapshot: Snapshot, file: string): Promise<string> {
  const { file: absolute, probes } = snapshot.ws.editProbes(file);
  const found = await Promise.all(
    probes.map((dir) => {
      let known = checkouts.get(dir);
      if (known === undefined) {
        known = $.fs.exists(`${dir === "/" ? "" : dir}/.git`);
        checkouts.set(dir, known);
        known.catch(() => checkouts.delete(dir));
      }
      return known;
    }),
  );
  probes.forEach((dir, index) => {
    if (found[index]) snapshot.ws.markCheckout(dir);
  });
  return absolute;
}
