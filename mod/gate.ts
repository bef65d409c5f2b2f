// The gate at the write: after an edit, the written file is checked against
// the repository's ast-grep rules by `rule-fairy gate check`, found the way
// the Codex hooks find it (the plugin's launcher, hooks/run), and what it
// found goes to the model with the edit's rules. A check that cannot run
// (no program, a rule that does not parse) never holds the write back: the
// engine tells it once per session, recorded in the session state.
import type { EngineInterface } from "claude-code";
import { gateAnswer, gateFinding } from "./engine/rule_fairy_wasm";
import { loadEngine } from "./engine";
import { serial } from "./queue";
import { snapshotOf } from "./snapshot";
import { readState, stateFile, writeState } from "./state";

/** A per-file check takes milliseconds; a debug build on a slow disk,
 * seconds. Past this the write is told unchecked. */
const TIMEOUT_MS = 30_000;

/** A finished check as the engine reads it: `exit` undefined when it did
 * not start or was stopped, `stderr` then saying why. */
type Run = { exit: number | undefined; findings: string[]; stderr: string };

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
      await $.clock.now(),
    );
    if (answer.state !== undefined) await writeState($, root, state, answer.state);
    if (answer.log !== undefined) $.ui.log(answer.log, { to: "transcript" });
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
      { cwd: root, timeoutMs: TIMEOUT_MS },
    );
    return { exit: result.exitCode, findings: findings(result.stdout), stderr: result.stderr };
  } catch (error) {
    return {
      exit: undefined,
      findings: [],
      stderr: String(error instanceof Error ? error.message : error),
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

/** Each `--json` line in the gate's own words, as the Codex hooks show it. */
function findings(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      let f: JsonFinding;
      try {
        f = JSON.parse(line) as JsonFinding;
      } catch {
        throw new Error(`the check printed a line that is not a finding: ${line.slice(0, 200)}`);
      }
      return gateFinding(f.severity, f.ruleId, f.file, f.line, f.message, f.note ?? "");
    });
}
