// A whole prompt.submit delivery through the mod in a real Claude Code
// session: one `claude -p` process reading many prompts (stream-json
// input), on the generated 200-rule project with imports, the model played
// by the mock Messages API. Each delivery logs its own time to the debug
// log (mod/deliver.ts): revalidating the rule files, reading the
// conversation and the state, the engine's decision, saving. Prints
// medians, first delivery (which loads everything) apart.
//
//   node tests/claude/bench-session.mjs [prompts, default 40] [rule directories, default 10]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { generateProject } from "../../wasm/benches/project.mjs";
import { startMock } from "./mock-messages.mjs";
import { claude } from "./session.mjs";

const prompts = Number(process.argv[2] ?? 40);
const groups = Number(process.argv[3] ?? 10);
const home = mkdtempSync(join(tmpdir(), "rule-fairy-bench-"));
const project = join(home, "project");
for (const [path, text] of Object.entries(generateProject(200, groups))) {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), text);
}
execFileSync("git", ["init", "-q"], { cwd: project });
mkdirSync(join(home, "config"));

const mock = await startMock([]);
// Each prompt names a new keyword rule, so each delivery renders one.
const texts = Array.from({ length: prompts }, (_, i) => `Work on topic${10 + i} please.`);
const debugFile = join(home, "debug.log");
const result = await claude({
  args: ["--input-format", "stream-json"],
  cwd: project,
  config: join(home, "config"),
  mockUrl: mock.url,
  debugFile,
  prompts: texts,
  timeoutMs: 600_000,
});
await mock.close();
if (result.code !== 0) throw new Error(`claude exited ${result.code}: ${result.stderr}`);

const lines = readFileSync(debugFile, "utf8").split("\n");
const times = lines.flatMap((line) => {
  const match =
    /rule-fairy: prompt delivery took ([\d.]+) ms \([^)]*\)(?:; engine compiled and instantiated in ([\d.]+) ms)?/.exec(
      line,
    );
  return match === null
    ? []
    : [{ total: Number(match[1]), load: match[2] === undefined ? 0 : Number(match[2]) }];
});
const settled = lines.flatMap((line) => {
  const match = /hooks module rule-fairy@inline prompt\.submit settled in ([\d.]+)ms/.exec(line);
  return match === null ? [] : [Number(match[1])];
});
const delivered = mock.requests.filter((request) =>
  /\[rule-fairy injected: (group\d+\/)?rule-/.test(JSON.stringify(request.messages)),
).length;
if (process.env.RULE_FAIRY_KEEP_BENCH === undefined) rmSync(home, { recursive: true, force: true });
else console.log(`kept ${home}`);
if (times.length !== prompts)
  throw new Error(`expected ${prompts} deliveries in the debug log, found ${times.length}`);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const [first, ...rest] = times;
console.log(`200 rules in ${groups === 1 ? "one directory" : `${groups} directories`}`);
console.log(
  `first prompt.submit delivery (loads 200 rules and 20 documents): ${first.total.toFixed(2)} ms, of which compiling and instantiating the engine ${first.load.toFixed(2)} ms`,
);
console.log(
  `prompt.submit delivery through the mod, revalidation included: median ${median(rest.map((t) => t.total)).toFixed(2)} ms over ${rest.length} prompts`,
);
console.log(
  `the hook as Claude Code timed it (worker hop and next() included): median ${median(settled.slice(1)).toFixed(2)} ms`,
);
console.log(`requests carrying a rule: ${delivered} of ${mock.requests.length}`);
