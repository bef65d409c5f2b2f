// The gate at the write: after an edit, the written file is checked against
// the repository's ast-grep rules by `rule-fairy gate check`, found the way
// the Codex hooks find it (the plugin's launcher, hooks/run), and what it
// found goes to the model with the edit's rules. A check that cannot run
// (no program, a rule that does not parse) never holds the write back: the
// engine tells it once per session, recorded in the session state. The mod
// names its version to the check, the check answers with the program's, and
// the engine tells a program of another version once per session too.
import type { EngineInterface } from "claude-code";
import { engineVersion, gateAnswer, gateFinding } from "./engine/rule_fairy_wasm";
import { loadEngine } from "./engine";
import { serial } from "./queue";
import { snapshotOf } from "./snapshot";
import { readState, stateFile, writeState } from "./state";

/** A per-file check takes milliseconds; a debug build on a slow disk,
 * seconds. Past this the write is told unchecked. */
const TIMEOUT_MS = 30_000;

/** A finished check as the engine reads it: `exit` undefined when it did
 * not start or was stopped, `stderr` then saying why; `programVersion` what
 * the check said the program's version is (undefined: it said none), and
 * `programPath` where it said it runs from. */
type Run = {
  exit: number | undefined;
  findings: string[];
  stderr: string;
  programVersion: string | undefined;
  programPath: string | undefined;
};

/** Named to the check: a program that knows it prints its own version
 * first, as `{"programVersion": ...}`; an older one ignores it. */
const PLUGIN_VERSION_VARIABLE = "RULE_FAIRY_PLUGIN_VERSION";

/** The entries to attach after `file` (as the tool named it) was written:
 * none when the project keeps no gate rules or the file is clean. */
export async function checkWritten($: EngineInterface, file: string): Promise<string[]> {
  await loadEngine($);
  const [root, sessionId] = await Promise.all([$.session.root(), $.session.id()]);
  const snapshot = await snapshotOf($, root);
  // Asked in the session's queue, where no delivery is halfway through
  // refreshing the copy; the check itself runs outside it.
  const { absolute, probes } = await serial(sessionId, async () => ({
    absolute: snapshot.ws.editProbes(file).file,
    probes: snapshot.ws.wants().gate,
  }));
  const run = await check($, root, absolute, probes);
  if (run === undefined) return [];
  const state = stateFile(root, sessionId);
  return serial(sessionId, async () => {
    const answer = gateAnswer(
      await readState($, state),
      run.exit,
      run.findings,
      run.stderr,
      run.programVersion,
      run.programPath,
      await $.clock.now(),
    );
    if (answer.state !== undefined) await writeState($, root, state, answer.state);
    for (const line of answer.log) $.ui.log(line, { to: "transcript" });
    return answer.entry === undefined ? [] : [answer.entry];
  });
}

/** Runs the check when any of `probes` (where gate rules would be) exists.
 * Nothing here throws: a check that could not be made is a run the engine
 * reads as one. */
async function check(
  $: EngineInterface,
  root: string,
  file: string,
  probes: string[],
): Promise<Run | undefined> {
  try {
    const found = await Promise.all(probes.map((probe) => $.fs.exists(probe)));
    if (!found.includes(true)) return undefined;
    const launcher = `${$.plugin.root}/hooks/run`;
    const result = await $.process.run(
      [launcher, "gate", "check", file, "--json", "--project", root],
      { cwd: root, timeoutMs: TIMEOUT_MS, env: { [PLUGIN_VERSION_VARIABLE]: engineVersion() } },
    );
    return { exit: result.exitCode, stderr: result.stderr, ...lines(result.stdout) };
  } catch (error) {
    return {
      exit: undefined,
      findings: [],
      stderr: String(error instanceof Error ? error.message : error),
      programVersion: undefined,
      programPath: undefined,
    };
  }
}

type JsonFinding = {
  ruleId: string;
  severity: string;
  file: string;
  line: number;
  message: string;
  note?: string | null;
};

/** The program's version, from the line that says it, and each other
 * `--json` line in the gate's own words, as the Codex hooks show it. */
function lines(stdout: string): {
  findings: string[];
  programVersion: string | undefined;
  programPath: string | undefined;
} {
  let programVersion: string | undefined;
  let programPath: string | undefined;
  const findings: string[] = [];
  for (const line of stdout.split("\n")) {
    if (line.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== "object" || parsed === null) {
      throw new Error(`the check printed a line that is not a finding: ${line.slice(0, 200)}`);
    }
    if ("programVersion" in parsed) {
      const said = parsed as { programVersion: unknown; programPath?: unknown };
      if (typeof said.programVersion === "string") programVersion = said.programVersion;
      if (typeof said.programPath === "string") programPath = said.programPath;
      continue;
    }
    const f = parsed as JsonFinding;
    findings.push(gateFinding(f.severity, f.ruleId, f.file, f.line, f.message, f.note ?? ""));
  }
  return { findings, programVersion, programPath };
}
