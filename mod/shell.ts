// What a shell command changed, asked of git (behaviour §5.4). The engine
// reads the answers; here git and `stat` run. `$.fs.stat` has no inode
// change time, and `mv` keeps a file's modification time, so the times
// come from `stat` itself: the later of modification and change time.
import type { EngineInterface } from "claude-code";
import type { ShellReport, Workspace } from "./engine/rule_fairy_wasm";

/** Generous for git on a large checkout, and still far from a hung hook. */
const TIMEOUT_MS = 20_000;
/** Paths per `stat` call, well inside any argument-length limit. */
const STAT_BATCH = 500;

const toplevels = new Map<string, string>();

/** The check itself: git's answer, and the times of the files the
 * workspace says some rule could select or an instruction file's
 * directory holds (the others' are never read). */
export async function gitCheck(
  $: EngineInterface,
  ws: Workspace,
  root: string,
  started: number,
): Promise<ShellReport> {
  const toplevel = await checkoutTop($, root);
  if (toplevel === "") return { started, toplevel, changed: [] };
  const [status] = await Promise.all([
    run($, ["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"], root),
    // The tracked ones: git status names the others.
    listInstructions($, ws, root, false),
  ]);
  const top = toplevel.replace(/\n$/, "");
  const candidates = ws.shellCandidates(new TextEncoder().encode(status), top);
  const changed: [string, number][] = [];
  for (let at = 0; at < candidates.length; at += STAT_BATCH) {
    changed.push(...(await changeTimes($, top, candidates.slice(at, at + STAT_BATCH))));
  }
  return { started, toplevel, changed };
}

/** Tells the workspace where the project's instruction files are, as git
 * lists them (behaviour §5.2.2): before an edit when it asks, untracked
 * ones included, and the tracked ones beside `git status` in every shell
 * check. A listing that cannot run is told too: the engine then looks in
 * every directory. */
export async function listInstructions(
  $: EngineInterface,
  ws: Workspace,
  root: string,
  untracked: boolean,
) {
  const argv = ws.instructionListing(untracked);
  if (argv.length === 0) return;
  try {
    const result = await $.process.run(argv, { cwd: root, timeoutMs: TIMEOUT_MS });
    const exitCode = result.isStdoutTruncated ? -1 : result.exitCode;
    ws.instructionsListed(exitCode, new TextEncoder().encode(result.stdout));
  } catch {
    ws.instructionsListed(-1, new Uint8Array());
  }
}

/** `git rev-parse --show-toplevel` as printed; empty outside git (exit
 * 128). A checkout found is remembered: it does not move in a session. */
async function checkoutTop($: EngineInterface, root: string): Promise<string> {
  const known = toplevels.get(root);
  if (known !== undefined) return known;
  const result = await $.process.run(["git", "rev-parse", "--show-toplevel"], {
    cwd: root,
    timeoutMs: TIMEOUT_MS,
  });
  if (result.exitCode !== 0 && result.exitCode !== 128)
    throw failed("git rev-parse --show-toplevel", result);
  const top = result.exitCode === 0 ? result.stdout : "";
  if (top !== "") toplevels.set(root, top);
  return top;
}

async function run($: EngineInterface, argv: string[], cwd: string): Promise<string> {
  const result = await $.process.run(argv, { cwd, timeoutMs: TIMEOUT_MS });
  if (result.exitCode !== 0) throw failed(argv.join(" "), result);
  if (result.isStdoutTruncated) throw new Error(`${argv.join(" ")} printed more than 4 MiB`);
  return result.stdout;
}

type RunResult = { exitCode: number; stderr: string };

function failed(command: string, result: RunResult): Error {
  return new Error(`${command} failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
}

let gnuStat: Promise<boolean> | undefined;

/** Each file's later of modification and change time in milliseconds,
 * links not followed. GNU `stat` where it is (Linux), BSD `stat`
 * elsewhere (macOS). A file gone since git listed it is left out. */
async function changeTimes(
  $: EngineInterface,
  top: string,
  paths: string[],
): Promise<[string, number][]> {
  if (paths.length === 0) return [];
  gnuStat ??= $.process
    .run(["stat", "--version"], { timeoutMs: TIMEOUT_MS })
    .then((result) => result.exitCode === 0);
  const gnu = await gnuStat;
  const argv = gnu
    ? ["stat", "--printf", "%Y %Z %n\\0", "--", ...paths]
    : ["stat", "-f", "%m %c %N", "--", ...paths];
  const result = await $.process.run(argv, { cwd: top, timeoutMs: TIMEOUT_MS });
  // Exit 1 with output: some file went away meanwhile; the rest count.
  if (result.exitCode !== 0 && result.stdout === "" && !/No such file/.test(result.stderr)) {
    throw failed("stat", result);
  }
  return parseTimes(result.stdout, gnu ? "\0" : "\n");
}

/** `<mtime s> <ctime s> <name>` records. */
export function parseTimes(output: string, separator: string): [string, number][] {
  const times: [string, number][] = [];
  for (const record of output.split(separator)) {
    const match = /^(\d+) (\d+) ([\s\S]+)$/.exec(record);
    if (match === null) continue;
    const [, modified, changed, name] = match as unknown as [string, string, string, string];
    times.push([name, Math.max(Number(modified), Number(changed)) * 1000]);
  }
  return times;
}
