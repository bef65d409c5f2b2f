/* tslint:disable */
/* eslint-disable */
/**
 * A condition a rule can declare, as `explain` names it.
 */
export type Dimension = "alwaysApply" | "keyword" | "glob" | "fileContains" | "command" | "project" | "os" | "ci" | "branch" | "model" | "agent" | "tools";

/**
 * A delivery's text and its length in the unit the hosts limit.
 */
export interface Sized {
    text: string;
    /**
     * UTF-16 code units.
     */
    chars: number;
}

/**
 * A delivery's thread other than the main one, as the mod names it.
 */
export type ThreadRequest = { kind: "agent"; id: string } | { kind: "spawn" };

/**
 * A delivery, or the error that stops it (a missing import, the budget).
 */
export type Rendered<T> = { ok: T } | { error: Error };

/**
 * A finished git check: the checkout's top level as `git rev-parse
 * --show-toplevel` printed it, and each changed file's path relative to
 * it with the later of its modification and change times.
 */
export interface ShellReport {
    /**
     * When the check started, before any git call.
     */
    started: number;
    toplevel: string;
    changed?: [string, number][];
}

/**
 * A mention the prompt holds that names no one rule, for `explain`.
 */
export interface MentionHint {
    /**
     * The mention as written, with its `@`.
     */
    mention: string;
    /**
     * The rules it could mean when it is ambiguous; empty when no rule
     * has that name.
     */
    candidates: string[];
    /**
     * For a mention naming no rule, the shortest mention of the rule
     * whose name is nearest (a small edit distance), when one is.
     */
    nearest?: string;
}

/**
 * A path stat'ed with its links resolved (the mod passes `$.fs.stat(path,
 * { resolve: true })` as it comes).
 */
export interface HostStat {
    /**
     * What it leads to.
     */
    kind: HostKind;
    /**
     * Its size in bytes.
     */
    size?: number;
    /**
     * Its modification time, in milliseconds since the Unix epoch.
     */
    mtimeMs?: number;
    /**
     * Where it really is, links resolved; without it the path counts as
     * leading nowhere.
     */
    realPath?: string | undefined;
}

/**
 * An edited file placed: `file` absolute and normalised, `probes` the
 * directories whose `.git` entry would place it.
 */
export interface EditProbes {
    file: string;
    probes: string[];
}

/**
 * An engine error: the message, and where when the problem is in a file.
 */
export interface Error {
    message: string;
    place?: Place;
}

/**
 * How a rule can come at all.
 */
export type RuleKind = "alwaysOn" | "alwaysOnBelow" | "requestable" | "manual" | "conditional";

/**
 * How bad a finding is; errors sort before warnings.
 */
export type Severity = "error" | "warning";

/**
 * One condition the rule declares, judged against the event.
 */
export type Check = { check: "alwaysApply"; held: boolean; atPrompt: boolean } | { check: "keywords"; anyOf: Term[]; requires: Term[]; held: boolean; atPrompt: boolean } | { check: "glob"; glob: string; path?: string; outcome: GlobOutcome; held: boolean; error?: string } | { check: "fileContains"; pattern: string; path?: string; outcome: ContentOutcome; held: boolean; error?: string } | { check: "read"; file: string; held: boolean } | ({ check: "fact" } & Outcome);

/**
 * One entry of a directory listing, as the host's listing gives it (the
 * mod passes `$.fs.list`'s entries as they come).
 */
export interface HostEntry {
    /**
     * The entry's name in its directory.
     */
    name: string;
    /**
     * What it is, the link itself not followed.
     */
    kind: HostKind;
    /**
     * Its size in bytes.
     */
    size?: number;
    /**
     * Its modification time, in milliseconds since the Unix epoch.
     */
    mtimeMs?: number;
    /**
     * Whether it is a symbolic link: then the walk stats it.
     */
    isLink?: boolean;
}

/**
 * One event answered.
 */
export interface Answer {
    /**
     * Why no rule can fire at all: the configuration or the rule names
     * are broken. Everything else is then empty.
     */
    loadError: Error | undefined;
    /**
     * The project's tags from its marker files, the `project` fact.
     */
    projectTags: string[];
    rules: FiredRule[];
    /**
     * Rules left out because they cannot be read, and invalid globs or
     * patterns this event reached; the rules listed still fired.
     */
    problems: Error[];
    /**
     * Codex's `additionalContext`, whole (the plugin sets no limit).
     */
    codex: Rendered<Sized> | undefined;
    claude: Rendered<ClaudeAnswer> | undefined;
    limits: Limits;
}

/**
 * One event as the mod gathered it: the wire form of an [`Event`] and
 * everything the decision reads besides the project.
 */
export interface EventRequest {
    /**
     * What happened: a prompt, an edit or a shell command.
     */
    kind: RequestKind;
    /**
     * Names this event among the session's: the delivery id is made from
     * it, so it must differ between deliveries (the mod puts the session,
     * the tool use or prompt, and the time in it).
     */
    key: string;
    /**
     * The prompt as typed (prompt events).
     */
    prompt?: string | null;
    /**
     * The edited or read file, absolute (edit and read events).
     */
    file?: string | null;
    /**
     * What git said (shell events, when a check was running).
     */
    shell?: ShellReport | null;
    /**
     * Conversation texts that may hold deliveries.
     */
    context?: string[];
    /**
     * The saved state file's text; empty for a new session.
     */
    state?: string;
    /**
     * The state file as a person finds it, for messages.
     */
    stateFile?: string;
    /**
     * The time of the event, in milliseconds since the Unix epoch.
     */
    now: number;
    /**
     * The facts the mod gathered for rule conditions (`Wants::facts`).
     */
    facts?: HostFacts;
    /**
     * The texts of the files [`ClaudeWorkspace::contents_due`] named, in
     * its order (`None`: it could not be read).
     */
    contents?: (string | null)[];
    /**
     * Whose conversation the delivery is for, when not the main thread's
     * (behaviour §5.7): the person's line names it (§10.1).
     */
    thread?: ThreadRequest | null;
}

/**
 * One path of a path event, judged on its own (behaviour §2.4: a path
 * event selects a rule for the path that reached it).
 */
export interface PathVerdict {
    /**
     * The path as globs see it: project-relative, normalised (§2.1).
     */
    path: string;
    /**
     * The path as the event gave it, when that differs.
     */
    given?: string;
    /**
     * It leaves the project, so no rule matches it (§0.1).
     */
    outside: boolean;
    /**
     * A glob or `fileContains` of the rule held for it.
     */
    reached: boolean;
    /**
     * The rule fires for it.
     */
    fires: boolean;
}

/**
 * One problem found, at a file and, where known, a line. It serializes
 * flat: `severity`, `code`, `file`, `line`, `column` and `endColumn`
 * where the span on the line is known, `message`, `hint`.
 */
export type Finding = { severity: Severity; code: Code; message: string; hint?: string } & Place & (Span | {});

/**
 * One prompt term and whether the prompt holds it.
 */
export interface Term {
    /**
     * The term, lower-cased as the rule declares it.
     */
    term: string;
    /**
     * Whether the prompt holds it (behaviour §2.4's boundaries).
     */
    found: boolean;
}

/**
 * One reason a rule fired; [`describe`](crate::describe) words it.
 */
export type Reason = { kind: "alwaysApply" } | { kind: "keyword"; keywords: string[] } | { kind: "glob"; glob: string; path: string } | { kind: "fileContains"; pattern: string; path: string } | { kind: "mention"; mentions: string[] } | { kind: "read"; path: string } | { kind: "readBelow"; path: string } | { kind: "instructions" } | { kind: "index" } | { kind: "conditions"; conditions: Outcome[] };

/**
 * One round's asks, each list in path order; all empty when the walk
 * needs nothing more.
 */
export interface Asks {
    /**
     * Directories to list.
     */
    list: string[];
    /**
     * Paths to stat, links resolved, with their real paths.
     */
    stat: string[];
    /**
     * Files to read.
     */
    read: string[];
    /**
     * A git command to run at the project root, its output handed back
     * whole (where the nested rules folders are); empty when none.
     */
    git: string[];
}

/**
 * One rule the event selects, with why.
 */
export interface FiredRule {
    /**
     * The rule's name, relative to its rules directory.
     */
    name: string;
    /**
     * What made it fire: always-on and keywords for a prompt; for a path
     * event its glob hits, then its `fileContains` hits.
     */
    reasons: Reason[];
    /**
     * Every other condition the rule declares (command, project, os, ci,
     * branch, model, agent, tools): what it wanted, what the fact was, and
     * whether it held.
     */
    conditions?: Outcome[];
    /**
     * `"ephemeral"` for rules on per-turn facts, delivered every turn they
     * hold and never recorded; absent for durable rules.
     */
    delivery?: "ephemeral";
}

/**
 * The event a case asks about, as typed: the wire form of an [`Event`].
 */
export type EventInput = { kind: "prompt"; prompt: string } | { kind: "edit"; paths: string[] };

/**
 * The facts as typed. A blank or absent value is a fact nobody knows, so
 * a condition on it does not hold (as in a host that cannot tell).
 */
export interface FactInputs {
    /**
     * The slash command; when blank, the prompt's own is used.
     */
    command?: string | null;
    /**
     * The operating system, in any name [`normalize_os`] knows.
     */
    os?: string | null;
    /**
     * Whether this is a CI run; absent is unknown.
     */
    ci?: boolean | null;
    /**
     * The current git branch.
     */
    branch?: string | null;
    /**
     * The model in use.
     */
    model?: string | null;
    /**
     * The agent in use.
     */
    agent?: string | null;
    /**
     * The names of the tools available; blank entries are dropped, and
     * none left is unknown.
     */
    tools?: string[];
}

/**
 * The kinds of [`Event`] the mod reports, as it names them on the wire.
 */
export type RequestKind = "prompt" | "edit" | "shell" | "read";

/**
 * The limits the sizes are measured against.
 */
export interface Limits {
    frameChars: number;
    framesPerDelivery: number;
}

/**
 * What Claude Code would attach.
 */
export interface ClaudeAnswer {
    frames: Sized[];
    /**
     * One entry per rule too large for any delivery.
     */
    errorEntries: Sized[];
    delivered: string[];
    /**
     * Rules that fit no frame of this delivery and wait for the next.
     */
    deferred: string[];
}

/**
 * What [`check_project`] found: the counts, every finding, and the rules
 * no rule test names.
 */
export interface Report {
    /**
     * How many rule files were read.
     */
    rules: number;
    /**
     * How many findings are errors.
     */
    errors: number;
    /**
     * How many findings are warnings.
     */
    warnings: number;
    /**
     * Sorted by file, then line.
     */
    findings: Finding[];
    /**
     * The rules no readable rule test names, in name order (a note,
     * not a finding: a rule without a test still works); none when the
     * rules do not load as a project (duplicate names), which a finding
     * already tells.
     */
    untestedRules: string[];
}

/**
 * What a delivery record does with a rule once it fires.
 */
export interface Delivery {
    /**
     * Ephemeral (per-turn facts): never recorded, never held back;
     * otherwise durable, delivered once per session.
     */
    ephemeral: boolean;
    /**
     * The session's answer, when a view of its record was given; without
     * one the rule above is all there is to say.
     */
    session?: HoldBack;
}

/**
 * What a host says a path is.
 */
export type HostKind = "file" | "dir" | "other";

/**
 * What a session's record says of one rule, as a host read it.
 */
export type HeldBy = { host: "claude"; deliveredAt: number | undefined; inConversation: boolean; now: number } | { host: "codex"; delivered: boolean; dueAgain: boolean };

/**
 * What a shell event must gather before it is decided.
 */
export type ShellPlan = "off" | "start" | "check";

/**
 * What kind of event it is: what labels name (`[rule-fairy error: <kind>
 * delivery failed]`), what a delivery id is made from, and what `explain`
 * prints as the event.
 */
export type EventKind = "prompt" | "edit" | "shell" | "read" | "session start";

/**
 * What kind of problem a finding is, by a stable name
 * (`rule/invalid-glob`): SARIF's `ruleId`, the title of a GitHub
 * annotation, `code` in JSON. Names never change meaning; a new
 * kind of finding gets a new name.
 */
export type Code = "config/unreadable" | "config/syntax" | "config/unknown-key" | "config/invalid-value" | "config/dir-outside-project" | "rule/unreadable" | "rule/duplicate-name" | "rule/nothing-found" | "rule/empty" | "rule/byte-order-mark" | "rule/unclosed-frontmatter" | "rule/unread-line" | "rule/unreadable-list" | "rule/duplicate-key" | "rule/key-case" | "rule/unknown-key" | "rule/not-a-list" | "rule/always-apply" | "rule/quoted" | "rule/invalid-glob" | "rule/split-braces" | "rule/glob-list" | "rule/literal-glob" | "rule/glob-matches-nothing" | "rule/invalid-condition" | "rule/requires-alone" | "rule/no-trigger" | "rule/requestable" | "rule/mention-only" | "rule/code-outside-fence" | "rule/too-long" | "import/missing" | "import/heading-missing" | "import/outside-project" | "import/omission" | "instruction/unreadable" | "test/missing";

/**
 * What one `fileContains` pattern made of one path's content.
 */
export type ContentOutcome = "found" | "notFound" | "unreadable" | "notRead" | "noPath" | "invalid";

/**
 * What one glob made of one path.
 */
export type GlobOutcome = "matched" | "missed" | "noPath" | "invalid" | "afterInvalid";

/**
 * What the mod does with an event's answer.
 */
export interface EventResponse {
    entries: string[];
    /**
     * The frames of the rules on per-turn facts, under a host that sends
     * them with the turn's model calls only (opencode, behaviour §5.2.4):
     * never kept in the conversation. Always empty for Claude Code.
     */
    perTurn: string[];
    delivered: string[];
    deferred: string[];
    log: string[];
    /**
     * The state to save; `None` when nothing changed.
     */
    state: string | undefined;
    /**
     * Set when the saved state was not a state: why. The mod keeps a copy
     * of the old text before saving over it.
     */
    stateError: string | undefined;
}

/**
 * What the mod does with one check.
 */
export interface GateAnswer {
    /**
     * The context entry to attach after the edit's rules.
     */
    entry: string | undefined;
    /**
     * The lines for the transcript, in order.
     */
    log: string[];
    /**
     * The session state to save; `None` when it stays as it is.
     */
    state: string | undefined;
}

/**
 * What the mod gathered for one event. A field left out is a fact the mod
 * did not ask for or the host could not tell: a condition on it does not
 * hold.
 */
export interface HostFacts {
    /**
     * The main loop's model, as `$.session.model()` names it.
     */
    model?: string | null;
    /**
     * `$.session.info().platform`: `macos`, `windows`, `wsl`, `linux` or
     * `unknown`.
     */
    platform?: string | null;
    /**
     * The value of each of [`CI_VARIABLES`], in its order (`None`: unset);
     * empty when they were not read. A list rather than a map keeps the
     * mod's engine small.
     */
    ciEnv?: (string | null)[];
    /**
     * What `git symbolic-ref --quiet --short HEAD` printed, when it
     * succeeded.
     */
    branch?: string | null;
    /**
     * The agent the session runs as (`claude --agent NAME`).
     */
    agent?: string | null;
    /**
     * The tools the model can call.
     */
    tools?: string[] | null;
    /**
     * The slash command a prompt runs, without its slash (`e.command.name`);
     * without it the prompt's first word decides.
     */
    command?: string | null;
}

/**
 * What the mod gathers before an event is decided, beyond the event.
 */
export interface Wants {
    /**
     * The facts some rule tests ([`RuleIndex::wanted_facts`]); the mod asks the host
     * for these only.
     */
    facts: string[];
    /**
     * The marker files project tags come from, absolute, when a rule tests
     * `project`: the mod keeps them in the snapshot as documents.
     */
    markers: string[];
    /**
     * The environment variables that say a run is in CI, when a rule tests
     * `ci`: the mod reads each and hands their values back in this order.
     */
    ci: string[];
    /**
     * The paths whose presence means the project keeps gate rules
     * ([`gate_probes`]); the mod checks written files only then.
     */
    gate: string[];
}

/**
 * What the rule wanted of a fact, what the fact was, and whether it held.
 * Read back by the playground's `describeCondition`.
 */
export interface Outcome {
    /**
     * Which condition: `os`, `branch`, `tools` and the like.
     */
    kind: Dimension;
    /**
     * Whether it held.
     */
    held: boolean;
    /**
     * The values the rule declared (for `ci`, `true` or `false`).
     */
    wanted: string[];
    /**
     * The fact tested; `None` when the host could not tell.
     */
    actual: string[] | undefined;
}

/**
 * What the walk asks a host to do with a path.
 */
export type AskKind = "list" | "stat" | "read";

/**
 * Where a problem sits: a file and, when known, a 1-based line.
 */
export interface Place {
    /**
     * The file as the user wrote or reached it.
     */
    file: string;
    /**
     * 1-based line, `None` when the problem concerns the whole file.
     */
    line?: number;
}

/**
 * Where on its line a finding points: 1-based columns in characters,
 * `end_column` just past the last character (as the gate's findings
 * count them). It serializes as `column` and `endColumn`.
 */
export interface Span {
    /**
     * The first character's column.
     */
    column: number;
    /**
     * The column just past the last character.
     */
    endColumn: number;
}

/**
 * Whether a delivery record holds the rule back, and why.
 */
export interface HoldBack {
    /**
     * Held back: it would fire, and still not be delivered.
     */
    held: boolean;
    /**
     * Why.
     */
    reason: HoldReason;
    /**
     * For a Claude Code delivery, how long ago it was (milliseconds).
     */
    agoMs?: number;
}

/**
 * Why a rule that fires is held back or delivered.
 */
export type HoldReason = "ephemeral" | "neverDelivered" | "inConversation" | "deliveredRecently" | "dueAgain" | "delivered";

/**
 * Why no rule answers to a name.
 */
export type NoRule = { problem: "unknown"; name: string; nearest: string[] } | { problem: "ambiguous"; name: string; candidates: string[] } | { problem: "broken"; name: string; place: Place; message: string };

/**
 * Why one rule does or does not fire for one event.
 */
export interface WhyNot {
    /**
     * The rule's name.
     */
    name: string;
    /**
     * Its file, project-relative.
     */
    file: string;
    /**
     * The event judged.
     */
    event: EventKind;
    /**
     * How the rule can come at all.
     */
    kind: RuleKind;
    /**
     * A requestable rule's description, as the index offers it.
     */
    description?: string;
    /**
     * A nested folder's rule: the directory its globs are relative to.
     */
    base?: string;
    /**
     * The shortest mention that names it, with its `@`.
     */
    mention: string;
    /**
     * `match: all`: every condition must hold; else one is enough.
     */
    matchAll: boolean;
    /**
     * Every condition it declares, judged: `alwaysApply`, the keywords,
     * each glob on each path, each `fileContains` pattern on each path's
     * content, then the facts.
     */
    checks: Check[];
    /**
     * For a path event, each path's verdict, in the event's order.
     */
    paths?: PathVerdict[];
    /**
     * Whether the conditions combine to true (for a path event: for some
     * path that reached the rule).
     */
    conditionsHold: boolean;
    /**
     * The prompt's mentions naming the rule, which select it whatever its
     * conditions (§9.3).
     */
    mentioned?: string[];
    /**
     * The verdict: the event selects the rule.
     */
    fires: boolean;
    /**
     * What a delivery record does with it once it fires.
     */
    delivery: Delivery;
}

/**
 * Why one rule does or does not fire for the case's event, as
 * `rule-fairy explain --why-not` says it.
 */
export interface WhyNotAnswer {
    /**
     * The answer, when the rule was found.
     */
    whyNot: WhyNot | undefined;
    /**
     * Why no rule answers to the name, when none does.
     */
    problem: NoRule | undefined;
    /**
     * Why no rule can fire at all: the configuration or the rule names
     * are broken.
     */
    loadError: Error | undefined;
    /**
     * The answer in words, a line each, as the command line prints it.
     */
    lines: string[];
    /**
     * The event as a test of the rule (`rule-fairy test`), under `fires`
     * or `silent` as it now is: the playground's export.
     */
    test: string | undefined;
}


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
    contentsDue(request: EventRequest): string[];
    /**
     * Decides one event: `request` is an `EventRequest`, the answer an
     * `EventResponse` (entries, delivered, deferred, log, state, stateError).
     */
    decide(request: EventRequest): EventResponse;
    /**
     * Whether the document at `path`, checked before, need not be
     * stat'ed again for this event: nothing below the watch changed.
     */
    documentUnchanged(path: string): boolean;
    /**
     * The absolute paths of the documents a delivery for `request` would
     * read: those the due rules import, and the instruction files looked
     * for (and what those import), to make sure of before `decide`; ask
     * again after making sure, until nothing new is named.
     */
    documentsDue(request: EventRequest): string[];
    /**
     * `{ file, probes }`: the edited file absolute and normalised, and the
     * directories whose `.git` entry places it.
     */
    editProbes(file: string): EditProbes;
    /**
     * What `kind` (`"list"`, `"stat"` or `"read"`) asked of `path`
     * failed; `reason` is the host's error text (the engine reads
     * `ENOENT` and `ELOOP` in it).
     */
    failed(kind: AskKind, path: string, reason: string): void;
    /**
     * Claude Code reported a change below a watched path (`FileChanged`).
     */
    fileChanged(path: string): void;
    /**
     * The git command `Asks.git` named, run at the root: its exit code
     * (`-1` when it could not run, `stderr` saying why) and its output.
     */
    gitListed(exit_code: number, stdout: string, stderr: string): void;
    /**
     * The absolute paths of the documents the rules import; throws when
     * the project does not load.
     */
    importedDocuments(): string[];
    /**
     * Whether an edit must run `instructionListing`'s command first.
     */
    instructionListingDue(): boolean;
    /**
     * The git command listing the project's instruction files, to run at
     * the root: with `untracked` before an edit, without it beside `git
     * status`; empty when there are none to list.
     */
    instructionListing(untracked: boolean): string[];
    /**
     * What that command printed, and its exit code (`-1`: it could not
     * run).
     */
    instructionsListed(exit_code: number, stdout: Uint8Array | number[]): void;
    /**
     * `dir` listed: `$.fs.list`'s entries as they come.
     */
    listed(dir: string, entries: HostEntry[]): void;
    /**
     * Records that `dir` holds a `.git` entry.
     */
    markCheckout(dir: string): void;
    /**
     * The most bytes a document is read with (the engine's bound).
     */
    static maxReadBytes(): number;
    /**
     * Whether the mod may read a file `fileContains` tests, from a stat
     * with links resolved: its real path, its kind (`"file"`, `"dir"` or
     * `"other"`) and its size (behaviour §0.1).
     */
    mayRead(real_path: string, kind: string, size: number): boolean;
    /**
     * An empty snapshot of the project at `root` (absolute), whose links
     * resolved lead to `real_root`.
     */
    constructor(root: string, real_root: string);
    /**
     * The next round's `Asks`, all empty once the rules are up to date.
     */
    nextAsks(): Asks;
    /**
     * Puts a document the rules import; the project does not load again.
     */
    putDocument(path: string, bytes: Uint8Array | number[]): void;
    /**
     * A symbolic link at `path` leading to the absolute `target`, among
     * the documents.
     */
    putLink(path: string, target: string): void;
    /**
     * A document of `len` bytes not read, being larger than the host's
     * read bound (`maxReadBytes`): rendering it names its size.
     */
    putUnreadDocument(path: string, len: number): void;
    /**
     * `path` read.
     */
    readBytes(path: string, bytes: Uint8Array | number[]): void;
    /**
     * Whether a Read of `file` (absolute) may bring a rule (a requestable
     * rule's file, or a file below a nested folder's always-on rule); the
     * mod delivers for a read only then.
     */
    readMayDeliver(file: string): boolean;
    /**
     * Removes the document, link or directory at `path`, and everything
     * below it.
     */
    remove(path: string): void;
    /**
     * Frames of `chars` UTF-16 units, `frames` per delivery (tests).
     */
    setFrameLimits(chars: number, frames: number): void;
    /**
     * Reads `dir` (absolute, from `opencodeGlobalRules`) as the global
     * rules directory when the host is opencode, its rules named from
     * `home` (shown as `~`); `undefined` reads none. Its listings, stats
     * and reads come among the refresh's asks, and `watchPaths` names it.
     */
    setGlobalRules(dir?: string | null, home?: string | null): void;
    /**
     * Serves the host called `name`, `"Claude Code"` (the default) or
     * `"opencode"`, from now on: set once, after the constructor. It
     * decides the rule formats read, whether the global rules directory
     * is, and which instruction files a delivery adds (behaviour §5.2.4).
     * Any other name is an error, and the host stays as it was.
     */
    setHost(name: string): void;
    /**
     * The files of `git status --porcelain=v1 -z --untracked-files=all`
     * output whose times to read, relative to the checkout's top level
     * `toplevel` (as git printed it, without the newline): deletions
     * dropped, and only files some rule could select or that lie below a
     * directory holding an instruction file, as `instructionsListed` was
     * last told.
     */
    shellCandidates(porcelain: Uint8Array | number[], toplevel: string): string[];
    /**
     * `"off"`, `"start"` or `"check"`: whether a shell event runs git.
     */
    shellPlan(state: string): ShellPlan;
    /**
     * `startRefresh` for an event of `kind` at `now` (`$.clock.now()`):
     * all empty, and the project kept, when Claude Code's watch says no
     * rule file changed (behaviour §5.2.3).
     */
    startRefreshAt(now: number, kind: RequestKind): Asks;
    /**
     * Begins bringing the configuration and the rules up to date: the
     * first `Asks` (directories to list, paths to stat with links
     * resolved, files to read). Answer each with `listed`, `stated`,
     * `readBytes` or `failed`, then call `nextAsks`, until it asks
     * nothing. The engine's walk decides every ask (behaviour §1.2).
     */
    startRefresh(): Asks;
    /**
     * `path` stat'ed with its links resolved: `$.fs.stat(path, { resolve:
     * true })` as it comes.
     */
    stated(path: string, stat: HostStat): void;
    /**
     * Whether subagents get the rules (`:subagents` in `rule-fairy.edn`,
     * on by default), for the project as last refreshed.
     */
    subagents(): boolean;
    /**
     * `{ facts, markers, gate }`: the facts some rule tests, the marker
     * files project tags come from, and the paths whose presence means the
     * project keeps gate rules.
     */
    wants(): Wants;
    /**
     * The paths to ask Claude Code to watch (`watchPaths` at session
     * start), each with everything below it.
     */
    watchPaths(): string[];
    /**
     * Claude Code began watching the `watchPaths`.
     */
    watchStarted(): void;
}

/**
 * The files an apply_patch text adds, updates, deletes or moves to, in
 * order, each once: the opencode plugin delivers each one's rules as an
 * edit's.
 */
export function applyPatchPaths(patch: string): string[];

/**
 * The entry for a delivery that stopped (`how`: `failed`, `threw`,
 * `timed out`) before anything was recorded. The mod writes its own copy
 * when the engine could not load; a test holds the two equal.
 */
export function deliveryFailed(kind: string, how: string, detail: string): string;

/**
 * This engine's version, which is the plugin's: the mod names it to the
 * gate check in `RULE_FAIRY_PLUGIN_VERSION` (behaviour §10.5).
 */
export function engineVersion(): string;

/**
 * `<kind> delivery <how>: <detail>`, the line logged beside
 * [`delivery_failed_js`]'s entry.
 */
export function failureSummary(kind: string, how: string, detail: string): string;

/**
 * `{ entry, log, state }` after `rule-fairy gate check --json` ran on a
 * written file: `exit` is its status (`undefined` when it did not start or
 * was stopped, `stderr` then saying why), `findings` its lines as
 * `gateFinding` words them, `programVersion` the version its
 * `{"programVersion": ...}` line said (`undefined` without one) and
 * `programPath` where it said it runs from, `saved`
 * the session state.
 */
export function gateAnswer(saved: string, exit: number | null | undefined, findings: string[], stderr: string, program_version: string | null | undefined, program_path: string | null | undefined, now: number): GateAnswer;

/**
 * One finding of `rule-fairy gate check --json` as both hosts show it:
 * the fields of its JSON line, in the gate's own words (`note` empty when
 * the rule has none).
 */
export function gateFinding(severity: string, rule_id: string, file: string, line: number, message: string, note: string): string;

/**
 * opencode-rules' global rules directory, from the values of
 * `OPENCODE_CONFIG_DIR`, `XDG_CONFIG_HOME` and `HOME` (each `undefined`
 * when unset): the first that applies (behaviour §5.2.4), or `undefined`.
 * Hand it to `Workspace.setGlobalRules`.
 */
export function opencodeGlobalRules(config_dir?: string | null, xdg_config_home?: string | null, home?: string | null): string | undefined;

/**
 * Why a session id cannot name a state file (`contains a path
 * separator`, ...), or `undefined` when it can: the one policy both hosts
 * use.
 */
export function sessionIdProblem(id: string): string | undefined;

/**
 * The session state to save after a compaction, or `undefined` when it
 * stays as it is.
 */
export function stateAfterCompaction(saved: string, now: number): string | undefined;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_workspace_free: (a: number, b: number) => void;
    readonly applyPatchPaths: (a: number, b: number) => [number, number];
    readonly deliveryFailed: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number];
    readonly engineVersion: () => [number, number];
    readonly failureSummary: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number];
    readonly gateAnswer: (a: number, b: number, c: number, d: any, e: number, f: number, g: number, h: number, i: number, j: number, k: number) => [number, number, number];
    readonly gateFinding: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number, k: number) => [number, number];
    readonly opencodeGlobalRules: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number];
    readonly sessionIdProblem: (a: number, b: number) => [number, number];
    readonly stateAfterCompaction: (a: number, b: number, c: number) => [number, number];
    readonly workspace_contentsDue: (a: number, b: any) => [number, number, number, number];
    readonly workspace_decide: (a: number, b: any) => [number, number, number];
    readonly workspace_documentUnchanged: (a: number, b: number, c: number) => number;
    readonly workspace_documentsDue: (a: number, b: any) => [number, number, number, number];
    readonly workspace_editProbes: (a: number, b: number, c: number) => [number, number, number];
    readonly workspace_failed: (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => void;
    readonly workspace_fileChanged: (a: number, b: number, c: number) => void;
    readonly workspace_gitListed: (a: number, b: number, c: number, d: number, e: number, f: number) => void;
    readonly workspace_importedDocuments: (a: number) => [number, number, number, number];
    readonly workspace_instructionListing: (a: number, b: number) => [number, number];
    readonly workspace_instructionListingDue: (a: number) => number;
    readonly workspace_instructionsListed: (a: number, b: number, c: number, d: number) => void;
    readonly workspace_listed: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly workspace_markCheckout: (a: number, b: number, c: number) => void;
    readonly workspace_maxReadBytes: () => number;
    readonly workspace_mayRead: (a: number, b: number, c: number, d: number, e: number, f: number) => number;
    readonly workspace_new: (a: number, b: number, c: number, d: number) => number;
    readonly workspace_nextAsks: (a: number) => [number, number, number];
    readonly workspace_putDocument: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly workspace_putLink: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly workspace_putUnreadDocument: (a: number, b: number, c: number, d: number) => void;
    readonly workspace_readBytes: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly workspace_readMayDeliver: (a: number, b: number, c: number) => number;
    readonly workspace_remove: (a: number, b: number, c: number) => void;
    readonly workspace_setFrameLimits: (a: number, b: number, c: number) => void;
    readonly workspace_setGlobalRules: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly workspace_setHost: (a: number, b: number, c: number) => [number, number];
    readonly workspace_shellCandidates: (a: number, b: number, c: number, d: number, e: number) => [number, number];
    readonly workspace_shellPlan: (a: number, b: number, c: number) => [number, number, number];
    readonly workspace_startRefresh: (a: number) => [number, number, number];
    readonly workspace_startRefreshAt: (a: number, b: number, c: any) => [number, number, number];
    readonly workspace_stated: (a: number, b: number, c: number, d: any) => void;
    readonly workspace_subagents: (a: number) => number;
    readonly workspace_wants: (a: number) => [number, number, number];
    readonly workspace_watchPaths: (a: number) => [number, number];
    readonly workspace_watchStarted: (a: number) => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_drop_slice: (a: number, b: number) => void;
    readonly __externref_table_dealloc: (a: number) => void;
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
