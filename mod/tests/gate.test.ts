import { expect, test } from "claude-code/testing";
import { injected, ROOT, type RunResult, world, type World } from "./world";

const NO_EVAL =
  "id: no-eval\nlanguage: TypeScript\nseverity: error\nmessage: Do not call eval.\nrule:\n  pattern: eval($X)\n";
const FINDING = JSON.stringify({
  ruleId: "no-eval",
  severity: "error",
  file: "src/a.ts",
  line: 2,
  column: 1,
  endLine: 2,
  endColumn: 12,
  message: "Do not call eval.",
  note: "Incident 12: eval ran user input.\nParse it instead.",
});
const CONTRACT =
  "These are the repository's own ast-grep rules. Fix each finding before moving on; `rule-fairy gate scan` holds the whole tree to the same rules.";
const UNCHECKED =
  "The write went ahead unchecked; `rule-fairy gate scan` will fail until this is fixed.";
const MISSING =
  "rule-fairy: the rule-fairy program was not found (not on PATH, in npm's global or the project's node_modules, in ~/.cargo/bin or in /plugin/target/release). Install it: npm install -g rule-fairy (or, with a Rust toolchain: cargo install --locked --git https://github.com/rule-fairy/rule-fairy rule-fairy)\n";

const edit = (file = `${ROOT}/src/a.ts`) =>
  ({ tool: "Edit", file_path: file, old_string: "a", new_string: "eval(a)" }) as const;

const run = (exitCode: number, stdout: string, stderr = ""): RunResult => ({
  exitCode,
  stdout,
  stderr,
  isStdoutTruncated: false,
  isStderrTruncated: false,
});

/** Answers the gate check the way `hooks/run gate check` would. */
function gateAnswers(w: World, answer: (argv: string[]) => RunResult): void {
  w.answerRun = (argv) => (argv[0]?.endsWith("/hooks/run") ? answer(argv) : undefined);
}

const checks = (w: World) => w.runs.filter((argv) => argv[0]?.endsWith("/hooks/run"));

// The first test of the file also compiles the engine: room for a loaded
// machine.
test(
  "a finding after an Edit comes back in the gate's own words, after the edit's rules",
  {
    timeoutMs: 20_000,
  },
  async ($, on) => {
    const w = world(on, {
      ".kairoku/rules/no-eval.yml": NO_EVAL,
      ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\n# TypeScript rule",
    });
    gateAnswers(w, () => run(1, `${FINDING}\n`));
    const result = await $.tool.call(edit());
    expect(result.result).toBe("done");
    expect(injected(result.context)).toEqual(["ts.mdc"]);
    expect(result.context).toHaveLength(2);
    expect(result.context?.[1]).toBe(
      `[rule-fairy gate: 1 finding in the files just written]\nerror[no-eval] src/a.ts:2: Do not call eval.\n  Incident 12: eval ran user input.\n  Parse it instead.\n\n${CONTRACT}`,
    );
    const [argv] = checks(w);
    expect(argv?.slice(1)).toEqual([
      "gate",
      "check",
      `${ROOT}/src/a.ts`,
      "--json",
      "--project",
      ROOT,
    ]);
    expect(argv?.[0]).toMatch(/^\/.+\/hooks\/run$/);
    // Findings come with every write that has them; nothing is recorded.
    const again = await $.tool.call(edit());
    expect(again.context).toHaveLength(1);
    expect(again.context?.[0]).toStartWith("[rule-fairy gate: 1 finding");
    expect(w.state()?.gate_problem).toBeUndefined();
  },
);

test("a relative path is checked where it is, and a warning is shown too", async ($, on) => {
  const w = world(on, { "sgconfig.yml": "ruleDirs: [rules]\n", "rules/no-eval.yml": NO_EVAL });
  const warning = FINDING.replace('"error"', '"warning"').replace(/"note":"[^"]*"/, '"note":null');
  gateAnswers(w, () => run(0, `${warning}\n${warning.replace('"line":2', '"line":5')}\n`));
  const result = await $.tool.call({ tool: "Write", file_path: "src/a.ts", content: "x" });
  expect(result.context).toEqual([
    `[rule-fairy gate: 2 findings in the files just written]\nwarning[no-eval] src/a.ts:2: Do not call eval.\nwarning[no-eval] src/a.ts:5: Do not call eval.\n\n${CONTRACT}`,
  ]);
  expect(checks(w)[0]?.[3]).toBe(`${ROOT}/src/a.ts`);
});

test("a clean write, and a project without gate rules, say nothing", async ($, on) => {
  const w = world(on, { "src/a.ts": "x" });
  gateAnswers(w, () => run(0, ""));
  expect((await $.tool.call(edit())).context).toBeUndefined();
  expect(checks(w)).toEqual([]);
  // `:gate` in the configuration is enough to look.
  w.write("rule-fairy.edn", '{:gate {:dirs ["lint"]}}');
  expect((await $.tool.call(edit())).context).toBeUndefined();
  expect(checks(w)).toHaveLength(1);
});

test("an errored or denied edit runs no check; a subagent's edit is checked as the main thread's", async ($, on) => {
  const w = world(on, { ".kairoku/rules/no-eval.yml": NO_EVAL });
  gateAnswers(w, () => run(1, `${FINDING}\n`));
  w.answerTool = (e) =>
    e.tool === "Edit"
      ? { deny: "not allowed" }
      : { isError: true, result: "File has not been read yet" };
  expect((await $.tool.call(edit())).context).toBeUndefined();
  expect(
    (await $.tool.call({ tool: "Write", file_path: `${ROOT}/src/a.ts`, content: "x" })).context,
  ).toBeUndefined();
  expect(checks(w)).toEqual([]);
  w.answerTool = () => ({ result: "done" });
  w.agentMessages.set("agent-1", []);
  const sub = await $.tool.call({ ...edit(), agentId: "agent-1" } as never);
  expect(checks(w).length).toBe(1);
  expect((sub.context ?? []).join("\n")).toContain("no-eval");
});

test("a missing program is told once per session and never blocks the write", async ($, on) => {
  const w = world(on, { ".kairoku/rules/no-eval.yml": NO_EVAL });
  gateAnswers(w, () => run(127, "", MISSING));
  const first = await $.tool.call(edit());
  expect(first.result).toBe("done");
  expect(first.deny).toBeUndefined();
  const problem = MISSING.trim().replace(/^rule-fairy: /, "");
  expect(first.context).toEqual([
    `[rule-fairy gate: the check of written files could not run: ${problem}]\n${UNCHECKED}`,
  ]);
  expect(first.context?.[0]).toContain("npm install -g rule-fairy");
  expect(w.logs).toEqual([`rule-fairy: the gate could not check the written files: ${problem}`]);
  expect(w.state()?.gate_problem).toBe(problem);

  const second = await $.tool.call(edit());
  expect(second.result).toBe("done");
  expect(second.context).toBeUndefined();
  expect(w.logs).toHaveLength(1);
  expect(checks(w)).toHaveLength(2);

  // Another session is told again.
  w.sessionId = "d4d4d4d4-0000-4000-8000-000000000001";
  expect((await $.tool.call(edit())).context?.[0]).toStartWith(
    "[rule-fairy gate: the check of written files could not run: the rule-fairy program was not found",
  );
});

test("a gate that cannot load is told once, and again when the problem changes", async ($, on) => {
  const w = world(on, {
    ".kairoku/rules/no-eval.yml": NO_EVAL,
    ".cursor/rules/ts.mdc": "---\nglobs: src/**\n---\n# TypeScript rule",
  });
  let problem = ".kairoku/rules/broken.yml:3: did not find expected node content";
  gateAnswers(w, () =>
    run(
      2,
      "",
      `rule-fairy gate: ${problem}\nrule-fairy gate: nothing was judged clean; fix this and run again\n`,
    ),
  );
  const first = await $.tool.call(edit());
  expect(injected(first.context)).toEqual(["ts.mdc"]);
  expect(first.context?.[1]).toBe(
    `[rule-fairy gate: the check of written files could not run: ${problem}]\n${UNCHECKED}`,
  );
  await w.clock.advance(61_000);
  const second = await $.tool.call(edit());
  expect(injected(second.context)).toEqual(["ts.mdc"]);
  expect(second.context).toHaveLength(1);
  problem = ".kairoku/rules/other.yml:1: unknown language Klingon";
  const third = await $.tool.call(edit());
  expect(third.context).toEqual([
    `[rule-fairy gate: the check of written files could not run: ${problem}]\n${UNCHECKED}`,
  ]);
  // Each delivery's own line, and each gate problem once on its own line.
  expect(w.logs).toEqual([
    "Rule Fairy: ts.mdc (glob src/**)",
    "rule-fairy: the gate could not check the written files: .kairoku/rules/broken.yml:3: did not find expected node content",
    "Rule Fairy: ts.mdc (glob src/**)",
    `rule-fairy: the gate could not check the written files: ${problem}`,
  ]);
});

test("a check the host refuses to start is told like one that could not run", async ($, on) => {
  const w = world(on, { ".kairoku/rules/no-eval.yml": NO_EVAL });
  w.refuse.set("process.run", "no programs here");
  const result = await $.tool.call(edit());
  expect(result.result).toBe("done");
  expect(result.context).toHaveLength(1);
  expect(result.context?.[0]).toMatch(
    /^\[rule-fairy gate: the check of written files could not run: .*no programs here/,
  );
  expect((await $.tool.call(edit())).context).toBeUndefined();
});

test("a program of another version than the plugin is told once per session, in the transcript", async ($, on) => {
  const w = world(on, { ".kairoku/rules/no-eval.yml": NO_EVAL });
  // The mod names its version to the check; this program answers with another.
  gateAnswers(w, () =>
    run(1, `{"programVersion":"0.0.1","programPath":"/old/bin/rule-fairy"}\n${FINDING}\n`),
  );
  const first = await $.tool.call(edit());
  const plugin = w.runEnvs.at(-1)?.RULE_FAIRY_PLUGIN_VERSION ?? "";
  expect(plugin).toMatch(/^\d+\.\d+\.\d+/);
  // The model gets the finding, not the versions.
  expect(first.context).toHaveLength(1);
  expect(first.context?.[0]).toStartWith("[rule-fairy gate: 1 finding");
  const told = `rule-fairy: the plugin is ${plugin} but the rule-fairy program at /old/bin/rule-fairy is 0.0.1; bring the program to the plugin's version: npm install -g rule-fairy@${plugin} (or with cargo: cargo install --locked --force --git https://github.com/rule-fairy/rule-fairy rule-fairy)`;
  expect(w.logs).toEqual([told]);
  expect(w.state()?.version_problem).toBe(told.replace(/^rule-fairy: /, ""));
  const journal = w.state()?.journal as { problems: { text: string }[] };
  expect(journal.problems.map((p) => p.text)).toEqual([told]);
  // Once per session.
  const second = await $.tool.call(edit());
  expect(second.context?.[0]).toStartWith("[rule-fairy gate: 1 finding");
  expect(w.logs).toHaveLength(1);
  // A newer program: the plugin may be updated too.
  w.sessionId = "d4d4d4d4-0000-4000-8000-000000000002";
  gateAnswers(w, () => run(0, `{"programVersion":"999.0.0"}\n`));
  expect((await $.tool.call(edit())).context).toBeUndefined();
  expect(w.logs[1]).toEndWith(
    "; or update the plugin: claude plugin marketplace update rule-fairy, then claude plugin update rule-fairy@rule-fairy",
  );
});

test("a program of the plugin's version, or one too old to say its version, tells nothing", async ($, on) => {
  const w = world(on, { ".kairoku/rules/no-eval.yml": NO_EVAL });
  gateAnswers(w, () => {
    const plugin = w.runEnvs.at(-1)?.RULE_FAIRY_PLUGIN_VERSION ?? "";
    return run(0, `${JSON.stringify({ programVersion: plugin })}\n`);
  });
  expect((await $.tool.call(edit())).context).toBeUndefined();
  gateAnswers(w, () => run(0, ""));
  expect((await $.tool.call(edit())).context).toBeUndefined();
  expect(w.logs).toEqual([]);
  expect(w.state()?.version_problem).toBeUndefined();
});
