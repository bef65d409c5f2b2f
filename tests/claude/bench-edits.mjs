// A whole edit delivery through the mod in a real Claude Code session: one
// `claude -p` whose model (the mock Messages API) writes many files three
// directories deep in the generated 200-rule project, half of them below a
// nested AGENTS.md. Each delivery logs its own time to the debug log
// (mod/deliver.ts), the documents' part (imports and instruction files
// made sure of) apart. Prints medians, the first edit (which loads
// everything) left out.
//
//   node tests/claude/bench-edits.mjs [writes, default 40]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { generateProject } from "../../wasm/benches/project.mjs";
import { startMock } from "./mock-messages.mjs";
import { claude } from "./session.mjs";

const writes = Number(process.argv[2] ?? 40);
const home = mkdtempSync(join(tmpdir(), "rule-fairy-bench-"));
const project = join(home, "project");
const files = {
  ...generateProject(200, 10),
  "services/billing/AGENTS.md": "Billing: amounts are integers of cents.",
};
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), text);
}
execFileSync("git", ["init", "-q"], { cwd: project });
mkdirSync(join(home, "config"));

const dir = (i) => (i % 2 === 0 ? "services/billing/src" : "services/shipping/src");
const turns = Array.from({ length: writes }, (_, i) => ({
  tool: "Write",
  input: { file_path: join(project, dir(i), `f${i}.ts`), content: `export const f${i} = ${i}\n` },
}));
const mock = await startMock([{ prompt: "write them", turns: [...turns, { text: "Written." }] }]);
const debugFile = join(home, "debug.log");
const result = await claude({
  args: ["write them", "--permission-mode", "acceptEdits"],
  cwd: project,
  config: join(home, "config"),
  mockUrl: mock.url,
  debugFile,
  timeoutMs: 600_000,
});
await mock.close();
if (result.code !== 0) throw new Error(`claude exited ${result.code}: ${result.stderr}`);

const lines = readFileSync(debugFile, "utf8").split("\n");
const times = lines.flatMap((line) => {
  const match = /rule-fairy: edit delivery took ([\d.]+) ms \(.*documents ([\d.]+),/.exec(line);
  return match === null ? [] : [{ total: Number(match[1]), documents: Number(match[2]) }];
});
if (process.env.RULE_FAIRY_KEEP_BENCH === undefined) rmSync(home, { recursive: true, force: true });
if (times.length !== writes)
  throw new Error(`expected ${writes} edit deliveries in the debug log, found ${times.length}`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rest = times.slice(1);
console.log(
  `edit delivery through the mod: median ${median(rest.map((t) => t.total)).toFixed(2)} ms, of which documents ${median(rest.map((t) => t.documents)).toFixed(2)} ms, over ${rest.length} writes`,
);
