// The `$` the plugin answers the mod's delivery code with, over the real
// file system and processes: shaped as Claude Code answers, and safe with
// what a hostile project may hold.
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Conversations } from "../conversation";
import { hostFor } from "../host";

const dir = mkdtempSync(join(tmpdir(), "rf-host-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shown: string[] = [];
const debug: string[] = [];
const $ = hostFor(
  dir,
  { rootSession: "ses_top", session: "ses_child", agent: "general", model: "m" },
  { pluginRoot: "/plugin", engineDir: "/plugin/mod/engine" },
  new Conversations(),
  {} as never,
  { show: (line) => shown.push(line), debug: (line) => debug.push(line) },
) as unknown as Record<string, Record<string, (...args: never[]) => Promise<unknown>>>;
const fs = $.fs as unknown as {
  stat(path: string, options?: { resolve?: boolean }): Promise<Record<string, unknown>>;
  list(path: string): Promise<Record<string, unknown>[]>;
  read(path: string, options?: { as?: "bytes" }): Promise<unknown>;
  write(path: string, text: string): Promise<void>;
  exists(path: string): Promise<boolean>;
};
const run = (
  $.process as unknown as {
    run(argv: string[], options?: Record<string, unknown>): Promise<Record<string, unknown>>;
  }
).run;

describe("files", () => {
  writeFileSync(join(dir, "a.md"), "héllo");
  mkdirSync(join(dir, "sub"));
  symlinkSync(join(dir, "a.md"), join(dir, "link.md"));
  execFileSync("mkfifo", [join(dir, "pipe")]);

  test("a listing names links as links and never follows them", async () => {
    const entries = await fs.list(dir);
    const byName = Object.fromEntries(entries.map((e) => [e.name, e]));
    expect(byName["a.md"]).toMatchObject({ kind: "file", size: 6, isLink: false });
    expect(byName.sub).toMatchObject({ kind: "dir", isLink: false });
    expect(byName["link.md"]).toMatchObject({ kind: "other", isLink: true });
    expect(byName.pipe).toMatchObject({ kind: "other", isLink: false });
  });

  test("a stat resolving links gives the real path", async () => {
    expect(await fs.stat(join(dir, "link.md"), { resolve: true })).toMatchObject({
      kind: "file",
      isLink: true,
      realPath: join(dir, "a.md"),
    });
    await expect(fs.stat(join(dir, "gone.md"))).rejects.toThrow("ENOENT");
  });

  test("reads text and bytes, and refuses a FIFO at once", async () => {
    expect(await fs.read(join(dir, "a.md"))).toBe("héllo");
    expect(await fs.read(join(dir, "a.md"), { as: "bytes" })).toEqual({
      base64: Buffer.from("héllo").toString("base64"),
    });
    await expect(fs.read(join(dir, "pipe"))).rejects.toThrow("not a regular file");
  });

  test("a write makes the parent, replaces the file whole and leaves nothing beside it", async () => {
    const state = join(dir, ".rule-fairy/opencode/ses_top.json");
    await fs.write(state, '{"a":1}');
    await fs.write(state, '{"a":2}');
    expect(readFileSync(state, "utf8")).toBe('{"a":2}');
    expect(readdirSync(join(dir, ".rule-fairy/opencode"))).toEqual(["ses_top.json"]);
    expect(await fs.exists(state)).toBe(true);
    expect(await fs.exists(join(dir, "nothing"))).toBe(false);
  });
});

describe("processes", () => {
  test("the exit code and output, with the environment added", async () => {
    const result = await run(["sh", "-c", 'printf "%s" "$RF_X"; echo err >&2; exit 3'], {
      cwd: dir,
      env: { RF_X: "given" },
    });
    expect(result).toEqual({
      exitCode: 3,
      stdout: "given",
      stderr: "err\n",
      isStdoutTruncated: false,
      isStderrTruncated: false,
    });
  });

  test("a process past its time is stopped and told", async () => {
    const started = Date.now();
    await expect(run(["sleep", "5"], { timeoutMs: 100 })).rejects.toThrow("stopped");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("a program that is not there is an error", async () => {
    await expect(run(["rule-fairy-no-such-program"])).rejects.toThrow();
  });
});

describe("the session", () => {
  test("names the top-level session, the agent and the model", async () => {
    const session = $.session as unknown as Record<string, () => Promise<unknown>>;
    expect(await session.id()).toBe("ses_top");
    expect(await session.root()).toBe(dir);
    expect(await session.model()).toBe("m");
    expect(await session.info()).toMatchObject({ agentType: "general" });
  });

  test("lines for the person and for the debug log go apart", () => {
    const ui = $.ui as unknown as { log(text: string, options?: { to?: string }): void };
    ui.log("rule-fairy: delivered base.mdc", { to: "transcript" });
    ui.log("rule-fairy: prompt delivery took 1 ms", { to: "debug" });
    expect(shown).toEqual(["rule-fairy: delivered base.mdc"]);
    expect(debug).toEqual(["rule-fairy: prompt delivery took 1 ms"]);
  });
});
