#!/usr/bin/env node
// Release pipeline dry run: validates the changesets config, then applies the pending changesets
// (`changeset version`) in a throw-away copy of the repository and shows which packages would be
// bumped, so a broken config or changeset fails CI instead of the release.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const config = JSON.parse(readFileSync(join(root, ".changeset/config.json"), "utf8"));
if (config.fixed.length > 0 || config.linked.length > 0) throw new Error("packages must be versioned independently");
if (config.privatePackages?.version !== false) throw new Error("private packages (examples) must not be versioned");

const pending = readdirSync(join(root, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md");
console.log(`${pending.length} pending changeset(s)`);

const copy = mkdtempSync(join(tmpdir(), "slotgate-release-"));
try {
  cpSync(root, copy, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|\.git|\.turbo|\.pack|\.slotgate-data)([\\/]|$)/.test(src.slice(root.length)),
  });
  const publishable = readdirSync(join(copy, "packages")).filter(
    (dir) => !JSON.parse(readFileSync(join(copy, "packages", dir, "package.json"), "utf8")).private,
  );
  if (pending.length === 0) {
    // Nothing pending: exercise the pipeline with a synthetic patch changeset for every publishable package.
    const names = publishable.map((dir) => JSON.parse(readFileSync(join(copy, "packages", dir, "package.json"), "utf8")).name);
    writeFileSync(join(copy, ".changeset", "ci-dry-run.md"), `---\n${names.map((n) => `"${n}": patch`).join("\n")}\n---\n\nRelease dry run.\n`);
    console.log("no pending changesets: versioning a synthetic patch of every publishable package");
  }
  execFileSync("git", ["init", "-q"], { cwd: copy });
  execFileSync("git", ["-c", "user.email=ci@slotgate.invalid", "-c", "user.name=ci", "commit", "-qm", "base", "--allow-empty"], { cwd: copy });
  execFileSync(join(root, "node_modules/.bin/changeset"), ["version"], {
    cwd: copy,
    stdio: "inherit",
    env: { ...process.env, NODE_PATH: join(root, "node_modules") },
  });
  const versions = readdirSync(join(copy, "packages")).map((dir) => {
    const before = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
    const after = JSON.parse(readFileSync(join(copy, "packages", dir, "package.json"), "utf8"));
    return `${after.name}: ${before.version} -> ${after.version}${before.private ? " (private)" : ""}`;
  });
  console.log(versions.join("\n"));
  if (pending.length === 0) {
    for (const dir of publishable) {
      const before = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")).version;
      const after = JSON.parse(readFileSync(join(copy, "packages", dir, "package.json"), "utf8")).version;
      if (before === after) throw new Error(`changeset version did not bump packages/${dir}`);
      if (!existsSync(join(copy, "packages", dir, "CHANGELOG.md"))) throw new Error(`changeset version wrote no CHANGELOG.md for packages/${dir}`);
    }
  }
  // The changelog entries the release would write: the new top section of each package's CHANGELOG.md.
  for (const dir of readdirSync(join(copy, "packages"))) {
    const file = join(copy, "packages", dir, "CHANGELOG.md");
    if (!existsSync(file)) continue;
    const after = readFileSync(file, "utf8");
    const beforeFile = join(root, "packages", dir, "CHANGELOG.md");
    const before = existsSync(beforeFile) ? readFileSync(beforeFile, "utf8") : "";
    if (after === before) continue;
    const start = after.indexOf("\n## ");
    const next = after.indexOf("\n## ", start + 1);
    const entry = after.slice(start + 1, next === -1 ? undefined : next).trim(); // the top version section
    console.log(`\n--- packages/${dir}/CHANGELOG.md (new entry) ---\n${entry}`);
  }
} finally {
  rmSync(copy, { recursive: true, force: true });
}
