// A whole prompt.submit delivery through the mod in a real Claude Code
// session: one `claude -p` process reading many prompts (stream-json
// input), on the generated 200-rule project with imports, the model played
// by the mock Messages API. Each delivery logs its own time to the debug
// log (mod/deliver.ts): revalidating the rule files, reading the
// conversation and the state, the engine's decision, saving. Prints
// medians, first delivery (which loads everything) apart. The floor is a
// mod whose prompt.submit hook only calls next(e), timed by Claude Code
// the same way in the same kind of session; the hook's median is printed
// as a ratio to it.
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

// The floor: a mod with one hook that does nothing but go on.
const empty = join(home, "empty-hook");
mkdirSync(join(empty, ".claude-plugin"), { recursive: true });
mkdirSync(join(empty, "hooks"));
writeFileSync(
  join(empty, ".claude-plugin/plugin.json"),
  JSON.stringify({
    name: "empty-hook",
    version: "0.0.0",
    description: "floor",
    author: { name: "bench" },
  }),
);
writeFileSync(join(empty, "hooks/hooks.json"), JSON.stringify({ modules: ["./register.ts"] }));
writeFileSync(
  join(empty, "hooks/register.ts"),
  'import type { Register } from "claude-code";\nexport const register: Register = (on) => {\n  on("prompt.submit", (_$, e, next) => next(e));\n};\n',
);

// Each prompt names a new keyword rule, so each delivery renders one.
const texts = Array.from({ length: prompts }, (_, i) => `Work on topic${10 + i} please.`);

/** One session of all the prompts with the plugin at `pluginDir`: the
 * lines of its debug log. */
async function session(pluginDir, name) {
  const mock = await startMock([]);
  const config = join(home, `config-${name}`);
  mkdirSync(config);
  const debugFile = join(home, `debug-${name}.log`);
  const result = await claude({
    args: ["--input-format", "stream-json"],
    cwd: project,
    config,
    mockUrl: mock.url,
    debugFile,
    prompts: texts,
    pluginDir,
    timeoutMs: 600_000,
  });
  await mock.close();
  if (result.code !== 0) throw new Error(`claude exited ${result.code}: ${result.stderr}`);
  return { lines: readFileSync(debugFile, "utf8").split("\n"), requests: mock.requests };
}

/** The times Claude Code gave plugin `name`'s prompt.submit hook. */
function settledTimes(lines, name) {
  const pattern = new RegExp(`hooks module ${name}@inline prompt\\.submit settled in ([\\d.]+)ms`);
  return lines.flatMap((line) => {
    const match = pattern.exec(line);
    return match === null ? [] : [Number(match[1])];
  });
}

const { lines, requests } = await session(undefined, "rule-fairy");
const floor = settledTimes((await session(empty, "empty")).lines, "empty-hook");

const times = lines.flatMap((line) => {
  const match =
    /rule-fairy: prompt delivery took ([\d.]+) ms \([^)]*\)(?:; engine compiled and instantiated in ([\d.]+) ms)?/.exec(
      line,
    );
  return match === null
    ? []
    : [{ total: Number(match[1]), load: match[2] === undefined ? 0 : Number(match[2]) }];
});
const settled = settledTimes(lines, "rule-fairy");
const delivered = requests.filter((request) =>
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
const hook = median(settled.slice(1));
const floorMedian = median(floor.slice(1));
console.log(
  `the hook as Claude Code timed it (worker hop and next() included): median ${hook.toFixed(2)} ms`,
);
console.log(
  `an empty mod hook timed the same way (the floor): median ${floorMedian.toFixed(2)} ms; the hook is ${(hook / floorMedian).toFixed(2)}x the floor`,
);
console.log(`requests carrying a rule: ${delivered} of ${requests.length}`);
