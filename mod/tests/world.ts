// A project and a session for the mod under `claude plugin test`, where
// nothing beneath the plugins answers `$` unless the test does: files in
// memory (with times and links), git and `stat` answers computed from them,
// the conversation the session holds, the session's facts (model,
// platform, environment, tools, branch), and records of what the mod did.
import type { On } from "claude-code";
import { mock } from "claude-code/testing";

export const ROOT = "/srv/ada/shop";
export const SESSION = "3f1c2a9e-0b6d-4c1e-9a57-2d8f7e6b5a41";
export const STATE = `${ROOT}/.rule-fairy/claude/${SESSION}.json`;
export const T0 = 1_800_000_000_000;

export type RunResult = {
  exitCode: number;
  stdout: string;
  stderr: string;
  isStdoutTruncated: boolean;
  isStderrTruncated: boolean;
};

type File = { text: string | Uint8Array; mtimeMs: number; ctimeMs: number };

export type World = {
  /** Absolute path -> file. */
  files: Map<string, File>;
  /** Absolute path -> absolute target. */
  links: Map<string, string>;
  /** The conversation as `$.session.messages({ as: 'api' })` answers. */
  messages: unknown[];
  /** Each subagent's own conversation, by its `agentId`. */
  agentMessages: Map<string, unknown[]>;
  /** The agents started, each as the hooks above left its input. */
  spawned: { prompt: string; fork: boolean }[];
  /** Porcelain entries git reports, as `XY path`. */
  status: string[];
  /** `$` calls to refuse: event name -> reason. */
  refuse: Map<string, string>;
  /** Paths to answer a read of as gone, though listed. */
  vanishing: Set<string>;
  /** Paths holding neither a file nor a directory (a FIFO, a device). */
  fifos: Set<string>;
  /** What the mod logged to the transcript (not the debug log). */
  logs: string[];
  /** Every argv the mod ran. */
  runs: string[][];
  /** The environment each of `runs` was given (`env`), in order. */
  runEnvs: (Record<string, string> | undefined)[];
  /** Every path the mod read. */
  reads: string[];
  /** Every directory the mod listed, and every path it stat'ed. */
  lists: string[];
  stats: string[];
  /** The session's id. */
  sessionId: string;
  /** What `$.session.model()` answers. */
  model: string;
  /** What `$.session.info()` answers of the platform and the agent. */
  platform: "macos" | "windows" | "wsl" | "linux" | "unknown";
  agentType: string | undefined;
  /** The environment `$.env.get` reads. */
  env: Record<string, string>;
  /** The names `$.tool.list()` answers. */
  tools: string[];
  /** The branch git names (`git symbolic-ref`); undefined: detached. */
  branch: string | undefined;
  /** Facts asked of the session: `session.model`, `session.info`,
   * `env.get <name>`, `tool.list`. */
  asked: string[];
  /** How core answers a tool call (the tool "runs"). */
  answerTool: (e: { tool: string }) => unknown;
  /** An answer for a command, before the usual git and `stat` ones. */
  answerRun: (argv: string[]) => RunResult | undefined;
  clock: { now(): number; advance(ms: number): Promise<void> };
  write(path: string, text: string | Uint8Array): void;
  state(): Record<string, unknown> | undefined;
};

const encoder = new TextEncoder();

function size(text: string | Uint8Array): number {
  return typeof text === "string" ? encoder.encode(text).length : text.length;
}

function toBase64(text: string | Uint8Array): string {
  const bytes = typeof text === "string" ? encoder.encode(text) : text;
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

/** Sets up the world beneath the plugins; `files` are relative to ROOT. */
export function world(on: On, files: Record<string, string> = {}): World {
  const clock = mock.clock(on, { now: T0 });
  const w: World = {
    files: new Map(),
    links: new Map(),
    messages: [],
    agentMessages: new Map(),
    spawned: [],
    status: [],
    refuse: new Map(),
    vanishing: new Set(),
    fifos: new Set(),
    logs: [],
    runs: [],
    runEnvs: [],
    reads: [],
    lists: [],
    stats: [],
    sessionId: SESSION,
    model: "claude-opus-5-5",
    platform: "linux",
    agentType: undefined,
    env: {},
    tools: ["Bash", "Edit", "Read", "Write"],
    branch: "main",
    asked: [],
    answerTool: () => ({ result: "done" }),
    answerRun: () => undefined,
    clock: {
      now: () => clock.now(),
      advance: (ms) => clock.advance(ms),
    },
    write(path, text) {
      const absolute = path.startsWith("/") ? path : `${ROOT}/${path}`;
      const now = clock.now();
      w.files.set(absolute, { text, mtimeMs: now, ctimeMs: now });
    },
    state() {
      const file = w.files.get(STATE);
      return file === undefined
        ? undefined
        : (JSON.parse(String(file.text)) as Record<string, unknown>);
    },
  };
  for (const [path, text] of Object.entries(files)) w.write(path, text);

  const resolve = (path: string, hops = 0): string | undefined => {
    if (hops > 40) return undefined;
    for (const [link, target] of w.links) {
      if (path === link || path.startsWith(`${link}/`))
        return resolve(target + path.slice(link.length), hops + 1);
    }
    return path;
  };
  const isDir = (path: string): boolean => {
    const below = `${path}/`;
    for (const file of w.files.keys()) if (file.startsWith(below)) return true;
    for (const link of w.links.keys()) if (link.startsWith(below)) return true;
    return false;
  };
  const refused = (event: string) => {
    const reason = w.refuse.get(event);
    return reason === undefined ? undefined : { deny: reason };
  };
  const gone = (path: string) => ({ deny: `ENOENT: no such file or directory, '${path}'` });

  on("session.id", () => refused("session.id") ?? { value: w.sessionId });
  on("session.root", () => refused("session.root") ?? { value: ROOT });
  on("session.cwd", () => ({ value: ROOT }));
  on("session.messages", (_$, e) => {
    const denied = refused("session.messages");
    if (denied) return denied;
    const agentId = (e as { agentId?: string } | undefined)?.agentId;
    if (agentId === undefined) return { value: w.messages as never };
    const own = w.agentMessages.get(agentId);
    return own === undefined ? { deny: `no agent ${agentId}` } : { value: own as never };
  });
  on("session.model", () => {
    w.asked.push("session.model");
    return { value: w.model };
  });
  on("session.info", () => {
    w.asked.push("session.info");
    return {
      value: {
        transcriptPath: "",
        platform: w.platform,
        isHosted: false,
        ...(w.agentType === undefined ? {} : { agentType: w.agentType }),
      },
    };
  });
  on("env.get", (_$, e) => {
    w.asked.push(`env.get ${e.name}`);
    return { value: w.env[e.name] };
  });
  on("tool.list", () => {
    w.asked.push("tool.list");
    return {
      value: w.tools.map((name) => ({ name, description: name, mcp: name.startsWith("mcp__") })),
    };
  });
  on("ui.log", (_$, e) => {
    if (e.to !== "debug") w.logs.push(e.text);
    return { value: undefined };
  });
  on("fs.exists", (_$, e) => {
    const real = resolve(e.path);
    return { value: real !== undefined && (w.files.has(real) || isDir(real)) };
  });
  on("fs.stat", (_$, e) => {
    w.stats.push(e.path);
    const denied = refused("fs.stat");
    if (denied) return denied;
    const isLink = w.links.has(e.path);
    const real = resolve(e.path);
    if (real === undefined)
      return { deny: `ELOOP: too many symbolic links encountered, stat '${e.path}'` };
    if (w.fifos.has(real))
      return {
        value: {
          kind: "other" as const,
          size: 0,
          mtimeMs: 0,
          isLink,
          ...(e.resolve ? { realPath: real } : {}),
        },
      };
    const file = w.files.get(real);
    if (file !== undefined) {
      return {
        value: {
          kind: "file" as const,
          size: size(file.text),
          mtimeMs: file.mtimeMs,
          isLink,
          ...(e.resolve ? { realPath: real } : {}),
        },
      };
    }
    if (isDir(real) || real === ROOT)
      return {
        value: {
          kind: "dir" as const,
          size: 0,
          mtimeMs: 0,
          isLink,
          ...(e.resolve ? { realPath: real } : {}),
        },
      };
    return gone(e.path);
  });
  // Core's answers to the classic events the mod hooks: nothing of its own.
  on("classic.SessionStart", () => ({}));
  on("classic.FileChanged", () => ({}));
  on("fs.list", (_$, e) => {
    w.lists.push(e.path);
    const denied = refused("fs.list");
    if (denied) return denied;
    const real = resolve(e.path);
    if (real === undefined)
      return { deny: `ELOOP: too many symbolic links encountered, scandir '${e.path}'` };
    if (!isDir(real)) return gone(e.path);
    const below = `${real}/`;
    const entries = new Map<
      string,
      {
        name: string;
        kind: "file" | "dir" | "other";
        size: number;
        mtimeMs: number;
        isLink: boolean;
      }
    >();
    for (const link of w.links.keys()) {
      if (parentOf(link) === real)
        entries.set(link, {
          name: link.slice(below.length),
          kind: "other",
          size: 0,
          mtimeMs: 0,
          isLink: true,
        });
    }
    for (const fifo of w.fifos) {
      if (parentOf(fifo) === real)
        entries.set(fifo, {
          name: fifo.slice(below.length),
          kind: "other",
          size: 0,
          mtimeMs: 0,
          isLink: false,
        });
    }
    for (const [path, file] of w.files) {
      if (!path.startsWith(below)) continue;
      const rest = path.slice(below.length);
      const slash = rest.indexOf("/");
      if (slash === -1)
        entries.set(path, {
          name: rest,
          kind: "file",
          size: size(file.text),
          mtimeMs: file.mtimeMs,
          isLink: false,
        });
      else
        entries.set(below + rest.slice(0, slash), {
          name: rest.slice(0, slash),
          kind: "dir",
          size: 0,
          mtimeMs: 0,
          isLink: false,
        });
    }
    return { value: [...entries.values()] };
  });
  on("fs.read", (_$, e) => {
    const denied = refused("fs.read");
    if (denied) return denied;
    w.reads.push(e.path);
    const real = resolve(e.path);
    const file = real === undefined ? undefined : w.files.get(real);
    if (file === undefined || w.vanishing.has(e.path)) return gone(e.path);
    if (e.as === "bytes") return { value: { base64: toBase64(file.text) } };
    return {
      value: typeof file.text === "string" ? file.text : new TextDecoder().decode(file.text),
    };
  });
  on("fs.write", (_$, e) => {
    const denied = refused("fs.write");
    if (denied) return denied;
    // As a file system does, a write follows links.
    w.write(resolve(e.path) ?? e.path, e.text);
    return { value: undefined };
  });
  on("process.run", (_$, e) => {
    const denied = refused("process.run");
    if (denied) return denied;
    const argv = [...e.argv];
    w.runs.push(argv);
    w.runEnvs.push(e.init?.env === undefined ? undefined : { ...e.init.env });
    const answered = w.answerRun(argv);
    if (answered !== undefined) return { value: answered };
    const ok = (stdout: string) => ({
      value: {
        exitCode: 0,
        stdout,
        stderr: "",
        isStdoutTruncated: false,
        isStderrTruncated: false,
      },
    });
    if (argv[0] === "git" && argv[1] === "rev-parse") return ok(`${ROOT}\n`);
    if (argv[0] === "git" && argv[1] === "symbolic-ref") {
      if (w.branch === undefined)
        return {
          value: {
            exitCode: 1,
            stdout: "",
            stderr: "",
            isStdoutTruncated: false,
            isStderrTruncated: false,
          },
        };
      return ok(`${w.branch}\n`);
    }
    if (argv[0] === "git" && argv[1] === "status")
      return ok(w.status.map((entry) => `${entry}\0`).join(""));
    // Every file and link below the root, as git lists what it does not
    // ignore (the engine picks the rules folders out).
    if (argv[0] === "git" && argv[1] === "ls-files") {
      const below = `${e.init?.cwd ?? ROOT}/`;
      const listed = [...w.files.keys(), ...w.links.keys()]
        .filter((path) => path.startsWith(below) && !path.includes("/node_modules/"))
        .map((path) => `${path.slice(below.length)}\0`);
      return ok(listed.join(""));
    }
    if (argv[0] === "stat" && argv[1] === "--version") return ok("stat (GNU coreutils) 9.4\n");
    if (argv[0] === "stat") {
      const cwd = e.init?.cwd ?? ROOT;
      const records = argv.slice(argv.indexOf("--") + 1).flatMap((path) => {
        const file = w.files.get(`${cwd}/${path}`);
        if (file === undefined) return [];
        return [`${Math.floor(file.mtimeMs / 1000)} ${Math.floor(file.ctimeMs / 1000)} ${path}\0`];
      });
      return ok(records.join(""));
    }
    return ok("");
  });
  on("prompt.submit", (_$, e) => ({ text: e.text, context: e.context }));
  on("tool.call", (_$, e) => w.answerTool(e) as never);
  // Core starts the agent: its id is its place among those started.
  on("agent.spawn", (_$, e) => {
    w.spawned.push({ prompt: e.prompt, fork: e.fork });
    return { model: "claude-opus-5-5", agentId: `agent-${w.spawned.length}` };
  });
  on("session.compact", () => {
    w.messages = [
      {
        role: "user",
        content: [
          { type: "text", text: "This session is being continued from a previous conversation." },
        ],
      },
    ];
    return {
      messages: [
        {
          role: "user",
          text: "This session is being continued from a previous conversation.",
          toolUses: [],
        },
      ],
    } as never;
  });
  return w;
}

/** Context entries as Claude Code puts them in the conversation: one
 * reminder per event, the entries joined by a newline. */
export function reminder(event: "prompt.submit" | "tool.call", entries: readonly string[]): string {
  return `<system-reminder>\n${event} hook additional context: ${entries.join("\n")}\n</system-reminder>`;
}

/** A conversation holding the given hook contexts, as user text blocks. */
export function conversation(...reminders: string[]): unknown[] {
  return reminders.map((text) => ({ role: "user", content: [{ type: "text", text }] }));
}

/** `[rule-fairy injected: <rule>]` lines of the entries. */
export function injected(entries: readonly string[] | undefined): string[] {
  return (entries ?? []).flatMap((entry) =>
    [...entry.matchAll(/^\[rule-fairy injected: (.+)\]$/gm)].map((match) => match[1] ?? ""),
  );
}
