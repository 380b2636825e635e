import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Newest modification time of the files under a folder. */
function newest(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );
}

/** The CLI tests spawn dist/cli.js; build it first when it is missing or older than src/. */
export default function setup(): void {
  const cli = "dist/cli.js";
  if (existsSync(cli) && statSync(cli).mtimeMs >= newest("src")) return;
  const manifest = createRequire(import.meta.url).resolve("tsup/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  execFileSync(process.execPath, [join(dirname(manifest), bin["tsup"] ?? "dist/cli-default.js")], { stdio: "inherit" });
}
