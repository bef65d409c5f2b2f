// The npm packages as a user gets them: the tarballs scripts/package built
// installed with the real npm, offline (no registry, an empty cache), into
// a temporary prefix and a temporary project, with no cargo on PATH. Then
// the launcher, the Codex hooks through the plugin's hooks/run on the
// example project, and the Claude Code mod's gate check, each finding the
// npm-installed program; the opencode plugin's package installed with
// npm and self-sufficient, then (with the pinned opencode at hand) one
// opencode session that installs it by its name from a loopback registry;
// and the broken installs a user can end up with, each told with its fix.
//
// Usage: node tests/npm/install.mjs <folder holding scripts/package's tarballs>

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const dist = path.resolve(process.argv[2] ?? path.join(repo, "target/dist"));
const version = JSON.parse(
  fs.readFileSync(path.join(repo, "npm/rule-fairy/package.json"), "utf8"),
).version;
const platform = `${process.platform}-${process.arch}`;
const launcherTarball = path.join(dist, `rule-fairy-${version}.tgz`);
const platformTarball = path.join(dist, `rule-fairy-cli-${platform}-${version}.tgz`);
const opencodeTarball = path.join(dist, `rule-fairy-opencode-${version}.tgz`);

let failures = 0;
function check(condition, what, detail = "") {
  if (condition) {
    console.log(`  ok: ${what}`);
  } else {
    failures += 1;
    console.log(`  FAILED: ${what}${detail ? `\n${detail}` : ""}`);
  }
}

for (const tarball of [launcherTarball, platformTarball, opencodeTarball]) {
  if (!fs.existsSync(tarball)) {
    console.error(`${tarball} is missing: run scripts/package first`);
    process.exit(1);
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "rule-fairy-npm-"));
const home = path.join(work, "home");
fs.mkdirSync(home);

// A PATH with node and npm and the system's tools, and no cargo: npm and
// node linked into a folder of their own, so nothing else of theirs comes.
const tools = path.join(work, "tools");
fs.mkdirSync(tools);
for (const tool of ["node", "npm", "npx"]) {
  const found = execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
  fs.symlinkSync(fs.realpathSync(found), path.join(tools, tool));
}
// npm's own command is a script that finds its files beside node: call it
// through node with the real path, as its shim does.
const npmCli = path.join(path.dirname(fs.realpathSync(path.join(tools, "npm"))), "npm-cli.js");
const basePath = `${tools}:/usr/bin:/bin`;
if (spawnSync("sh", ["-c", "command -v cargo"], { env: { PATH: basePath } }).status === 0) {
  console.error(`cargo is on ${basePath}: this test needs a PATH without it`);
  process.exit(1);
}

// npm with no registry to reach (a closed loopback port) and an empty cache.
const npmEnv = {
  PATH: basePath,
  HOME: home,
  npm_config_cache: path.join(work, "npm-cache"),
  npm_config_registry: "http://127.0.0.1:9/",
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
};

function npm(args, cwd) {
  const started = process.hrtime.bigint();
  const run = spawnSync(
    process.execPath,
    [npmCli, ...args, "--offline", "--no-audit", "--no-fund"],
    {
      cwd,
      env: npmEnv,
      encoding: "utf8",
    },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ...run, ms };
}

function run(command, args, { env = {}, input = "", cwd = work } = {}) {
  return spawnSync(command, args, {
    cwd,
    env: { PATH: basePath, HOME: home, ...env },
    input,
    encoding: "utf8",
  });
}

console.log(`npm packages of ${version} for ${platform}, installed offline`);

// A global install into a prefix of its own.
const prefix = path.join(work, "prefix");
const global = npm(["install", "-g", "--prefix", prefix, platformTarball, launcherTarball], work);
check(global.status === 0, "npm install -g of the two tarballs, offline", global.stderr);
console.log(`  (the global install took ${global.ms.toFixed(0)} ms)`);
const command = path.join(prefix, "bin/rule-fairy");
const modules = path.join(prefix, "lib/node_modules");

const versionRun = run(command, ["--version"]);
check(
  versionRun.status === 0 && versionRun.stdout.trim() === `rule-fairy ${version}`,
  "rule-fairy --version through the npm launcher",
  versionRun.stdout + versionRun.stderr,
);

// The registry nests the platform package in the launcher's: lay it out so.
const beside = path.join(modules, "@rule-fairy");
const nested = path.join(modules, "rule-fairy/node_modules/@rule-fairy");
fs.mkdirSync(path.dirname(nested), { recursive: true });
fs.renameSync(beside, nested);
const manPage = path.join(prefix, "share/man/man1/rule-fairy.1");
check(
  fs.existsSync(manPage) && fs.readFileSync(manPage, "utf8").includes(".TH rule-fairy 1"),
  "the man page is linked into the prefix's man1",
);
const nestedRun = run(command, ["--version"]);
check(
  nestedRun.status === 0 && nestedRun.stdout.trim() === `rule-fairy ${version}`,
  "the launcher finds the platform package nested, as installed from the registry",
  nestedRun.stderr,
);

// The plugin's hooks run the platform binary directly: a `node` that
// fails comes first on PATH, so a hook that went through the launcher
// would fail.
const noNode = path.join(work, "no-node");
fs.mkdirSync(noNode);
fs.writeFileSync(path.join(noNode, "node"), "#!/bin/sh\necho 'node was run' >&2\nexit 99\n", {
  mode: 0o755,
});
const hookPath = `${path.join(prefix, "bin")}:${noNode}:/usr/bin:/bin`;

const webshop = path.join(work, "webshop");
fs.cpSync(path.join(repo, "examples/webshop"), webshop, { recursive: true });
const hooksRun = path.join(repo, "hooks/run");
const prompt = {
  session_id: "npm-install",
  turn_id: "t1",
  transcript_path: null,
  cwd: webshop,
  hook_event_name: "UserPromptSubmit",
  model: "gpt-5.5",
  permission_mode: "bypassPermissions",
  prompt: "Add a Button component to the checkout page",
};
const hook = run(hooksRun, ["codex", "prompt"], {
  env: { PATH: hookPath },
  input: JSON.stringify(prompt),
  cwd: webshop,
});
let context = "";
try {
  context = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext;
} catch {
  // Told below.
}
check(
  hook.status === 0 && context.includes("[rule-fairy injected: ") && context.includes("base.mdc"),
  "a Codex prompt hook through hooks/run delivers the example's rules",
  hook.stdout + hook.stderr,
);
check(!hook.stderr.includes("node was run"), "the hook ran no Node", hook.stderr);

// The Claude Code mod's check at the write, with the mod's own arguments.
const gate = run(
  hooksRun,
  ["gate", "check", path.join(webshop, "src/api/payments.ts"), "--json", "--project", webshop],
  { env: { PATH: hookPath }, cwd: webshop },
);
let finding = {};
try {
  finding = JSON.parse(gate.stdout.split("\n")[0]);
} catch {
  // Told below.
}
check(
  gate.status === 1 && finding.ruleId === "no-raw-error-response",
  "the mod's gate check through hooks/run finds the example's defect",
  gate.stdout + gate.stderr,
);

// A project's own install, and npx in it.
const project = path.join(work, "project");
fs.mkdirSync(project);
fs.writeFileSync(path.join(project, "package.json"), '{"name": "p", "private": true}\n');
const local = npm(["install", platformTarball, launcherTarball], project);
check(local.status === 0, "npm install of the two tarballs into a project, offline", local.stderr);
console.log(`  (the project install took ${local.ms.toFixed(0)} ms)`);
const npx = spawnSync(
  process.execPath,
  [path.join(path.dirname(npmCli), "npx-cli.js"), "--offline", "rule-fairy", "--version"],
  { cwd: project, env: npmEnv, encoding: "utf8" },
);
check(
  npx.status === 0 && npx.stdout.trim() === `rule-fairy ${version}`,
  "npx rule-fairy --version in the project",
  npx.stdout + npx.stderr,
);

// The opencode plugin, installed as opencode installs a package its config
// names: npm, into a folder of its own (opencode's cache).
const cache = path.join(work, "opencode-cache");
fs.mkdirSync(cache);
fs.writeFileSync(path.join(cache, "package.json"), '{"name": "cache", "private": true}\n');
const ocInstall = npm(["install", opencodeTarball], cache);
check(
  ocInstall.status === 0,
  "npm install of the opencode plugin's tarball, offline",
  ocInstall.stderr,
);
const pluginRoot = path.join(cache, "node_modules/@rule-fairy/opencode");
const pluginManifest = JSON.parse(fs.readFileSync(path.join(pluginRoot, "package.json"), "utf8"));
const pluginEntry = path.join(pluginRoot, pluginManifest.exports["."]);
check(
  pluginManifest.type === "module" &&
    pluginManifest.main === pluginManifest.exports["."] &&
    fs.existsSync(pluginEntry),
  "the package's entry (main and exports) is its opencode/plugin.ts, a module",
  JSON.stringify(pluginManifest),
);
const pluginFiles = filesBelow(pluginRoot);
check(
  !pluginFiles.some((file) => file.split("/").includes("tests")),
  "no tests are installed",
  pluginFiles.join("\n"),
);
const unresolved = unresolvedImports(pluginRoot);
check(
  unresolved.length === 0,
  "every relative import of every installed .ts and .js file resolves to a file inside the package, every other one is Node's or a type",
  unresolved.join("\n"),
);
// The checker itself finds a file missing.
const broken = path.join(work, "opencode-broken");
fs.cpSync(pluginRoot, broken, { recursive: true });
fs.rmSync(path.join(broken, "mod/queue.ts"));
check(
  unresolvedImports(broken).some((line) => line.includes('"./queue"')),
  "(and that check finds an import whose file is missing)",
);
const wasm = path.join(pluginRoot, "mod/engine/rule_fairy_wasm_bg.wasm");
check(
  fs.existsSync(wasm) && WebAssembly.validate(fs.readFileSync(wasm)),
  "the engine's .wasm is installed, and is WebAssembly",
);
const pluginLauncher = path.join(pluginRoot, "hooks/run");
check(
  (fs.statSync(pluginLauncher).mode & 0o111) === 0o111 &&
    fs.existsSync(path.join(pluginRoot, "hooks/find-program")),
  "hooks/run is executable, hooks/find-program beside it",
);
const pluginGate = run(
  pluginLauncher,
  ["gate", "check", path.join(webshop, "src/api/payments.ts"), "--json", "--project", webshop],
  { env: { PATH: hookPath }, cwd: webshop },
);
check(
  pluginGate.status === 1 && pluginGate.stdout.includes('"ruleId":"no-raw-error-response"'),
  "the installed plugin's hooks/run finds the npm-installed program for the gate",
  pluginGate.stdout + pluginGate.stderr,
);
await opencodeSession();

// What a user can end up with, each told with its fix (exit 2, could not run).
const platformDir = path.join(nested, `cli-${platform}`);
const binary = path.join(platformDir, "rule-fairy");

function launcherSays(what, expected, { preload } = {}) {
  const args = preload
    ? ["--require", preload, fs.realpathSync(command)]
    : [fs.realpathSync(command)];
  const said = run(path.join(tools, "node"), [...args, "--version"]);
  check(
    said.status === 2 && expected.every((text) => said.stderr.includes(text)),
    what,
    `exit ${said.status}: ${said.stderr}`,
  );
}

fs.chmodSync(binary, 0o644);
launcherSays("a binary without its execute bit", [
  `the program ${binary} is not executable`,
  `Fix: npm install -g rule-fairy@${version}`,
]);
const gateNoExec = run(hooksRun, ["gate", "check", "a.ts", "--json", "--project", webshop], {
  env: { PATH: hookPath },
  cwd: webshop,
});
check(
  gateNoExec.status === 127 &&
    gateNoExec.stderr.includes(`the program ${binary} is not executable`) &&
    gateNoExec.stderr.includes(`chmod +x ${binary}`),
  "hooks/run says the same, with the chmod to fix it",
  gateNoExec.stderr,
);
fs.chmodSync(binary, 0o755);

const manifestPath = path.join(platformDir, "package.json");
const manifest = fs.readFileSync(manifestPath, "utf8");
fs.writeFileSync(manifestPath, manifest.replace(`"version": "${version}"`, '"version": "0.0.1"'));
launcherSays("a platform package of another version", [
  `@rule-fairy/cli-${platform} is version 0.0.1 but the rule-fairy launcher is ${version}`,
  `Fix: npm install -g rule-fairy@${version}`,
]);
fs.writeFileSync(manifestPath, manifest);

fs.renameSync(nested, `${nested}.gone`);
launcherSays("the platform package missing", [
  `the package @rule-fairy/cli-${platform}, which holds the program for this machine, is not installed`,
  "--include=optional",
]);
fs.renameSync(`${nested}.gone`, nested);

const otherPlatform = path.join(work, "other-platform.cjs");
fs.writeFileSync(
  otherPlatform,
  'Object.defineProperty(process, "platform", { value: "aix" });\nObject.defineProperty(process, "arch", { value: "ppc64" });\n',
);
launcherSays(
  "a platform with no prebuilt program",
  ["there is no prebuilt rule-fairy program for aix-ppc64", "cargo install --locked"],
  { preload: otherPlatform },
);

fs.rmSync(work, { recursive: true, force: true });

/** Every file below `root`, as paths relative to it. */
function filesBelow(root) {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** What would not load in the package at `root`, one line each: a relative
 * import that resolves to no file inside it (as Bun resolves one: the path,
 * then with an extension, then its index), or a package import that is
 * neither Node's (`node:`) nor of types only, which Bun drops, since the
 * package has no dependencies. */
function unresolvedImports(root) {
  const problems = [];
  const extensions = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.js"];
  for (const file of filesBelow(root).filter((name) => /\.(ts|js|mjs)$/.test(name))) {
    if (file.endsWith(".d.ts")) continue;
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const found = [
      ...text.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']/gm),
    ].map((m) => ({ typeOnly: m[1] !== undefined || typesOnly(m[2]), specifier: m[3] }));
    for (const m of text.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) {
      found.push({ typeOnly: false, specifier: m[1] });
    }
    for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
      found.push({ typeOnly: false, specifier: m[1] });
    }
    for (const { typeOnly, specifier } of found) {
      if (specifier.startsWith("./") || specifier.startsWith("../")) {
        const base = path.resolve(root, path.dirname(file), specifier);
        const target = extensions
          .map((extension) => base + extension)
          .find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
        const inside = target !== undefined && !path.relative(root, target).startsWith("..");
        if (!inside) problems.push(`${file}: "${specifier}" is no file inside the package`);
      } else if (!specifier.startsWith("node:") && !typeOnly) {
        problems.push(`${file}: "${specifier}" is a package it does not bring`);
      }
    }
  }
  return problems;
}

/** Whether an import clause (`{ type A, type B }`) names types only. */
function typesOnly(clause) {
  const braces = clause.trim().match(/^\{([^}]*)\}$/);
  if (braces === null) return false;
  const names = braces[1]
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.length > 0 && names.every((name) => name.startsWith("type "));
}

/** One opencode session (the opencode pinned for tests/opencode) with the
 * plugin named by its package in the project's opencode.json, as a user
 * installs it: opencode installs it with npm from a loopback registry
 * serving only the packed tarball, on a git copy of the example project,
 * the gate's program found through the npm install. A prompt that writes
 * a file reaches the model with the always-on rule, and the write's result
 * with the glob's rule and the gate's finding. */
async function opencodeSession() {
  const opencodeTests = path.join(repo, "tests/opencode");
  const pinned = JSON.parse(fs.readFileSync(path.join(opencodeTests, "package.json"), "utf8"))
    .devDependencies["opencode-ai"];
  const said = spawnSync(path.join(opencodeTests, "node_modules/.bin/opencode"), ["--version"], {
    encoding: "utf8",
  });
  if (said.stdout?.trim() !== pinned) {
    console.log(
      `  skipped: the opencode session (opencode ${pinned} is not installed in tests/opencode)`,
    );
    return;
  }
  const { configure, serve } = await import("../opencode/session.mjs");
  const { startMock, textOf } = await import("../opencode/mock-openai.mjs");
  const { startRegistry } = await import("./registry.mjs");
  const project = path.join(work, "opencode-webshop");
  fs.cpSync(path.join(repo, "examples/webshop"), project, { recursive: true });
  const git = (...args) => execFileSync("git", args, { cwd: project, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start");
  const mock = await startMock();
  const registry = await startRegistry([opencodeTarball]);
  configure(project, mock.port);
  const config = path.join(project, "opencode.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      ...JSON.parse(fs.readFileSync(config, "utf8")),
      plugin: ["@rule-fairy/opencode"],
    }),
  );
  const home = path.join(work, "opencode-home");
  const started = process.hrtime.bigint();
  let oc;
  try {
    oc = await serve(project, home, {
      PATH: `${path.join(prefix, "bin")}:${tools}:/usr/bin:/bin`,
      RULE_FAIRY_BIN: undefined,
      npm_config_registry: registry.url,
      npm_config_offline: "false",
    });
    const session = await oc.newSession();
    const content =
      "export function refund() {\n  try {\n    return 1;\n  } catch (err) {\n    return { status: 500, body: err };\n  }\n}\n";
    const args = JSON.stringify({ filePath: "src/api/refunds.ts", content });
    await oc.prompt(session, `write the refund code [[tool:write ${args}]]`);
    check(
      registry.requests.some((request) => request.startsWith("GET /-/tarball-")),
      "opencode installed @rule-fairy/opencode by its name, with npm, from the packed tarball",
      registry.requests.join("\n"),
    );
    const requests = mock.requests.filter((r) => (r.body.tools ?? []).length > 0);
    const injected = (message) =>
      [...textOf(message).matchAll(/\[rule-fairy injected: ([^\]]+)\]/g)].map((m) => m[1]);
    const prompt = requests[0]?.body.messages.at(-1);
    check(
      prompt !== undefined && injected(prompt).includes("base.mdc"),
      "and, loading it, sends the prompt with the always-on rule",
      JSON.stringify(prompt ?? oc.output()),
    );
    const result = requests.at(-1)?.body.messages.find((m) => m.role === "tool");
    check(
      result !== undefined &&
        injected(result).includes("api/handlers.mdc") &&
        textOf(result).includes("no-raw-error-response"),
      "and the write's result with the glob's rule and the gate's finding",
      JSON.stringify(result ?? oc.output()),
    );
  } catch (error) {
    check(false, "an opencode session with the plugin installed by its name", String(error));
  } finally {
    await oc?.close();
    await mock.close();
    await registry.close();
  }
  console.log(
    `  (the opencode session took ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(0)} ms)`,
  );
}

if (failures > 0) {
  console.log(`${failures} failed`);
  process.exit(1);
}
console.log("all passed");
