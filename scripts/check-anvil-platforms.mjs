#!/usr/bin/env node
// CI: every development platform gets its Anvil from the lockfile.
//
//   node scripts/check-anvil-platforms.mjs
//
// For each platform of @slotgate/chain-service's ANVIL_PLATFORM_PACKAGES (the mapping `npm start` uses to find the
// binary), npm itself resolves this repository's package-lock.json as `npm ci` would on that machine
// (`npm ci --dry-run --os=<os> --cpu=<cpu>`, in a scratch copy holding only the manifests and the lockfile, so
// nothing here is installed or removed), and the check requires that exactly that platform's
// @foundry-rs/anvil-* package, at the version chain-service pins, is chosen. Needs the chain-service build (dist).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { ANVIL_PLATFORM_PACKAGES } = await import("@slotgate/chain-service");
const pinned = JSON.parse(readFileSync(join(root, "packages/chain-service/package.json"), "utf8")).optionalDependencies ?? {};
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Every workspace folder of the root manifest (`dir/*` globs expanded one level, as npm does here). */
function workspaces() {
  const dirs = [];
  for (const pattern of manifest.workspaces) {
    if (!pattern.endsWith("/*")) dirs.push(pattern);
    else for (const entry of readdirSync(join(root, pattern.slice(0, -2)))) dirs.push(`${pattern.slice(0, -1)}${entry}`);
  }
  return dirs.filter((dir) => existsSync(join(root, dir, "package.json")));
}

const scratch = mkdtempSync(join(tmpdir(), "slotgate-anvil-platforms-"));
const failures = [];
try {
  for (const file of ["package.json", "package-lock.json"]) cpSync(join(root, file), join(scratch, file));
  for (const dir of workspaces()) {
    mkdirSync(join(scratch, dir), { recursive: true });
    cpSync(join(root, dir, "package.json"), join(scratch, dir, "package.json"));
  }
  for (const [platform, expected] of Object.entries(ANVIL_PLATFORM_PACKAGES)) {
    const [os, cpu] = platform.split("-");
    let output = "";
    try {
      output = execFileSync("npm", ["ci", "--dry-run", `--os=${os}`, `--cpu=${cpu}`, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
        cwd: scratch,
        encoding: "utf8",
        shell: process.platform === "win32",
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      // npm refuses a lockfile out of step with the manifests: its own words say which package is missing.
      const said = String(error.stderr ?? error.message)
        .split("\n")
        .filter((line) => /Missing|Invalid|ERR!|error code/.test(line));
      console.log(`FAIL ${platform.padEnd(13)} npm ci --os=${os} --cpu=${cpu} refused the lockfile: ${said.join(" ").replace(/npm error /g, "")}`);
      failures.push(platform);
      continue;
    }
    const chosen = [...output.matchAll(/^add (@foundry-rs\/anvil-[^\s]+) (\S+)$/gm)].map((m) => `${m[1]}@${m[2]}`);
    const want = `${expected}@${pinned[expected]}`;
    const ok = pinned[expected] !== undefined && chosen.length === 1 && chosen[0] === want;
    console.log(
      `${ok ? "ok  " : "FAIL"} ${platform.padEnd(13)} npm ci --os=${os} --cpu=${cpu} chooses ${chosen.join(", ") || "no anvil package"}${ok ? "" : ` (expected ${want})`}`,
    );
    if (!ok) failures.push(platform);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`the lockfile does not give ${failures.join(", ")} its Anvil: run npm install after adding the platform package to packages/chain-service`);
  process.exit(1);
}
