// Selection plus rendering inside the WebAssembly engine, as the Claude Code
// mod calls it: a 200-rule project with imports, in memory, and one
// `Workspace.decide` per event with nothing delivered yet (so every matched
// rule is rendered). Also the one-off costs: compiling and instantiating
// the module, loading the project. Prints medians.
//
//   node wasm/benches/decide.mjs [engine dir, default mod/engine]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generateProject } from "./project.mjs";

const dir = resolve(process.argv[2] ?? "mod/engine");
const glue = await import(pathToFileURL(join(dir, "rule_fairy_wasm.js")));
const bytes = readFileSync(join(dir, "rule_fairy_wasm_bg.wasm"));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const time = (work) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};

const instantiate = time(() => glue.initSync({ module: new WebAssembly.Module(bytes) }));
const root = "/bench/project";
const files = generateProject(200);
const encoder = new TextEncoder();
const workspace = new glue.Workspace(root, root);
for (const [path, text] of Object.entries(files)) {
  const put = path.startsWith("docs/") ? "putDocument" : "putFile";
  workspace[put](`${root}/${path}`, encoder.encode(text));
}
const load = time(() => workspace.importedDocuments());

let sequence = 0;
const decide = (request) => {
  sequence += 1;
  return workspace.decide({
    key: String(sequence),
    state: "",
    context: [],
    now: 1_800_000_000_000,
    ...request,
  });
};
const prompt = {
  kind: "prompt",
  prompt:
    "Please change topic17 and the feature42 handling in the area120 code, keeping the tests green.",
};
const edit = { kind: "edit", file: `${root}/src/module42/deep/path/widget.ts` };
const check = decide(prompt);
if (check.delivered.length !== 5)
  throw new Error(`expected 5 rules delivered, got ${check.delivered}`);
if (decide(edit).delivered.join() !== "group2/rule-42.mdc")
  throw new Error("the edit selects rule 42");

const runs = 300;
for (let i = 0; i < 50; i += 1) decide(prompt);
const prompts = Array.from({ length: runs }, () => time(() => decide(prompt)));
const edits = Array.from({ length: runs }, () => time(() => decide(edit)));
const size = check.entries.reduce((sum, entry) => sum + entry.length, 0);
console.log(`engine module: ${bytes.length} bytes`);
console.log(`compile + instantiate (once per module): ${instantiate.toFixed(2)} ms`);
console.log(`project load, 200 rules with imports (once per rule change): ${load.toFixed(2)} ms`);
console.log(
  `prompt decide, 5 rules selected and rendered (${size} characters): median ${median(prompts).toFixed(3)} ms over ${runs}`,
);
console.log(
  `edit decide, 1 rule selected and rendered: median ${median(edits).toFixed(3)} ms over ${runs}`,
);
