// The real opencode (pinned in tests/opencode/package-lock.json) serving a
// project on 127.0.0.1, with the Rule Fairy plugin named by its path in
// the project's opencode.json and a custom provider pointing at the mock
// model server. Nothing of the person's own opencode is read or written:
// HOME and the XDG directories are the test's, and npm (which opencode
// runs to install its plugin API) finds no registry but a closed port.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import { join, resolve } from "node:path";

const HERE = new URL(".", import.meta.url).pathname;
export const REPO = resolve(HERE, "../..");
const OPENCODE = join(HERE, "node_modules/.bin/opencode");

export const MODEL = { providerID: "mock", modelID: "m" };

async function freePort() {
  const server = net.createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** The environment of an offline opencode whose home is `home`. */
export function offlineEnv(home, extra = {}) {
  return {
    PATH: process.env.PATH,
    // The program the gate check runs, when the test names one.
    ...(process.env.RULE_FAIRY_BIN === undefined
      ? {}
      : { RULE_FAIRY_BIN: process.env.RULE_FAIRY_BIN }),
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local/state"),
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    npm_config_registry: "http://127.0.0.1:9/",
    npm_config_offline: "true",
    ...extra,
  };
}

/** Writes the project's opencode.json: the mock provider, the plugin. */
export function configure(project, mockPort, plugin = join(REPO, "opencode/plugin.ts")) {
  writeFileSync(
    join(project, "opencode.json"),
    JSON.stringify(
      {
        $schema: "https://opencode.ai/config.json",
        provider: {
          mock: {
            npm: "@ai-sdk/openai-compatible",
            name: "Mock",
            options: { baseURL: `http://127.0.0.1:${mockPort}/v1`, apiKey: "unused" },
            models: { m: { name: "M", tool_call: true } },
          },
        },
        model: "mock/m",
        small_model: "mock/m",
        autoupdate: false,
        share: "disabled",
        plugin: [`file://${plugin}`],
      },
      null,
      2,
    ),
  );
}

/** `opencode serve` in `project`, with `args` after its own; resolves
 * once it listens. */
export async function serve(project, home, extraEnv = {}, args = []) {
  mkdirSync(home, { recursive: true });
  const port = await freePort();
  const child = spawn(
    OPENCODE,
    ["serve", "--port", String(port), "--hostname", "127.0.0.1", ...args],
    {
      cwd: project,
      env: offlineEnv(home, extraEnv),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`opencode did not start:\n${output}`)), 60_000);
    const poll = setInterval(() => {
      if (output.includes("listening on")) {
        clearInterval(poll);
        clearTimeout(timer);
        done();
      }
    }, 50);
    child.on("exit", (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      fail(new Error(`opencode exited (${code}):\n${output}`));
    });
  });
  const toasts = [];
  const events = subscribe(url, (event) => {
    if (event.type === "tui.toast.show") toasts.push(event.properties?.message);
  });
  const call = async (method, path, body) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text === "" ? undefined : JSON.parse(text);
  };
  return {
    url,
    toasts,
    output: () => output,
    newSession: async () => (await call("POST", "/session", {})).id,
    prompt: (session, text) =>
      call("POST", `/session/${session}/message`, {
        model: MODEL,
        parts: [{ type: "text", text }],
      }),
    command: (session, command, args = "") =>
      call("POST", `/session/${session}/command`, { command, arguments: args, model: "mock/m" }),
    summarize: (session) => call("POST", `/session/${session}/summarize`, MODEL),
    messages: (session) => call("GET", `/session/${session}/message`),
    children: (session) => call("GET", `/session/${session}/children`),
    close: async () => {
      events.abort();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.on("exit", done));
      child.kill("SIGTERM");
      // opencode shuts down on SIGTERM, and has been seen to hang doing
      // it: what it does then is not under test, so it is stopped.
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Reads opencode's event stream, calling `each` with every event. */
function subscribe(url, each) {
  const controller = new AbortController();
  (async () => {
    const response = await fetch(`${url}/event`, { signal: controller.signal });
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end = buffered.indexOf("\n\n");
      while (end !== -1) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        for (const line of block.split("\n")) {
          if (line.startsWith("data: ")) {
            try {
              each(JSON.parse(line.slice(6)));
            } catch {
              // A line that is not an event is passed over.
            }
          }
        }
        end = buffered.indexOf("\n\n");
      }
    }
  })().catch(() => undefined);
  return controller;
}
