// Loads the `--target web` build of the engine in Node and checks that one
// call gives the same answer as the native `explain --json`.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";

const dir = resolve(process.argv[2] ?? "target/wasm-web");
const glue = await import(pathToFileURL(join(dir, "rule_fairy_wasm.js")));
glue.initSync({ module: readFileSync(join(dir, "rule_fairy_wasm_bg.wasm")) });

const files = {
  ".cursor/rules/base.mdc": "---\nalwaysApply: true\n---\n# Base",
  ".cursor/rules/tasks/testing.mdc":
    "---\nglobs: **/test/**/*.clj\npromptAnyOf: deftest\n---\n# Testing",
};
const answer = JSON.parse(glue.explainPrompt(JSON.stringify(files), "fix the DEFTEST"));
assert.deepEqual(answer, {
  event: "prompt",
  rules: [
    { name: "base.mdc", reasons: [{ kind: "alwaysApply" }] },
    { name: "tasks/testing.mdc", reasons: [{ kind: "keyword", keywords: ["deftest"] }] },
  ],
});
assert.throws(
  () => glue.explainPrompt(JSON.stringify({ "rule-fairy.edn": "{:rule 1}" }), "x"),
  /Unknown keys in rule-fairy.edn: :rule/,
);
console.log("wasm engine: explainPrompt answers as the native engine does");
