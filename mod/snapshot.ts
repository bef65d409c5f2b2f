// The engine's in-memory copy of a project: the configuration, every rule
// file, and the documents deliveries import. Kept in module state across
// events and refreshed cheaply: one `$.fs.list` per rules directory (it
// gives each file's size and time), all at once, and one `$.fs.stat` per
// document a delivery is about to render; a file is read again only when
// its size or time changed.
import type { EngineInterface, FsEntry } from "claude-code";
import { type RulesSourceAnswer, Workspace } from "./engine/rule_fairy_wasm";

type Seen = { size: number; mtimeMs: number };

const CONFIG = "rule-fairy.edn";

/** Module state: one copy of each project's files, across events. */
const snapshots = new Map<string, Promise<Snapshot>>();

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
  config: Seen | null | undefined;
  source: string | undefined;
  extensions: string[] = [];
  /** How deep below a rules directory to list: the engine's depth policy. */
  maxDepth = 0;
  /** Directory listed -> the names it held. */
  dirs = new Map<string, Set<string>>();
  /** Rule files put in (at their real place) -> what was read. */
  files = new Map<string, Seen>();
  /** Links put in -> where they lead. */
  links = new Map<string, string>();
  /** Documents read for deliveries -> what was read, or null when missing. */
  docs = new Map<string, Seen | null>();

  constructor(
    readonly root: string,
    readonly realRoot: string,
  ) {
    this.ws = new Workspace(root, realRoot);
  }

  isRule(name: string): boolean {
    return this.extensions.some((extension) => name.endsWith(extension));
  }

  forgetDir(dir: string): void {
    if (this.dirs.has(dir)) this.forgetPath(dir);
  }

  /** Drops a path and everything tracked below it. */
  forgetPath(path: string): void {
    const below = `${path}/`;
    let dropped = false;
    for (const map of [this.dirs, this.files, this.links] as Map<string, unknown>[]) {
      for (const key of [...map.keys()]) {
        if (key === path || key.startsWith(below)) {
          map.delete(key);
          dropped = true;
        }
      }
    }
    if (dropped) this.ws.remove(path);
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

/** Brings the copy up to date with the files. */
export async function refresh($: EngineInterface, s: Snapshot): Promise<void> {
  // Every directory listed last time is listed again at once, beside the
  // configuration's check: one round of calls rather than one per level.
  const listings = new Map<string, Promise<FsEntry[]>>();
  for (const dir of s.dirs.keys()) {
    const listing = $.fs.list(dir);
    listing.catch(() => undefined); // syncDir handles it
    listings.set(dir, listing);
  }
  await refreshConfig($, s);
  let source: RulesSourceAnswer;
  try {
    source = s.ws.rulesSource();
  } catch {
    return; // the configuration's error is the event's answer (decide)
  }
  const key = JSON.stringify(source);
  if (key !== s.source) {
    for (const dir of s.dirs.keys()) s.ws.remove(dir);
    for (const link of s.links.keys()) s.ws.remove(link);
    s.dirs.clear();
    s.files.clear();
    s.links.clear();
    s.source = key;
    s.extensions = source.extensions;
    s.maxDepth = source.maxDepth;
  }
  await Promise.all(source.dirs.map((dir) => syncDir($, s, dir, [], 0, listings)));
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

async function refreshConfig($: EngineInterface, s: Snapshot): Promise<void> {
  const path = `${s.root}/${CONFIG}`;
  const stat = await $.fs.stat(path).catch(() => null);
  const seen = stat?.kind === "file" ? { size: stat.size, mtimeMs: stat.mtimeMs } : null;
  if (s.config !== undefined && same(seen, s.config)) return;
  if (seen === null) {
    s.ws.remove(path);
  } else {
    const bytes = await readBytes($, path);
    if (bytes === null) {
      s.ws.remove(path);
    } else {
      s.ws.putFile(path, bytes);
    }
  }
  s.config = seen;
}

/** Lists one directory of a rules tree and puts in what changed.
 * `ancestors` are the directories above it, to stop at link loops. */
async function syncDir(
  $: EngineInterface,
  s: Snapshot,
  dir: string,
  ancestors: string[],
  depth: number,
  listings: Map<string, Promise<FsEntry[]>>,
): Promise<void> {
  if (ancestors.includes(dir)) return; // reached again through a link
  let entries: FsEntry[];
  try {
    entries = await (listings.get(dir) ?? $.fs.list(dir));
  } catch (error) {
    s.forgetDir(dir);
    if (isLoop(error) && !s.links.has(dir)) {
      // A directory that is a link loop: the engine reports it as the
      // original's walk would fail on it.
      s.ws.putLink(dir, dir);
      s.links.set(dir, dir);
    }
    return;
  }
  if (s.links.get(dir) === dir) {
    s.ws.remove(dir);
    s.links.delete(dir);
  }
  const names = new Set(entries.map((entry) => entry.name));
  const before = s.dirs.get(dir);
  if (before !== undefined) {
    for (const name of before) if (!names.has(name)) s.forgetPath(`${dir}/${name}`);
  }
  s.dirs.set(dir, names);
  const here = [...ancestors, dir];
  // Most entries are rule files that did not change: settle those without
  // a promise each, and wait only for what needs a call.
  const pending: Promise<void>[] = [];
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isLink) {
      pending.push(syncLink($, s, path, entry.name, here, depth, listings));
    } else if (entry.kind === "dir") {
      if (depth < s.maxDepth) pending.push(syncDir($, s, path, here, depth + 1, listings));
    } else if (entry.kind === "file" && s.isRule(entry.name)) {
      const seen = { size: entry.size, mtimeMs: entry.mtimeMs };
      if (!same(s.files.get(path), seen)) pending.push(syncRule($, s, path, seen));
    }
  }
  await Promise.all(pending);
}

async function syncLink(
  $: EngineInterface,
  s: Snapshot,
  path: string,
  name: string,
  ancestors: string[],
  depth: number,
  listings: Map<string, Promise<FsEntry[]>>,
): Promise<void> {
  const stat = await $.fs.stat(path, { resolve: true }).catch(() => null);
  if (stat === null || stat.realPath === undefined || stat.kind === "other") {
    // Leads nowhere: not a rule, as in the engine's own walk.
    s.forgetPath(path);
    return;
  }
  const target = s.toMount(stat.realPath);
  if (s.links.get(path) !== target) {
    s.forgetPath(path);
    s.ws.putLink(path, target);
    s.links.set(path, target);
  }
  if (stat.kind === "dir") {
    // A link back to a directory above it: the engine sees the loop and
    // warns; walking it would never end.
    const loops = ancestors.includes(target) || depth >= s.maxDepth;
    if (!loops) await syncDir($, s, target, ancestors, depth + 1, listings);
  } else if (s.isRule(name)) {
    await syncRule($, s, target, { size: stat.size, mtimeMs: stat.mtimeMs });
  }
}

async function syncRule($: EngineInterface, s: Snapshot, path: string, seen: Seen): Promise<void> {
  if (same(s.files.get(path), seen)) return;
  const bytes = await readBytes($, path);
  if (bytes === null) {
    // Gone between the listing and the read: as if never listed.
    s.forgetPath(path);
    return;
  }
  s.ws.putFile(path, bytes);
  s.files.set(path, seen);
}

async function syncDocument($: EngineInterface, s: Snapshot, doc: string): Promise<void> {
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

function isLoop(error: unknown): boolean {
  return /ELOOP|too many (levels of )?symbolic links/i.test(String(error));
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
