// A loopback npm registry on 127.0.0.1 serving the given package tarballs
// and nothing else (any other name is 404, as for a package that does not
// exist), so a program that installs packages by name with npm (opencode
// installing a plugin its config names) gets ours without a network.
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";

/** Starts the registry; resolves to its `url`, the `requests` it was
 * sent (method and path) and `close()`. */
export async function startRegistry(tarballs) {
  const packages = new Map();
  for (const [index, file] of tarballs.entries()) {
    const bytes = fs.readFileSync(file);
    const manifest = JSON.parse(
      execFileSync("tar", ["-xzOf", file, "package/package.json"], { encoding: "utf8" }),
    );
    const integrity = `sha512-${crypto.createHash("sha512").update(bytes).digest("base64")}`;
    packages.set(manifest.name, { manifest, bytes, integrity, path: `/-/tarball-${index}.tgz` });
  }
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const wanted = decodeURIComponent(req.url ?? "");
    const named = packages.get(wanted.slice(1));
    const tarball = [...packages.values()].find((entry) => entry.path === wanted);
    if (named !== undefined) {
      const { manifest, integrity, path } = named;
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          name: manifest.name,
          "dist-tags": { latest: manifest.version },
          versions: {
            [manifest.version]: {
              ...manifest,
              dist: { tarball: `${url}${path.slice(1)}`, integrity },
            },
          },
        }),
      );
    } else if (tarball !== undefined) {
      res.setHeader("content-type", "application/octet-stream");
      res.end(tarball.bytes);
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
    }
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return { url, requests, close: () => new Promise((done) => server.close(done)) };
}
