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
// The rule files reach the engine as the mod hands them over: the engine
// asks what to list, stat and read, round after round (mod/snapshot.ts),
// answered here from memory; the documents are put as the mod puts them.
const bytesOf = new Map();
const listings = new Map();
for (const [path, text] of Object.entries(files)) {
  if (path.startsWith("docs/")) continue;
  const parts = path.split("/");
  bytesOf.set(`${root}/${path}`, encoder.encode(text));
  for (let depth = 0; depth < parts.length; depth += 1) {
    const dir = [root, ...parts.slice(0, depth)].join("/");
    const entries = listings.get(dir) ?? new Map();
    const last = depth === parts.length - 1;
    const size = last ? bytesOf.get(`${root}/${path}`).length : 0;
    entries.set(parts[depth], {
      name: parts[depth],
      kind: last ? "file" : "dir",
      size,
      mtimeMs: 1,
    });
    listings.set(dir, entries);
  }
}
const refresh = () => {
  let asks = workspace.startRefresh();
  while (asks.list.length + asks.stat.length + asks.read.length + (asks.git?.length ?? 0) > 0) {
    for (const dir of asks.list) {
      const entries = listings.get(dir);
      if (entries === undefined) workspace.failed("list", dir, "ENOENT: no such directory");
      else workspace.listed(dir, [...entries.values()]);
    }
    for (const path of asks.stat) {
      const found = bytesOf.get(path);
      if (found !== undefined) {
        workspace.stated(path, { kind: "file", size: found.length, mtimeMs: 1, realPath: path });
      } else if (listings.has(path)) {
        workspace.stated(path, { kind: "dir", size: 0, mtimeMs: 1, realPath: path });
      } else workspace.failed("stat", path, "ENOENT: no such file");
    }
    for (const path of asks.read) {
      const found = bytesOf.get(path);
      if (found === undefined) workspace.failed("read", path, "ENOENT: no such file");
      else workspace.readBytes(path, found);
    }
    if ((asks.git?.length ?? 0) > 0) throw new Error("no checkout was marked: git is not asked");
    asks = workspace.nextAsks();
  }
};
for (const [path, text] of Object.entries(files)) {
  if (path.startsWith("docs/")) workspace.putDocument(`${root}/${path}`, encoder.encode(text));
}
const load = time(() => {
  refresh();
  workspace.importedDocuments();
});

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
