/* tslint:disable */
/* eslint-disable */

/**
 * A project as the Claude Code mod keeps it between events: the files the
 * engine reads, put in by the mod, and the project loaded from them.
 */
export class Workspace {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The absolute paths of the files whose text `fileContains` would test
     * for `request` (none when no rule tests contents).
     */
    contentsDue(request: any): string[];
    /**
     * Decides one event: `request` is an `EventRequest`, the answer an
     * `EventResponse` (entries, delivered, deferred, log, state, stateError).
     */
    decide(request: any): any;
    /**
     * The absolute paths of the documents a delivery for `request` would
     * read (those the due rules import), to make sure of before `decide`.
     */
    documentsDue(request: any): string[];
    /**
     * `{ file, probes }`: the edited file absolute and normalised, and the
     * directories whose `.git` entry places it.
     */
    editProbes(file: string): any;
    /**
     * The absolute paths of the documents the rules import; throws when
     * the project does not load.
     */
    importedDocuments(): string[];
    /**
     * Records that `dir` holds a `.git` entry.
     */
    markCheckout(dir: string): void;
    /**
     * An empty snapshot of the project at `root` (absolute), whose links
     * resolved lead to `real_root`.
     */
    constructor(root: string, real_root: string);
    /**
     * Puts a document the rules import; the project does not load again.
     */
    putDocument(path: string, bytes: Uint8Array | number[]): void;
    /**
     * Puts a rule file or the configuration at an absolute path; the
     * project loads again on its next use.
     */
    putFile(path: string, bytes: Uint8Array | number[]): void;
    /**
     * A symbolic link at `path` leading to the absolute `target`.
     */
    putLink(path: string, target: string): void;
    /**
     * Removes what is at `path`, and everything below it.
     */
    remove(path: string): void;
    /**
     * `{ dirs, extensions, maxDepth }`: where rules come from, per the
     * configuration put in, and how deep below a directory to list (the
     * engine's one depth policy); throws the configuration's error.
     */
    rulesSource(): any;
    /**
     * Frames of `chars` UTF-16 units, `frames` per delivery (tests).
     */
    setFrameLimits(chars: number, frames: number): void;
    /**
     * `"off"`, `"start"` or `"check"`: whether a shell event runs git.
     */
    shellPlan(state: string): any;
    /**
     * `{ facts, markers, gate }`: the facts some rule tests, the marker
     * files project tags come from, and the paths whose presence means the
     * project keeps gate rules.
     */
    wants(): any;
}

/**
 * The entry for a delivery that stopped (`how`: `failed`, `threw`,
 * `timed out`) before anything was recorded. The mod writes its own copy
 * when the engine could not load; a test holds the two equal.
 */
export function deliveryFailed(kind: string, how: string, detail: string): string;

/**
 * `<kind> delivery <how>: <detail>`, the line logged beside
 * [`delivery_failed_js`]'s entry.
 */
export function failureSummary(kind: string, how: string, detail: string): string;

/**
 * `{ entry, log, state }` after `rule-fairy gate check --json` ran on a
 * written file: `exit` is its status (`undefined` when it did not start or
 * was stopped, `stderr` then saying why), `findings` its lines as
 * `gateFinding` words them, `saved` the session state.
 */
export function gateAnswer(saved: string, exit: number | null | undefined, findings: any, stderr: string, now: number): any;

/**
 * One finding of `rule-fairy gate check --json` as both hosts show it:
 * the fields of its JSON line, in the gate's own words (`note` empty when
 * the rule has none).
 */
export function gateFinding(severity: string, rule_id: string, file: string, line: number, message: string, note: string): string;

/**
 * Why a session id cannot name a state file (`contains a path
 * separator`, ...), or `undefined` when it can: the one policy both hosts
 * use.
 */
export function sessionIdProblem(id: string): string | undefined;

/**
 * The files of `git status --porcelain=v1 -z --untracked-files=all`
 * output worth a time check (deletions dropped), relative to the
 * checkout's top level.
 */
export function shellCandidates(porcelain: Uint8Array | number[]): string[];

/**
 * The session state to save after a compaction, or `undefined` when it
 * stays as it is.
 */
export function stateAfterCompaction(saved: string, now: number): string | undefined;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_workspace_free: (a: number, b: number) => void;
    readonly deliveryFailed: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number];
    readonly failureSummary: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number];
    readonly gateAnswer: (a: number, b: number, c: number, d: any, e: number, f: number, g: number) => [number, number, number];
    readonly gateFinding: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number, k: number) => [number, number];
    readonly sessionIdProblem: (a: number, b: number) => [number, number];
    readonly shellCandidates: (a: number, b: number) => [number, number];
    readonly stateAfterCompaction: (a: number, b: number, c: number) => [number, number];
    readonly workspace_contentsDue: (a: number, b: any) => [number, number, number, number];
    readonly workspace_decide: (a: number, b: any) => [number, number, number];
    readonly workspace_documentsDue: (a: number, b: any) => [number, number, number, number];
    readonly workspace_editProbes: (a: number, b: number, c: number) => [number, number, number];
    readonly workspace_importedDocuments: (a: number) => [number, number, number, number];
    readonly workspace_markCheckout: (a: number, b: number, c: number) => void;
    readonly workspace_new: (a: number, b: number, c: number, d: number) => number;
    readonly workspace_putDocument: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly workspace_putFile: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly workspace_putLink: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly workspace_remove: (a: number, b: number, c: number) => void;
    readonly workspace_rulesSource: (a: number) => [number, number, number];
    readonly workspace_setFrameLimits: (a: number, b: number, c: number) => void;
    readonly workspace_shellPlan: (a: number, b: number, c: number) => [number, number, number];
    readonly workspace_wants: (a: number) => [number, number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __externref_drop_slice: (a: number, b: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
