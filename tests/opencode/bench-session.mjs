// A whole prompt through the plugin in a real opencode session, on the
// example project: `opencode serve`, one session, many prompts, the model
// played by the mock chat completions server. opencode times no plugin
// hook, so the figures are the plugin's own (its debug lines: the whole
// `chat.message` hook, and the delivery's parts as mod/deliver.ts logs
// them) and, from outside, the time from sending a prompt to the model's
// request arriving, against the same session with a plugin whose hook
// does nothing (the floor). Medians, the first prompt (which loads
// everything) apart.
//
//   node tests/opencode/bench-session.mjs [prompts, default 30]
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMock } from "./mock-openai.mjs";
import { configure, REPO, serve } from "./session.mjs";

const prompts = Number(process.argv[2] ?? 30);
const scratch = mkdtempSync(join(tmpdir(), "rule-fairy-opencode-bench-"));

const empty = join(scratch, "empty-plugin.js");
writeFileSync(empty, 'export const Empty = async () => ({ "chat.message": async () => {} });\n');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One session of all the prompts with `plugin`: each prompt's time to
 * the model's request, and the plugin's debug lines. */
async function session(plugin, name) {
  const project = join(scratch, name);
  cpSync(join(REPO, "examples/webshop"), project, {
    recursive: true,
    filter: (path) => !path.includes(`${join("webshop", ".rule-fairy")}`),
  });
  execFileSync("git", ["init", "-q"], { cwd: project });
  const mock = await startMock();
  configure(project, mock.port, plugin);
  const oc = await serve(project, join(scratch, `home-${name}`), {}, [
    "--print-logs",
    "--log-level",
    "DEBUG",
  ]);
  const waits = [];
  try {
    const id = await oc.newSession();
    for (let i = 0; i < prompts; i += 1) {
      const seen = mock.requests.length;
      const sent = performance.now();
      const answered = oc.prompt(id, `Step ${i}: tidy the orders module.`);
      while (!mock.requests.slice(seen).some((r) => (r.body.tools ?? []).length > 0)) {
        await new Promise((done) => setTimeout(done, 1));
      }
      waits.push(performance.now() - sent);
      await answered;
    }
  } finally {
    await oc.close();
    await mock.close();
  }
  return { waits, log: oc.output() };
}

const ours = await session(join(REPO, "opencode/plugin.ts"), "ours");
const floor = await session(empty, "empty");
rmSync(scratch, { recursive: true, force: true });
// Each delivery's parts, with BENCH_VERBOSE set.
if (process.env.BENCH_VERBOSE) {
  for (const line of ours.log.matchAll(/rule-fairy: prompt delivery took[^"]*/g))
    console.log(line[0]);
}

const figures = (pattern) => [...ours.log.matchAll(pattern)].map((m) => Number(m[1]));
const hook = figures(/chat\.message hook took ([\d.]+) ms/g);
const engine = figures(/prompt delivery took [\d.]+ ms \(.*engine ([\d.]+)\)/g);
const delivery = figures(/prompt delivery took ([\d.]+) ms/g);
const rest = (values) => values.slice(1);
console.log(`opencode, examples/webshop, ${prompts} prompts in one session (first apart)`);
console.log(
  `  chat.message hook, as the plugin times it: first ${hook[0]?.toFixed(2)} ms, median ${median(rest(hook)).toFixed(2)} ms`,
);
console.log(
  `  the delivery in it: median ${median(rest(delivery)).toFixed(2)} ms; the engine's decision: median ${median(rest(engine)).toFixed(3)} ms`,
);
const oursWait = median(rest(ours.waits));
const floorWait = median(rest(floor.waits));
console.log(
  `  prompt sent to model request: median ${oursWait.toFixed(2)} ms; with an empty plugin ${floorWait.toFixed(2)} ms; ratio ${(oursWait / floorWait).toFixed(2)}`,
);
