#!/usr/bin/env node
/**
 * Packs the UPM package com.slotgate.login into dist/com.slotgate.login-<version>.tgz, the tarball Unity's
 * Package Manager installs with "Add package from tarball…" (the npm tarball layout, a `package/` root).
 * Checks the .meta files first. Prints the tarball's size and file count.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(process.execPath, [join(root, "scripts", "upm-meta.mjs"), "--check"], { stdio: "inherit" });
const out = join(root, "dist");
mkdirSync(out, { recursive: true });
const [packed] = JSON.parse(
  execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out], {
    cwd: join(root, "com.slotgate.login"),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }),
);
console.log(
  `pack-upm: dist/${packed.filename}: ${packed.size} bytes packed (${(packed.size / 1024).toFixed(1)} KiB), ${packed.unpackedSize} unpacked, ${packed.entryCount} files`,
);
