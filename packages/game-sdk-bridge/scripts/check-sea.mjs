#!/usr/bin/env node
/**
 * Checks the single executables that scripts/build-sea.mjs wrote to dist-sea, for the platforms this
 * machine cannot run as for the one it can:
 *   - the file is there with the size and sha256 of the manifest, within MAX_BYTES, and no more than
 *     SLACK_BYTES away from the Node binary it was made from plus the blob;
 *   - the SEA fuse is flipped (`NODE_SEA_FUSE_…:1`, once) and the preparation blob is embedded byte
 *     for byte;
 *   - the executable of this platform (linux-x64) runs and prints the CLI version.
 * Prints one line per target; exits 1 on the first problem.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** Size budget of one executable (the Node.js 26 binaries are 100-143 MiB). */
const MAX_BYTES = 160 * 1024 * 1024;
/** Allowed difference from node binary + blob (Mach-O loses its code signature, PE gains a resource section). */
const SLACK_BYTES = 4 * 1024 * 1024;

const out = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "dist-sea");
const fail = (message) => {
  process.stderr.write(`check-sea: ${message}\n`);
  process.exit(1);
};
if (!existsSync(join(out, "manifest.json"))) fail("dist-sea/manifest.json is missing; run npm run build:sea first");
const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
const blob = readFileSync(join(out, "sea-prep.blob"));
if (blob.length !== manifest.blob.bytes) fail("the blob differs from the manifest");

for (const [target, entry] of Object.entries(manifest.targets)) {
  const file = join(out, entry.file);
  if (!existsSync(file)) fail(`${entry.file} is missing`);
  const data = readFileSync(file);
  const problems = [];
  if (data.length !== entry.bytes) problems.push(`size ${data.length} differs from the manifest's ${entry.bytes}`);
  if (createHash("sha256").update(data).digest("hex") !== entry.sha256) problems.push("sha256 differs from the manifest");
  if (data.length > MAX_BYTES) problems.push(`${data.length} bytes is over the ${MAX_BYTES} budget`);
  if (Math.abs(data.length - (entry.node_bytes + blob.length)) > SLACK_BYTES) problems.push(`size ${data.length} is far from node ${entry.node_bytes} + blob ${blob.length}`);
  const flipped = data.indexOf(`${SEA_FUSE}:1`);
  if (flipped < 0 || data.indexOf(SEA_FUSE, flipped + 1) >= 0 || data.includes(`${SEA_FUSE}:0`)) problems.push("the SEA fuse is not flipped exactly once");
  if (data.indexOf(blob) < 0) problems.push("the preparation blob is not embedded");
  if (target === `${process.platform}-${process.arch}`) {
    const printed = execFileSync(file, ["--version"], { encoding: "utf8" }).trim();
    if (printed !== manifest.cli_version) problems.push(`--version printed ${printed}, expected ${manifest.cli_version}`);
  }
  if (problems.length > 0) fail(`${entry.file}: ${problems.join("; ")}`);
  const ran = target === `${process.platform}-${process.arch}` ? ", runs" : "";
  process.stdout.write(`check-sea: ${entry.file} ok: ${(data.length / 1048576).toFixed(1)} MiB (node ${(entry.node_bytes / 1048576).toFixed(1)} MiB + blob ${blob.length} B), fuse flipped, blob embedded${ran}\n`);
}
