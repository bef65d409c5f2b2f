// Runs the real `claude -p` against the mock Messages API, with this
// repository as the plugin and a fresh configuration directory: nothing is
// read from or written to the person's own Claude Code setup, and no
// address but the loopback mock is contacted.
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CLAUDE = join(REPO, "tests/claude/node_modules/.bin/claude");

/** Runs `claude -p`; resolves `{ code, events, stderr }` where `events`
 * are the stream-json lines it printed. With `prompts` (and
 * `--input-format stream-json` in `args`) it is one session of several
 * turns: each prompt is written once the turn before it has its result. */
export function claude({
  args,
  cwd,
  config,
  mockUrl,
  debugFile,
  prompts,
  pluginDir = REPO,
  timeoutMs = 120_000,
}) {
  // `pluginDir: null` runs with the plugins installed in `config` only.
  const plugin = pluginDir === null ? [] : ["--plugin-dir", pluginDir];
  const argv = [
    "-p",
    ...args,
    ...plugin,
    "--output-format",
    "stream-json",
    "--verbose",
    "--debug-file",
    debugFile,
  ];
  const env = {
    ...process.env,
    CLAUDE_CONFIG_DIR: config,
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: "test-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
  return new Promise((done, fail) => {
    const child = spawn(CLAUDE, argv, {
      cwd,
      env,
      stdio: [prompts === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const waiting = [...(prompts ?? [])];
    const sendNext = () => {
      const prompt = waiting.shift();
      if (prompt === undefined) child.stdin.end();
      else
        child.stdin.write(
          `${JSON.stringify({ type: "user", message: { role: "user", content: prompt } })}\n`,
        );
    };
    child.stdout.on("data", (chunk) => {
      const before = stdout.length;
      stdout += chunk;
      if (prompts !== undefined && stdout.slice(before).includes('"type":"result"')) sendNext();
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      const events = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line));
      done({ code, events, stderr });
    });
    if (prompts !== undefined) sendNext();
  });
}
