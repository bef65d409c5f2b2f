// The session state file, `<project>/.rule-fairy/<host>/<session id>.json`
// (`claude` here; the opencode plugin names its own), read once per session
// and kept in module memory after: the module is its only writer, and every
// write goes through the session's queue.
import type { EngineInterface } from "claude-code";
import { sessionIdProblem } from "./engine/rule_fairy_wasm";

let STATE_DIR = ".rule-fairy/claude";

/** Names the state directory of the host this module instance serves, once,
 * before any event: each host keeps its sessions apart (behaviour §5.1). */
export function useStateDir(dir: string): void {
  STATE_DIR = dir;
}

const texts = new Map<string, string>();
const ignored = new Set<string>();
const swept = new Set<string>();
const recorded = new Set<string>();

export type StateFile = { path: string; shown: string };

const linkProblems = new Map<string, Promise<string | undefined>>();

/** Why nothing may be written in the state directory, if something stops
 * it: the directory, or `.rule-fairy` above it, is a symbolic link, and
 * nothing is written or deleted through a link (behaviour §0.1). Looked
 * at once per module instance. */
export function stateDirProblem($: EngineInterface, root: string): Promise<string | undefined> {
  let known = linkProblems.get(root);
  if (known === undefined) {
    known = firstLink(
      $,
      [".rule-fairy", STATE_DIR].map((dir) => `${root}/${dir}`),
    ).then((link) =>
      link === undefined
        ? undefined
        : `rule-fairy: ${link.slice(root.length + 1)} is a symbolic link; nothing is written through it, so this session's deliveries are not recorded`,
    );
    linkProblems.set(root, known);
  }
  return known;
}

/** The first of `paths` that is a symbolic link (a missing path is none). */
async function firstLink($: EngineInterface, paths: string[]): Promise<string | undefined> {
  for (const path of paths) {
    const stat = await $.fs.stat(path).catch(() => null);
    if (stat?.isLink) return path;
  }
  return undefined;
}

/** The state file of a session, once the engine says its id can name a
 * file (the engine is loaded before any state is read). */
export function stateFile(root: string, sessionId: string): StateFile {
  if (sessionIdProblem(sessionId) !== undefined) {
    throw new Error(`session id ${JSON.stringify(sessionId)} cannot name a state file`);
  }
  const shown = `${STATE_DIR}/${sessionId}.json`;
  return { path: `${root}/${shown}`, shown };
}

/** The saved text; empty for a new session. */
export async function readState($: EngineInterface, file: StateFile): Promise<string> {
  const cached = texts.get(file.path);
  if (cached !== undefined) return cached;
  const usable = (await firstLink($, [file.path])) === undefined;
  const text = usable && (await $.fs.exists(file.path)) ? await $.fs.read(file.path) : "";
  texts.set(file.path, text);
  return text;
}

export async function writeState(
  $: EngineInterface,
  root: string,
  file: StateFile,
  text: string,
): Promise<void> {
  texts.set(file.path, text);
  if ((await stateDirProblem($, root)) !== undefined) return;
  if ((await firstLink($, [file.path])) !== undefined) return;
  await ignoreStateDir($, root);
  await $.fs.write(file.path, text);
}

/** Keeps a state file that did not parse beside it, before it is replaced. */
export async function keepCorrupt(
  $: EngineInterface,
  root: string,
  file: StateFile,
  text: string,
): Promise<void> {
  if ((await stateDirProblem($, root)) !== undefined) return;
  await $.fs.write(`${file.path}.corrupt`, text);
}

/** The state directory ignores itself, so a repository needs no rule. */
async function ignoreStateDir($: EngineInterface, root: string): Promise<void> {
  if (ignored.has(root)) return;
  const gitignore = `${root}/${STATE_DIR}/.gitignore`;
  if (!(await $.fs.exists(gitignore))) await $.fs.write(gitignore, "*\n");
  ignored.add(root);
}

/** Once per module instance: state files untouched for four hours are
 * deleted (`$.fs` cannot delete; `find` does, without following links).
 * A failure only means old files stay. */
export async function sweepOldStates($: EngineInterface, root: string): Promise<void> {
  if (swept.has(root)) return;
  swept.add(root);
  if ((await stateDirProblem($, root)) !== undefined) return;
  const dir = `${root}/${STATE_DIR}`;
  if (!(await $.fs.exists(dir))) return;
  await $.process
    .run(
      [
        "find",
        dir,
        "-maxdepth",
        "1",
        "-type",
        "f",
        "(",
        "-name",
        "*.json",
        "-o",
        "-name",
        "*.json.corrupt",
        ")",
        "-mmin",
        "+240",
        "-delete",
      ],
      {
        timeoutMs: 10_000,
      },
    )
    .catch(() => undefined);
}

/** Once per module instance: `<state dir>/plugin-root` names where the
 * plugin is, for a project's own review skill to find Rule Fairy's scripts
 * (behaviour §5.1). Written only when it says something else. */
export async function recordPluginRoot($: EngineInterface, root: string): Promise<void> {
  if (recorded.has(root)) return;
  if ((await stateDirProblem($, root)) !== undefined) return;
  const path = `${root}/${STATE_DIR}/plugin-root`;
  const wanted = `${$.plugin.root}\n`;
  const current = (await $.fs.exists(path)) ? await $.fs.read(path) : undefined;
  if (current !== wanted) {
    await ignoreStateDir($, root);
    await $.fs.write(path, wanted);
  }
  recorded.add(root);
}
