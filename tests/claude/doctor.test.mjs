// `rule-fairy doctor` against the real Claude Code: this repository
// installed from the marketplace of a checkout into a fresh configuration
// (`claude plugin marketplace add`, `claude plugin install`), then
// disabled with `claude plugin disable`. Doctor reads the files those
// commands wrote: installed and enabled is in order; disabled is broken,
// with the command that enables it. The binary is RULE_FAIRY_BIN's
// (tests/claude/run sets it to the workspace build).
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { CLAUDE, REPO } from "./session.mjs";

const RULE_FAIRY = process.env.RULE_FAIRY_BIN ?? join(REPO, "target/debug/rule-fairy");
const ID = "rule-fairy@rule-fairy";

let work;
let project;
let env;

before(() => {
  work = mkdtempSync(join(tmpdir(), "rule-fairy-claude-doctor-"));
  // Claude Code copies a local plugin folder whole: install a checkout
  // holding only the repository's files.
  const checkout = join(work, "checkout");
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" })
    .split("\0")
    .filter((path) => path && existsSync(join(REPO, path)) && statSync(join(REPO, path)).isFile());
  for (const path of tracked) {
    mkdirSync(dirname(join(checkout, path)), { recursive: true });
    copyFileSync(join(REPO, path), join(checkout, path));
  }
  project = join(work, "project");
  mkdirSync(join(project, ".cursor/rules"), { recursive: true });
  writeFileSync(
    join(project, ".cursor/rules/base.mdc"),
    "---\nalwaysApply: true\n---\n# Base\n\nKeep it small.\n",
  );
  execFileSync("git", ["init", "-q"], { cwd: project });
  mkdirSync(join(work, "config"));
  mkdirSync(join(work, "codex-home"));
  env = {
    ...process.env,
    CLAUDE_CONFIG_DIR: join(work, "config"),
    CODEX_HOME: join(work, "codex-home"),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    // The claude doctor asks for its version.
    PATH: `${dirname(CLAUDE)}:${process.env.PATH}`,
  };
  delete env.RULE_FAIRY_PROJECT_DIR;
  const cli = (args) => execFileSync(CLAUDE, args, { env, cwd: project, encoding: "utf8" });
  assert.match(cli(["plugin", "marketplace", "add", checkout]), /rule-fairy/);
  assert.match(cli(["plugin", "install", ID]), /installed/i);
});

after(() => {
  if (process.env.RULE_FAIRY_KEEP_E2E === undefined) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
});

/** `rule-fairy doctor --json`: its exit status and Claude Code's checks by id. */
function doctor() {
  const out = spawnSync(RULE_FAIRY, ["doctor", "--json"], { cwd: project, env, encoding: "utf8" });
  assert.equal(out.stderr, "");
  const report = JSON.parse(out.stdout);
  const section = report.sections.find((s) => s.id === "claudeCode");
  return { code: out.status, checks: Object.fromEntries(section.checks.map((c) => [c.id, c])) };
}

test("installed by claude plugin install, the plugin is in order", () => {
  const { code, checks } = doctor();
  for (const id of ["plugin", "enabled", "pluginVersion", "version"]) {
    assert.equal(checks[id].status, "ok", `${id}: ${checks[id].detail}`);
  }
  assert.equal(checks.plugin.plugin, ID);
  assert.match(checks.version.version, /^2\.1\.\d+ \(Claude Code\)$/);
  assert.equal(code, 0);
});

test("after claude plugin disable, doctor says disabled and how to enable it", () => {
  execFileSync(CLAUDE, ["plugin", "disable", ID], { env, cwd: project, encoding: "utf8" });
  const { code, checks } = doctor();
  assert.equal(checks.plugin.status, "ok", "still installed");
  assert.equal(checks.enabled.status, "broken");
  assert.match(checks.enabled.detail, /disabled/);
  assert.equal(checks.enabled.fix, `claude plugin enable ${ID} --scope user`);
  assert.equal(code, 1);
  // The fix it names works.
  execFileSync(CLAUDE, ["plugin", "enable", ID, "--scope", "user"], { env, cwd: project });
  assert.equal(doctor().checks.enabled.status, "ok");
});
