// `rule-fairy doctor` against the real Codex: the plugin installed into a
// fresh Codex home the way the README says (marketplace, plugin add,
// `rule-fairy codex trust`); doctor finds its hooks trusted. Then one file
// of the installed plugin changes without a new trust: Codex counts every
// hook as modified, and doctor says so, exits 1 and names the fix. No
// model is called, so no mock is needed.
//
// Usage: node tests/codex/doctor.mjs <directory holding the rule-fairy binary>

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { copyRepository } from "./copy-repository.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const codexBin = path.join(here, "node_modules/.bin/codex");
const binDir = path.resolve(process.argv[2] ?? path.join(repo, "target/debug"));
const ruleFairy = path.join(binDir, "rule-fairy");

let failures = 0;
function check(condition, what) {
  console.log(`  ${condition ? "ok" : "FAILED"}: ${what}`);
  if (!condition) failures += 1;
}

function run(command, args, options) {
  return execFileSync(command, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
}

/** Every file below `paths` (or the file itself) with its bytes, as one string. */
function snapshot(paths) {
  const out = [];
  const visit = (p) => {
    const stat = fs.lstatSync(p);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p).sort()) visit(path.join(p, name));
    else out.push(`${p} ${stat.mode} ${stat.mtimeMs} ${fs.readFileSync(p, "base64")}`);
  };
  for (const p of paths) visit(p);
  return out.join("\n");
}

/** `rule-fairy doctor --json`: the report, its exit status and the trust check. */
function doctor(env, project) {
  const out = spawnSync(ruleFairy, ["doctor", "--json"], { cwd: project, env, encoding: "utf8" });
  const report = JSON.parse(out.stdout);
  const codex = report.sections.find((s) => s.id === "codex");
  const find = (id) => codex.checks.find((c) => c.id === id) ?? {};
  return { code: out.status, report, plugin: find("plugin"), trust: find("trust") };
}

function main() {
  if (!fs.existsSync(codexBin))
    throw new Error(`${codexBin} is missing: run npm ci in tests/codex`);
  if (!fs.existsSync(ruleFairy)) throw new Error(`no rule-fairy binary in ${binDir}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rule-fairy-codex-doctor-"));
  try {
    const market = path.join(work, "rule-fairy");
    const home = path.join(work, "codex-home");
    const project = path.join(work, "project");
    fs.mkdirSync(home);
    fs.mkdirSync(path.join(work, "claude-config"));
    fs.mkdirSync(path.join(project, ".cursor/rules"), { recursive: true });
    fs.writeFileSync(
      path.join(project, ".cursor/rules/base.mdc"),
      "---\nalwaysApply: true\n---\n# Base\n\nKeep it small.\n",
    );
    run("git", ["init", "-q"], { cwd: project });
    copyRepository(market);
    const env = {
      ...process.env,
      CODEX_HOME: home,
      CLAUDE_CONFIG_DIR: path.join(work, "claude-config"),
      PATH: `${binDir}:${path.dirname(codexBin)}:${process.env.PATH}`,
    };
    delete env.RULE_FAIRY_PROJECT_DIR;

    console.log("install and trust, as the README says");
    run(codexBin, ["plugin", "marketplace", "add", market], { env, cwd: project });
    run(codexBin, ["plugin", "add", "rule-fairy@rule-fairy"], { env, cwd: project });
    run(ruleFairy, ["codex", "trust"], { env, cwd: project });
    const trusted = doctor(env, project);
    check(trusted.plugin.status === "ok", `the plugin is installed: ${trusted.plugin.detail}`);
    check(trusted.trust.status === "ok", `the hooks are trusted: ${trusted.trust.detail}`);
    check(trusted.trust.hooks?.length === 4, "all four hooks are listed");
    check(trusted.code === 0, `doctor exits 0 (${trusted.code})`);

    // Codex's app-server keeps its own logs and databases in the home;
    // doctor changes neither the configuration, nor the plugin, nor the
    // project.
    const before = snapshot([path.join(home, "config.toml"), trusted.plugin.root, project]);
    doctor(env, project);
    check(
      snapshot([path.join(home, "config.toml"), trusted.plugin.root, project]) === before,
      "doctor changed no configuration, plugin or project file",
    );

    console.log("a file of the installed plugin changes, with no new trust");
    const installed = trusted.plugin.root;
    fs.appendFileSync(
      path.join(installed, "skills/review/SKILL.md"),
      "\nChanged after the trust.\n",
    );
    const changed = doctor(env, project);
    check(
      changed.trust.status === "broken",
      `the hooks are not trusted now: ${changed.trust.detail}`,
    );
    check(/4 changed since they were trusted/.test(changed.trust.detail ?? ""), "all four changed");
    check(changed.trust.fix === "rule-fairy codex trust", `the fix: ${changed.trust.fix}`);
    check(changed.code === 1, `doctor exits 1 (${changed.code})`);

    console.log("trusted again");
    run(ruleFairy, ["codex", "trust"], { env, cwd: project });
    const again = doctor(env, project);
    check(again.trust.status === "ok" && again.code === 0, `in order again: ${again.trust.detail}`);
  } finally {
    if (process.env.RULE_FAIRY_KEEP_E2E === undefined)
      fs.rmSync(work, { recursive: true, force: true });
    else console.log(`kept ${work}`);
  }
  if (failures > 0) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log("doctor against the real Codex: all checks passed");
}

main();
