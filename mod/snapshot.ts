// The engine's in-memory copy of a project: the configuration, every rule
// file, and the documents deliveries import. Kept in module state across
// events and refreshed cheaply. The engine walks the rules directories
// (behaviour §1.2) and says what to list, stat and read; this file only
// answers, each round's asks all at once. Its first round asks again for
// every listing the last walk used, and a file is read again only when
// its size or time changed; while Claude Code watches the paths the walk
// used and reports no change, the engine asks nothing at all (§5.2.3).
// Where nested rules folders are, the engine
// asks of git (`ls-files`, which knows what is ignored) once, and again
// only after an event that may have moved one. Documents: one `$.fs.stat`
// per document a delivery is about to render, read again only when it
// changed, and not stat'ed at all while the watch covers it and saw no
// change.
import type { EngineInterface } from "claude-code";
import { type Asks, type RequestKind, Workspace } from "./engine/rule_fairy_wasm";

type Seen = { size: number; mtimeMs: number };

/** Module state: one copy of each project's files, across events. */
const snapshots = new Map<string, Promise<Snapshot>>();

/** Tells each new workspace which host it serves; Claude Code's needs
 * nothing told (the opencode plugin names itself, once, before any event). */
let configure: (ws: Workspace) => void = () => {};

export function configureWorkspaces(each: (ws: Workspace) => void): void {
  configure = each;
}

/** The copy of the project at `root`, made on first use. */
export function snapshotOf($: EngineInterface, root: string): Promise<Snapshot> {
  let snapshot = snapshots.get(root);
  if (snapshot === undefined) {
    snapshot = $.fs
      .stat(root, { resolve: true })
      .then((stat) => new Snapshot(root, stat.realPath ?? root));
    snapshots.set(root, snapshot);
    snapshot.catch(() => snapshots.delete(root));
  }
  return snapshot;
}

export class Snapshot {
  readonly ws: Workspace;
  /** Documents read for deliveries -> what was read, or null when missing. */
  docs = new Map<string, Seen | null>();

  constructor(
    readonly root: string,
    readonly realRoot: string,
  ) {
    this.ws = new Workspace(root, realRoot);
    configure(this.ws);
  }

  /** A real path as the copy names it: the copy is mounted at the root as
   * the session names it, which may itself lead elsewhere. */
  toMount(real: string): string {
    if (this.realRoot === this.root) return real;
    if (real === this.realRoot) return this.root;
    if (real.startsWith(`${this.realRoot}/`)) return this.root + real.slice(this.realRoot.length);
    return real;
  }
}

/** The copies made so far, for Claude Code's reports of changed files. */
export async function everySnapshot(): Promise<Snapshot[]> {
  const made = await Promise.allSettled(snapshots.values());
  return made.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
}

/** Brings the configuration and the rules up to date for an event of
 * `kind` at `now`: answers the engine's asks, round after round, until it
 * asks nothing. */
export async function refresh(
  $: EngineInterface,
  s: Snapshot,
  now: number,
  kind: RequestKind,
): Promise<void> {
  let asks: Asks = s.ws.startRefreshAt(now, kind);
  while (asks.list.length + asks.stat.length + asks.read.length + asks.git.length > 0) {
    await Promise.all([
      ...asks.list.map((dir) =>
        $.fs.list(dir).then(
          (entries) => s.ws.listed(dir, entries),
          (error) => s.ws.failed("list", dir, reason(error)),
        ),
      ),
      ...asks.stat.map((path) =>
        $.fs.stat(path, { resolve: true }).then(
          (stat) => s.ws.stated(path, stat),
          (error) => s.ws.failed("stat", path, reason(error)),
        ),
      ),
      ...asks.read.map((path) =>
        $.fs.read(path, { as: "bytes" }).then(
          (read) => s.ws.readBytes(path, fromBase64(read.base64)),
          (error) => s.ws.failed("read", path, reason(error)),
        ),
      ),
      ...(asks.git.length === 0 ? [] : [listWithGit($, s, asks.git)]),
    ]);
    asks = s.ws.nextAsks();
  }
}

/** Generous for git on a large checkout, and still far from a hung hook. */
const GIT_TIMEOUT_MS = 20_000;

/** Runs the git command the engine asked for at the root; `-1` says it
 * could not run at all. */
async function listWithGit($: EngineInterface, s: Snapshot, argv: string[]): Promise<void> {
  try {
    const result = await $.process.run(argv, { cwd: s.root, timeoutMs: GIT_TIMEOUT_MS });
    if (result.isStdoutTruncated) {
      s.ws.gitListed(-1, "", `${argv.slice(0, 2).join(" ")} printed more than 4 MiB`);
    } else {
      s.ws.gitListed(result.exitCode, result.stdout, result.stderr);
    }
  } catch (error) {
    s.ws.gitListed(-1, "", reason(error));
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Makes sure of the documents a delivery is about to read: only those
 * its due rules import, so an event that delivers nothing reads none; and
 * of the marker files project tags come from, when a rule tests them. */
export async function refreshDocuments(
  $: EngineInterface,
  s: Snapshot,
  docs: readonly string[],
): Promise<void> {
  await Promise.all(docs.map((doc) => syncDocument($, s, doc)));
}

async function syncDocument($: EngineInterface, s: Snapshot, doc: string): Promise<void> {
  // Checked before, and the engine says nothing below the watch changed.
  if (s.docs.has(doc) && s.ws.documentUnchanged(doc)) return;
  // Where it really is decides whether it is inside the project, so the
  // one stat asks for that too.
  const stat = await $.fs.stat(doc, { resolve: true }).catch(() => null);
  const seen = stat?.kind === "file" ? { size: stat.size, mtimeMs: stat.mtimeMs } : null;
  const before = s.docs.get(doc);
  if (before !== undefined && same(before, seen)) return;
  s.docs.set(doc, seen);
  if (seen === null) {
    s.ws.remove(doc);
    return;
  }
  const real = stat?.realPath === undefined ? doc : s.toMount(stat.realPath);
  // Larger than the host reads: the engine is told its size, and says so.
  if (seen.size > Workspace.maxReadBytes()) {
    if (real !== doc) s.ws.putLink(doc, real);
    s.ws.putUnreadDocument(real, seen.size);
    return;
  }
  const bytes = await readBytes($, doc);
  if (bytes === null) {
    s.docs.set(doc, null);
    s.ws.remove(doc);
    return;
  }
  if (real !== doc) s.ws.putLink(doc, real);
  s.ws.putDocument(real, bytes);
}

function same(a: Seen | null | undefined, b: Seen | null | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (a === null || b === null) return a === b;
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Present in Claude Code's hooks environment, not yet in TypeScript's
 * es2023 library. */
const fromBase64 = (Uint8Array as unknown as { fromBase64(text: string): Uint8Array }).fromBase64;

async function readBytes($: EngineInterface, path: string): Promise<Uint8Array | null> {
  try {
    const read = await $.fs.read(path, { as: "bytes" });
    return fromBase64(read.base64);
  } catch {
    return null;
  }
}

/** Claude Code's hooks environment takes the decoder's options (verified),
 * its declarations do not. */
const Decoder = TextDecoder as unknown as new (
  label: string,
  options: { fatal: boolean; ignoreBOM: boolean },
) => TextDecoder;
// Invalid bytes throw rather than turn into U+FFFD, and a byte order mark
// stays, as the native engine's UTF-8 read does.
const utf8 = new Decoder("utf-8", { fatal: true, ignoreBOM: true });

/** A file's text, or null when it cannot be read or is not UTF-8 (as the
 * native engine reads a file `fileContains` tests). */
export async function readText($: EngineInterface, path: string): Promise<string | null> {
  const bytes = await readBytes($, path);
  if (bytes === null) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}
