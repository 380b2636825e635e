import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";

/** The package.json of `name` as Node resolves it from `fromDir`. */
function manifest(name: string, fromDir: string): { dir: string; json: Record<string, Record<string, string> | undefined> } | null {
  const require = createRequire(join(fromDir, "noop.js"));
  let entry: string;
  try {
    entry = require.resolve(`${name}/package.json`);
  } catch {
    // A package that does not export its package.json: walk up from its main entry.
    try {
      let dir = dirname(require.resolve(name));
      while (!readFileSafe(join(dir, "package.json"), name)) dir = dirname(dir);
      entry = join(dir, "package.json");
    } catch {
      return null; // an optional dependency not installed on this platform
    }
  }
  return { dir: dirname(entry), json: JSON.parse(readFileSync(entry, "utf8")) };
}

function readFileSafe(file: string, name: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name === name;
  } catch {
    return false;
  }
}

it("hardhat is not a run-time dependency of @slotgate/server (dependencies, transitively)", () => {
  const seen = new Set<string>();
  const walk = (dir: string, json: Record<string, Record<string, string> | undefined>) => {
    for (const name of Object.keys({ ...json["dependencies"], ...json["optionalDependencies"] })) {
      const found = manifest(name, dir);
      if (!found || seen.has(found.dir)) continue;
      seen.add(found.dir);
      walk(found.dir, found.json);
    }
  };
  const root = join(import.meta.dirname, "..", "..");
  walk(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")));
  const names = [...seen].map((dir) => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name);
  expect(names.length, "the walk reached the whole tree").toBeGreaterThan(50);
  expect(names).toContain("@slotgate/chain-service");
  expect(names).toContain("@slotgate/contracts");
  expect(names.filter((n) => n === "hardhat" || n.startsWith("@nomicfoundation/"))).toEqual([]);
});
