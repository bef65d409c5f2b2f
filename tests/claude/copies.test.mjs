// The mod keeps copies of engine decisions only where it must work when the
// engine failed to load (mod/failure.ts). Each copy, compiled as the mod's
// TypeScript is, answers as the engine the mod loads (mod/engine) does, for
// the same inputs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { REPO } from "./session.mjs";

const engine = await import(pathToFileURL(join(REPO, "mod/engine/rule_fairy_wasm.js")).href);
engine.initSync({ module: readFileSync(join(REPO, "mod/engine/rule_fairy_wasm_bg.wasm")) });

/** A mod file with its types stripped, as an ES module (it may import only types). */
async function modFile(name) {
  const source = readFileSync(join(REPO, "mod", name), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputText).toString("base64")}`);
}

const DETAILS = [
  "",
  "   ",
  "Rule import does not exist: doc/lib.md\n",
  "  rule-fairy: $.fs.write: EROFS: read-only file system \n\n",
  "line one\nline two\r\n",
  "x".repeat(5_000),
  // Cut by characters: one of two UTF-16 units is never split.
  `${"a".repeat(999)}😀😀`,
  "é".repeat(1_200),
  // Edges Rust's trim takes and JavaScript's does not, and the reverse.
  "\u0085detail\u0085",
  "\ufeffdetail\ufeff",
  "\u3000\u00a0detail\u2028",
];

test("the failure entry and summary equal the engine's", async () => {
  const copy = await modFile("failure.ts");
  let compared = 0;
  for (const kind of ["prompt", "edit", "shell", "session start"]) {
    for (const how of ["failed", "threw", "timed out"]) {
      for (const detail of DETAILS) {
        const inputs = JSON.stringify([kind, how, detail]).slice(0, 80);
        assert.equal(
          copy.failureEntry(kind, how, detail),
          engine.deliveryFailed(kind, how, detail),
          inputs,
        );
        assert.equal(
          copy.failureSummary(kind, how, detail),
          engine.failureSummary(kind, how, detail),
          inputs,
        );
        compared += 1;
      }
    }
  }
  assert.equal(compared, 4 * 3 * DETAILS.length);
});
