// The release as installed: the binary's size, its start beside a
// hello-world built with the same profile and target (the floor: what any
// program of this build costs to start), and the offline install of the
// npm tarballs. Medians. Run by scripts/bench-release after it built both.
//
// Usage: node tests/npm/bench.mjs <rule-fairy binary> <hello binary> <dist folder>

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [binary, hello, dist] = process.argv.slice(2).map((arg) => path.resolve(arg));
const STARTS = 301;
const INSTALLS = 7;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Milliseconds from spawn to exit, `runs` times, alternating the programs
 * so a busy moment of the machine falls on both. */
function starts(programs, runs) {
  const times = programs.map(() => []);
  for (let run = 0; run < runs; run += 1) {
    programs.forEach(([program, args], i) => {
      const started = process.hrtime.bigint();
      const done = spawnSync(program, args, { stdio: "ignore" });
      times[i].push(Number(process.hrtime.bigint() - started) / 1e6);
      if (done.status !== 0) throw new Error(`${program} exited ${done.status}`);
    });
  }
  return times.map(median);
}

const size = fs.statSync(binary).size;
console.log(`binary: ${binary}: ${(size / 1e6).toFixed(2)} MB (${size} bytes)`);

const [floor, version, help] = starts(
  [
    [hello, []],
    [binary, ["--version"]],
    [binary, ["--help"]],
  ],
  STARTS,
);
console.log(`start, median of ${STARTS}:`);
console.log(`  hello-world (the floor)   ${floor.toFixed(3)} ms`);
console.log(
  `  rule-fairy --version      ${version.toFixed(3)} ms (floor + ${(version - floor).toFixed(3)} ms, ${(version / floor).toFixed(2)}x)`,
);
console.log(
  `  rule-fairy --help         ${help.toFixed(3)} ms (floor + ${(help - floor).toFixed(3)} ms, ${(help / floor).toFixed(2)}x)`,
);

const tarballs = fs
  .readdirSync(dist)
  .filter((name) => name.endsWith(".tgz"))
  .map((name) => path.join(dist, name));
const npmCli = path.join(
  path.dirname(fs.realpathSync(spawnSync("sh", ["-c", "command -v npm"]).stdout.toString().trim())),
  "npm-cli.js",
);
const installs = [];
for (let run = 0; run < INSTALLS; run += 1) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rule-fairy-install-"));
  const started = process.hrtime.bigint();
  const done = spawnSync(
    process.execPath,
    [
      npmCli,
      "install",
      "-g",
      "--offline",
      "--no-audit",
      "--no-fund",
      "--prefix",
      path.join(work, "prefix"),
      ...tarballs,
    ],
    {
      env: {
        ...process.env,
        npm_config_cache: path.join(work, "cache"),
        npm_config_registry: "http://127.0.0.1:9/",
      },
      stdio: "ignore",
    },
  );
  installs.push(Number(process.hrtime.bigint() - started) / 1e6);
  fs.rmSync(work, { recursive: true, force: true });
  if (done.status !== 0) throw new Error(`npm install exited ${done.status}`);
}
console.log(
  `offline npm install -g of ${tarballs.length} tarballs, median of ${INSTALLS}: ${median(installs).toFixed(0)} ms`,
);
