// The files a clone of this repository holds (the working tree's, so a
// test sees uncommitted work too), copied with their modes: Codex copies a
// local plugin whole, build output included, so a test installs the
// plugin from a clean copy. Entries that are not files (a linked
// node_modules) are left out.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export function copyRepository(to) {
  const files = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: REPO, encoding: "utf8" },
  )
    .split("\0")
    .filter(
      (f) => f && fs.existsSync(path.join(REPO, f)) && fs.statSync(path.join(REPO, f)).isFile(),
    );
  for (const file of files) {
    const target = path.join(to, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(REPO, file), target);
    fs.chmodSync(target, fs.statSync(path.join(REPO, file)).mode);
  }
}
