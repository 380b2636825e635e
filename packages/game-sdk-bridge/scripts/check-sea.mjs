#!/usr/bin/env node
/**
 * Checks the single executables that scripts/build-sea.mjs wrote to dist-sea, for the platforms this
 * machine cannot run as for the one it can:
 *   - every file: there with the size and sha256 of the manifest, within MAX_BYTES, no more than SLACK_BYTES
 *     away from the runtime binary it was made from plus the blob, and carrying the CLI (its usage text);
 *   - Node SEA files: the SEA fuse is flipped (`NODE_SEA_FUSE_…:1`, once) and the preparation blob is
 *     embedded byte for byte;
 *   - the Bun file for Apple silicon: a Mach-O for arm64 with Bun's __BUN segment, signed ad hoc with a code
 *     signature whose every page hash matches the file (Apple silicon runs no unsigned code);
 *   - the files of this platform (linux-x64, Node and Bun) run and print the CLI version.
 * Prints one line per target; exits 1 on the first problem.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** Size budget of one executable (the Node.js 26 binaries are 100-143 MiB, Bun 1.4 85-103 MiB). */
const MAX_BYTES = 160 * 1024 * 1024;
/** Allowed difference from runtime + blob (Mach-O loses or regrows its code signature, PE gains a resource section). */
const SLACK_BYTES = 4 * 1024 * 1024;
/** Text of the CLI's --help: the bundle is in the file (Bun stores its own rebundled copy, not the blob's bytes). */
const CLI_MARK = "Usage: slotgate-login --client-id ID";

const out = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "dist-sea");
const fail = (message) => {
  process.stderr.write(`check-sea: ${message}\n`);
  process.exit(1);
};

/**
 * Problems of a Mach-O arm64 executable: its header, the __BUN segment, and the code signature (LC_CODE_SIGNATURE:
 * a SuperBlob whose CodeDirectory hashes every page of the file before the signature; checked page by page).
 */
export function machoArm64Problems(data) {
  const problems = [];
  if (data.readUInt32LE(0) !== 0xfeedfacf || data.readUInt32LE(4) !== 0x0100000c) return ["not a 64-bit Mach-O for arm64"];
  const commands = data.readUInt32LE(16);
  let at = 32;
  let signature;
  const segments = [];
  for (let i = 0; i < commands; i++) {
    const cmd = data.readUInt32LE(at);
    if (cmd === 0x19) segments.push(data.toString("latin1", at + 8, at + 24).replace(/\0+$/, ""));
    if (cmd === 0x1d) signature = { offset: data.readUInt32LE(at + 8), size: data.readUInt32LE(at + 12) };
    at += data.readUInt32LE(at + 4);
  }
  if (!segments.includes("__BUN")) problems.push("no __BUN segment (the compiled program)");
  if (!signature) return [...problems, "no code signature"];
  const blob = signature.offset;
  if (data.readUInt32BE(blob) !== 0xfade0cc0) return [...problems, "the code signature is not a SuperBlob"];
  let directory;
  for (let i = 0; i < data.readUInt32BE(blob + 8); i++) {
    const cd = blob + data.readUInt32BE(blob + 16 + i * 8);
    if (data.readUInt32BE(blob + 12 + i * 8) === 0 && data.readUInt32BE(cd) === 0xfade0c02) directory = cd;
  }
  if (directory === undefined) return [...problems, "no CodeDirectory in the signature"];
  const flags = data.readUInt32BE(directory + 12);
  const hashOffset = data.readUInt32BE(directory + 16);
  const pages = data.readUInt32BE(directory + 28);
  const codeLimit = data.readUInt32BE(directory + 32);
  const hashSize = data[directory + 36];
  const hashType = data[directory + 37];
  const pageSize = 2 ** data[directory + 39];
  if ((flags & 0x2) === 0) problems.push("the signature is not ad hoc");
  if (hashType !== 2 || hashSize !== 32) problems.push(`hash type ${hashType} is not SHA-256`);
  if (codeLimit !== signature.offset || pages !== Math.ceil(codeLimit / pageSize)) problems.push("the signature does not cover the whole file");
  let bad = 0;
  for (let page = 0; page < pages && hashType === 2; page++) {
    const hash = createHash("sha256")
      .update(data.subarray(page * pageSize, Math.min((page + 1) * pageSize, codeLimit)))
      .digest();
    if (!hash.equals(data.subarray(directory + hashOffset + page * 32, directory + hashOffset + page * 32 + 32))) bad++;
  }
  if (bad > 0) problems.push(`${bad} of ${pages} page hashes differ from the file (the signature is broken)`);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(out, "manifest.json"))) fail("dist-sea/manifest.json is missing; run npm run build:sea first");
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  const blob = readFileSync(join(out, "sea-prep.blob"));
  if (blob.length !== manifest.blob.bytes) fail("the blob differs from the manifest");
  const here = `${process.platform}-${process.arch}`;

  for (const [target, entry] of Object.entries(manifest.targets)) {
    const file = join(out, entry.file);
    if (!existsSync(file)) fail(`${entry.file} is missing`);
    const data = readFileSync(file);
    const problems = [];
    if (data.length !== entry.bytes) problems.push(`size ${data.length} differs from the manifest's ${entry.bytes}`);
    if (createHash("sha256").update(data).digest("hex") !== entry.sha256) problems.push("sha256 differs from the manifest");
    if (data.length > MAX_BYTES) problems.push(`${data.length} bytes is over the ${MAX_BYTES} budget`);
    if (Math.abs(data.length - (entry.runtime_bytes + blob.length)) > SLACK_BYTES)
      problems.push(`size ${data.length} is far from ${entry.runtime} ${entry.runtime_bytes} + blob ${blob.length}`);
    if (data.indexOf(CLI_MARK) < 0) problems.push("the CLI is not embedded");
    if (entry.runtime === "node") {
      const flipped = data.indexOf(`${SEA_FUSE}:1`);
      if (flipped < 0 || data.indexOf(SEA_FUSE, flipped + 1) >= 0 || data.includes(`${SEA_FUSE}:0`)) problems.push("the SEA fuse is not flipped exactly once");
      if (data.indexOf(blob) < 0) problems.push("the preparation blob is not embedded");
    }
    if (target === "darwin-arm64") problems.push(...machoArm64Problems(data));
    const runsHere = target === here || target === `bun-${here}`;
    if (runsHere) {
      const printed = execFileSync(file, ["--version"], { encoding: "utf8" }).trim();
      if (printed !== manifest.cli_version) problems.push(`--version printed ${printed}, expected ${manifest.cli_version}`);
    }
    if (problems.length > 0) fail(`${entry.file}: ${problems.join("; ")}`);
    const what =
      entry.runtime === "node"
        ? "fuse flipped, blob embedded"
        : target === "darwin-arm64"
          ? "Mach-O arm64, ad-hoc signature valid on every page"
          : "Bun executable";
    process.stdout.write(
      `check-sea: ${entry.file} ok: ${(data.length / 1048576).toFixed(1)} MiB (${entry.runtime} ${entry.runtime_version} ${(entry.runtime_bytes / 1048576).toFixed(1)} MiB + blob ${blob.length} B), ${what}${runsHere ? ", runs" : ""}\n`,
    );
  }
}
