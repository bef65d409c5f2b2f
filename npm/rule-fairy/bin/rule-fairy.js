#!/usr/bin/env node
// The `rule-fairy` command as npm installs it. The program itself comes in
// one package per platform (`@rule-fairy/cli-<platform>-<arch>`), of which
// npm installs only the one matching this machine; this finds it, checks it
// is the launcher's own version, and runs it with the same arguments,
// standard streams and exit status. Hooks do not come through here: the
// plugin's launcher runs the platform binary directly, without Node.

const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const launcher = require("../package.json");

const FROM_SOURCE =
  "cargo install --locked --git https://github.com/rule-fairy/rule-fairy rule-fairy";
const REINSTALL = `npm install -g rule-fairy@${launcher.version}`;

/** Says what is wrong and how to fix it, and exits as a program that could
 * not run (2; 1 is the program's own "found problems"). */
function fail(problem, fix) {
  process.stderr.write(`rule-fairy: ${problem}\nFix: ${fix}\n`);
  process.exit(2);
}

const platform = `${process.platform}-${process.arch}`;
const name = `@rule-fairy/cli-${platform}`;
const supported = Object.keys(launcher.optionalDependencies).map((dep) =>
  dep.replace("@rule-fairy/cli-", ""),
);
if (!supported.includes(platform)) {
  fail(
    `there is no prebuilt rule-fairy program for ${platform} (prebuilt: ${supported.join(", ")})`,
    `build it from source with a Rust toolchain and a C compiler: ${FROM_SOURCE}`,
  );
}

let manifestPath;
try {
  manifestPath = require.resolve(`${name}/package.json`);
} catch {
  fail(
    `the package ${name}, which holds the program for this machine, is not installed beside rule-fairy ${launcher.version} (npm leaves optional dependencies out under --omit=optional or --no-optional)`,
    `${REINSTALL} --include=optional`,
  );
}

const found = JSON.parse(fs.readFileSync(manifestPath, "utf8")).version;
if (found !== launcher.version) {
  fail(
    `${name} is version ${found} but the rule-fairy launcher is ${launcher.version}, at ${path.dirname(manifestPath)}`,
    REINSTALL,
  );
}

const program = path.join(
  path.dirname(manifestPath),
  process.platform === "win32" ? "rule-fairy.exe" : "rule-fairy",
);
try {
  fs.accessSync(program, process.platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
} catch (error) {
  const problem = error.code === "EACCES" ? "is not executable" : `cannot be run (${error.code})`;
  fail(`the program ${program} ${problem}`, REINSTALL);
}

const run = spawnSync(program, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  fail(`the program ${program} did not start: ${run.error.message}`, REINSTALL);
}
if (run.signal) {
  // Die of the same signal, so a caller sees what the program saw.
  process.kill(process.pid, run.signal);
}
process.exit(run.status ?? 1);
