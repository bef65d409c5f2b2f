import { expect, test } from "claude-code/testing";
import { injected, world } from "./world";

const RULES = {
  ".cursor/rules/widget.mdc": "---\nglobs: src/**\n---\n# Widget rule\n\nWidgets.",
  ".cursor/rules/docs.mdc": "---\nglobs: docs/**\n---\n# Docs rule",
};

const prompt = { text: "go", wait: false, origin: { kind: "composer" } } as const;

test("a file a shell command wrote brings its rules, with the contract", async ($, on) => {
  const w = world(on, RULES);
  await $.prompt.submit(prompt);
  await w.clock.advance(2_000);
  w.write("src/a.clj", "(ns a)");
  w.status = ["?? src/a.clj"];
  const first = await $.tool.call({ tool: "Bash", command: "printf x > src/a.clj" });
  const text = (first.context ?? []).join("\n");
  expect(injected(first.context)).toEqual(["widget.mdc"]);
  expect(text).toContain("[rule-fairy matched: glob on src/a.clj, changed by a shell command]");
  expect(text).toContain("Apply these rules on the next pass over this change.");
  expect(w.state()).toMatchObject({ shell: { pending: [] } });

  // The next command changes nothing new: nothing comes.
  await w.clock.advance(2_000);
  const second = await $.tool.call({ tool: "Bash", command: "ls" });
  expect(second.context).toBeUndefined();

  // A failing command that wrote files: only the new rule, only its path.
  await w.clock.advance(2_000);
  w.write("src/c.clj", "x");
  w.write("docs/x.md", "x");
  w.status = ["?? src/a.clj", "?? src/c.clj", "?? docs/x.md"];
  w.answerTool = () => ({ isError: true, result: "exit 1", text: "exit 1" });
  const third = await $.tool.call({ tool: "Bash", command: "make; exit 1" });
  expect(injected(third.context)).toEqual(["docs.mdc"]);
  expect((third.context ?? []).join("\n")).toContain(
    "glob on docs/x.md, changed by a shell command",
  );
});

test("a file moved keeps its modification time; its change time counts", async ($, on) => {
  const w = world(on, RULES);
  w.write("src/moved.clj", "x");
  const file = w.files.get("/srv/ada/shop/src/moved.clj");
  await w.clock.advance(5_000);
  await $.prompt.submit(prompt);
  await w.clock.advance(5_000);
  if (file !== undefined) file.ctimeMs = w.clock.now();
  w.status = ["?? src/moved.clj"];
  const result = await $.tool.call({ tool: "Bash", command: "mv /elsewhere/moved.clj src/" });
  expect(injected(result.context)).toEqual(["widget.mdc"]);
});

test("files changed before the check started, deleted files and renames", async ($, on) => {
  const w = world(on, RULES);
  w.write("src/before.clj", "x");
  await w.clock.advance(5_000);
  await $.prompt.submit(prompt);
  await w.clock.advance(5_000);
  w.write("docs/renamed.md", "x");
  w.status = [" M src/before.clj", " D src/gone.clj", "R  docs/renamed.md", "docs/old.md"];
  const result = await $.tool.call({ tool: "Bash", command: "git mv docs/old.md docs/renamed.md" });
  expect(injected(result.context)).toEqual(["docs.mdc"]);
  expect((result.context ?? []).join("\n")).toContain("glob on docs/renamed.md, changed by");
  const stat = w.runs.find((argv) => argv[0] === "stat" && argv[1] === "--printf");
  expect(stat?.slice(3)).toEqual(["--", "src/before.clj", "docs/renamed.md"]);
});

test("a file no rule could select is never timed", async ($, on) => {
  const w = world(on, RULES);
  await $.prompt.submit(prompt);
  await w.clock.advance(2_000);
  w.write("src/a.clj", "x");
  w.write("build/out.js", "x");
  w.status = ["?? build/out.js", "?? src/a.clj"];
  const result = await $.tool.call({ tool: "Bash", command: "make" });
  expect(injected(result.context)).toEqual(["widget.mdc"]);
  const stat = w.runs.find((argv) => argv[0] === "stat" && argv[1] === "--printf");
  expect(stat?.slice(3)).toEqual(["--", "src/a.clj"]);
});

test("without a prompt the first command only starts the check", async ($, on) => {
  const w = world(on, RULES);
  w.write("src/a.clj", "x");
  w.status = ["?? src/a.clj"];
  const result = await $.tool.call({ tool: "Bash", command: "ls" });
  expect(result.context).toBeUndefined();
  expect(w.runs.filter((argv) => argv[0] === "git")).toEqual([]);
  expect(w.state()).toMatchObject({ shell: { checked_at_ms: w.clock.now() } });
});

test("the shell hook switched off runs no git and starts no check", async ($, on) => {
  const w = world(on, { ...RULES, "rule-fairy.edn": "{:shell-hook {:claude false}}" });
  await $.prompt.submit(prompt);
  await w.clock.advance(2_000);
  w.write("src/a.clj", "x");
  w.status = ["?? src/a.clj"];
  const result = await $.tool.call({ tool: "Bash", command: "printf x > src/a.clj" });
  expect(result.context).toBeUndefined();
  expect(w.runs.filter((argv) => argv[0] === "git")).toEqual([]);
  expect(w.state()).toBeUndefined();
});

test("a broken import keeps the path pending until the document exists", async ($, on) => {
  const w = world(on, { ".cursor/rules/lib.mdc": "---\nglobs: lib/**\n---\n# Lib\n\n@doc/lib.md" });
  await $.prompt.submit(prompt);
  await w.clock.advance(2_000);
  w.write("lib/x.clj", "x");
  w.status = ["?? lib/x.clj"];
  const failed = await $.tool.call({ tool: "Bash", command: "printf x > lib/x.clj" });
  expect(failed.result).toBe("done");
  expect(failed.context).toEqual([
    expect.stringMatching(
      /^\[rule-fairy error: shell delivery failed\]\n.*Rule import does not exist: doc\/lib\.md\nNo matched rules were injected or marked as injected\.$/,
    ),
  ]);
  expect(w.logs.some((line) => line.includes("shell delivery failed"))).toBe(true);
  expect(w.state()).toMatchObject({ shell: { pending: ["lib/x.clj"] } });

  await w.clock.advance(2_000);
  w.write("doc/lib.md", "# Lib docs");
  const fixed = await $.tool.call({ tool: "Bash", command: "true" });
  expect(injected(fixed.context)).toEqual(["lib.mdc"]);
  expect((fixed.context ?? []).join("\n")).toContain(
    "glob on lib/x.clj, changed by a shell command",
  );
  expect(w.state()).toMatchObject({ shell: { pending: [] } });
});

test("git failing is an error entry, and the check covers the same window next time", async ($, on) => {
  const w = world(on, RULES);
  await $.prompt.submit(prompt);
  const marker = w.clock.now();
  await w.clock.advance(2_000);
  w.answerRun = (argv) =>
    argv[1] === "status"
      ? {
          exitCode: 128,
          stdout: "",
          stderr: "fatal: index file corrupt",
          isStdoutTruncated: false,
          isStderrTruncated: false,
        }
      : undefined;
  const result = await $.tool.call({ tool: "Bash", command: "ls" });
  expect(result.result).toBe("done");
  expect(result.context?.[0]).toMatch(
    /^\[rule-fairy error: shell delivery threw\]\ngit status --porcelain=v1 -z --untracked-files=all failed \(exit 128\): fatal: index file corrupt\n/,
  );
  expect(w.state()).toMatchObject({ shell: { checked_at_ms: marker } });
});
