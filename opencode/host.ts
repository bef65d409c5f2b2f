// The `$` the mod's delivery modules are written against, made for
// opencode: the project's files through Node's `fs` (as Bun runs it inside
// opencode), processes through `child_process`, the session's conversation
// and the person's screen through opencode's client. Only what the mod
// calls is here, shaped as Claude Code answers it, so the same delivery
// code serves both hosts; the engine decides everything either way.
import { spawn } from "node:child_process";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  promises as fs,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { EngineInterface } from "claude-code";
import type { PluginInput } from "@opencode-ai/plugin";
import { type Conversations, apiMessages } from "./conversation";

type Client = PluginInput["client"];

/** What the plugin knows of one session when an event comes: its id, the
 * top-level session it belongs to, and the facts opencode handed over. */
export type SessionFacts = {
  /** The top-level session: its id names the state file. */
  rootSession: string;
  /** The session itself; differs from `rootSession` in a subagent. */
  session: string;
  /** The agent the session runs as (`build`, `plan`, `general`, ...). */
  agent?: string;
  /** The model's id, as the provider names it. */
  model?: string;
};

/** Where the plugin's files are: `hooks/run` (the gate's launcher) and the
 * engine build lie below it. */
export type Places = { pluginRoot: string; engineDir: string };

/** Lines for the person: shown as a toast in opencode's TUI and written to
 * opencode's log. A failure to show one is never the delivery's failure. */
export type Screen = { show(line: string): void; debug(line: string): void };

/** The output a process may leave before it is cut (and told truncated). */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

export function screenOf(client: Client): Screen {
  const log = (level: "info" | "debug", message: string) =>
    client.app.log({ body: { service: "rule-fairy", level, message } }).catch(() => undefined);
  return {
    show(line) {
      void log("info", line);
      void client.tui
        .showToast({ body: { message: line, variant: "info" } })
        .catch(() => undefined);
    },
    debug(line) {
      void log("debug", line);
    },
  };
}

/** The engine build's loader, which `$.wasm.compile` is: the mod names
 * its files relative to itself (`./engine/...`). */
function wasmOf(places: Places) {
  return {
    compile: async (path: string) =>
      // Bun has WebAssembly; the declarations in use (es2023) do not.
      (
        globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<unknown> } }
      ).WebAssembly.compile(
        await fs.readFile(join(places.engineDir, path.replace(/^\.\/engine\//, ""))),
      ),
  };
}

/** Just enough `$` to load the engine before any session. */
export function engineHost(places: Places): EngineInterface {
  return { wasm: wasmOf(places) } as unknown as EngineInterface;
}

/** The `$` for one event of one session. */
export function hostFor(
  root: string,
  facts: SessionFacts,
  places: Places,
  conversations: Conversations,
  client: Client,
  screen: Screen,
): EngineInterface {
  const $ = {
    plugin: { root: places.pluginRoot },
    clock: { now: async () => Date.now() },
    env: { get: async (name: string) => process.env[name] },
    wasm: wasmOf(places),
    ui: {
      log: (text: string, options?: { to?: string }) => {
        if (options?.to === "debug") screen.debug(text);
        else screen.show(text);
      },
    },
    session: {
      id: async () => facts.rootSession,
      root: async () => root,
      model: async () => facts.model,
      info: async () => ({
        transcriptPath: "",
        platform: platformName(),
        isHosted: false,
        ...(facts.agent === undefined ? {} : { agentType: facts.agent }),
      }),
      messages: async (options?: { agentId?: string }) =>
        apiMessages(await conversations.of(client, options?.agentId ?? facts.rootSession)),
    },
    tool: { list: async () => (await toolIds(client)).map((name) => ({ name })) },
    fs: {
      exists: async (path: string) => {
        try {
          statSync(path);
          return true;
        } catch {
          return false;
        }
      },
      stat: statOf,
      list: listOf,
      read: readOf,
      write: writeAtomically,
    },
    process: { run },
  };
  return $ as unknown as EngineInterface;
}

/** Node's platform as Claude Code names it, which the engine maps to the
 * operating system names rules use. */
function platformName(): string {
  switch (process.platform) {
    case "darwin":
      return "macos";
    case "win32":
      return "windows";
    case "linux":
      return "linux";
    default:
      return "unknown";
  }
}

/** The ids of the tools the session offers; none when opencode will not
 * say (a rule testing `tools` then holds for none). */
async function toolIds(client: Client): Promise<string[]> {
  try {
    const answer = await client.tool.ids();
    return Array.isArray(answer.data) ? answer.data.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

type Kind = "file" | "dir" | "other";

function kindOf(stat: { isFile(): boolean; isDirectory(): boolean }): Kind {
  return stat.isFile() ? "file" : stat.isDirectory() ? "dir" : "other";
}

// The file system is asked synchronously: each answer is a few
// microseconds, while an asynchronous one waits its turn behind whatever
// else opencode's event loop is doing at that moment (measured: 20 ms for
// eight of them during a prompt).

/** `$.fs.stat`: the path's own kind when it is a link, and with `resolve`
 * what it leads to and its real path. */
async function statOf(path: string, options?: { resolve?: boolean }) {
  const own = lstatSync(path);
  const isLink = own.isSymbolicLink();
  if (!options?.resolve) {
    return { kind: kindOf(own), size: own.size, mtimeMs: own.mtimeMs, isLink };
  }
  const target = statSync(path);
  const realPath = realpathSync(path);
  return { kind: kindOf(target), size: target.size, mtimeMs: target.mtimeMs, isLink, realPath };
}

/** `$.fs.list`: each entry as itself (a link is a link, never followed). */
async function listOf(dir: string) {
  const entries = [];
  for (const name of readdirSync(dir)) {
    let own: ReturnType<typeof lstatSync>;
    try {
      own = lstatSync(join(dir, name));
    } catch {
      continue; // gone since the listing
    }
    const isLink = own.isSymbolicLink();
    entries.push({
      name,
      kind: isLink ? ("other" as const) : kindOf(own),
      size: own.size,
      mtimeMs: own.mtimeMs,
      isLink,
    });
  }
  return entries;
}

/** `$.fs.read`: a regular file only, opened without blocking, so a FIFO
 * put where a rule was never hangs the session. */
async function readOf(path: string, options?: { as?: "bytes" }) {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`EINVAL: not a regular file, read '${path}'`);
    const bytes = readFileSync(fd);
    return options?.as === "bytes" ? { base64: bytes.toString("base64") } : bytes.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** `$.fs.write`: the parent made, the text written beside the file and
 * renamed over it, so a reader never sees half a state file. */
async function writeAtomically(path: string, text: string | Uint8Array): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.writeFile(temporary, text, { flag: "wx" });
    await fs.rename(temporary, path);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

type RunOptions = { cwd?: string; timeoutMs?: number; env?: Record<string, string> };

/** `$.process.run`: the argv run without a shell, its output kept up to
 * MAX_OUTPUT_BYTES each, stopped after `timeoutMs`. */
function run(argv: string[], options: RunOptions = {}) {
  return new Promise<{
    exitCode: number;
    stdout: string;
    stderr: string;
    isStdoutTruncated: boolean;
    isStderrTruncated: boolean;
  }>((resolve, reject) => {
    const [command, ...args] = argv;
    if (command === undefined) {
      reject(new Error("nothing to run"));
      return;
    }
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = collector();
    const err = collector();
    child.stdout.on("data", out.add);
    child.stderr.on("data", err.add);
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === null) {
        reject(new Error(`${command} was stopped (${signal ?? "no signal"})`));
        return;
      }
      resolve({
        exitCode: code,
        stdout: out.text(),
        stderr: err.text(),
        isStdoutTruncated: out.truncated(),
        isStderrTruncated: err.truncated(),
      });
    });
  });
}

function collector() {
  const chunks: Buffer[] = [];
  let kept = 0;
  let cut = false;
  return {
    add: (chunk: Buffer) => {
      if (kept >= MAX_OUTPUT_BYTES) {
        cut = true;
        return;
      }
      const room = MAX_OUTPUT_BYTES - kept;
      if (chunk.length > room) cut = true;
      chunks.push(chunk.subarray(0, room));
      kept += Math.min(chunk.length, room);
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
    truncated: () => cut,
  };
}
