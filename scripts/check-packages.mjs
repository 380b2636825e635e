#!/usr/bin/env node
// Checks every publishable @slotgate/* package the way a consumer meets it:
// packs it, runs publint and are-the-types-wrong on the tarball, installs all tarballs into a
// fresh project outside the workspace, and imports each entry point from plain Node ESM and CJS.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const packDir = join(root, ".pack");
rmSync(packDir, { recursive: true, force: true });
mkdirSync(packDir);

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", ...opts });

const packages = readdirSync(join(root, "packages"))
  .map((dir) => ({ dir: join(root, "packages", dir), pkg: JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) }))
  .filter(({ pkg }) => !pkg.private);

const failures = [];
const tarballs = [];
for (const { dir, pkg } of packages) {
  const out = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: dir }));
  const tarball = join(packDir, out[0].filename);
  tarballs.push(tarball);
  console.log(`packed ${pkg.name}@${pkg.version}: ${out[0].entryCount} files, ${(out[0].size / 1024).toFixed(1)} KiB`);
  try {
    run("npx", ["publint", "run", tarball, "--strict"], { cwd: root });
    console.log(`  publint: ok`);
  } catch {
    failures.push(`${pkg.name}: publint`);
  }
  try {
    // node16 resolution from both module systems, the bundler view, and node10 (main/types) for old toolchains
    run("npx", ["attw", tarball, "--format", "table-flipped", "--profile", "node16"], { cwd: root });
    console.log(`  are-the-types-wrong (node16 ESM + CJS): ok`);
  } catch (error) {
    console.error(error.stdout ?? "");
    failures.push(`${pkg.name}: are-the-types-wrong`);
  }
}

const consumer = mkdtempSync(join(tmpdir(), "slotgate-consumer-"));
writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, version: "0.0.0" }));
run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], { cwd: consumer });

for (const { pkg } of packages) {
  const entries = Object.keys(pkg.exports ?? { ".": {} }).filter((e) => e !== "./package.json");
  for (const entry of entries) {
    const spec = entry === "." ? pkg.name : `${pkg.name}/${entry.slice(2)}`;
    for (const [kind, code] of [
      ["ESM", `const m = await import(${JSON.stringify(spec)}); if (Object.keys(m).length === 0) throw new Error("no exports");`],
      ["CJS", `const m = require(${JSON.stringify(spec)}); if (Object.keys(m).length === 0) throw new Error("no exports");`],
    ]) {
      try {
        run("node", kind === "ESM" ? ["--input-type=module", "-e", code] : ["--input-type=commonjs", "-e", code], { cwd: consumer });
        console.log(`imported ${spec} from plain Node ${kind}`);
      } catch {
        failures.push(`${spec}: ${kind} import from a fresh project`);
      }
    }
  }
}
rmSync(consumer, { recursive: true, force: true });

if (failures.length > 0) {
  console.error(`\nConsumer checks failed:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log(`\n${packages.length} packages pass the consumer checks.`);
