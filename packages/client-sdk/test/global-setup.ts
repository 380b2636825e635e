import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

function newest(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );
}

/** The browser suites load the script-tag builds (dist/*.iife.js); build first when one is missing or older than src/. */
export default function setup(): void {
  const built = ["dist/slotgate.iife.js", "dist/slotgate-wallet.iife.js"];
  const source = newest("src");
  if (built.every((iife) => existsSync(iife) && statSync(iife).mtimeMs >= source)) return;
  const tsupPackage = createRequire(import.meta.url).resolve("tsup/package.json");
  execFileSync(process.execPath, [join(dirname(tsupPackage), "dist/cli-default.js")], { stdio: "inherit" });
}
