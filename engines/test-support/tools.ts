/**
 * What the engine suites' vitest configs ask of the machine: whether a tool is installed, and whether CI requires
 * every suite (CI is "true" or "1", read as scripts/test.mjs reads it; CI=false or CI=0 is a laptop).
 */
import { execFileSync } from "node:child_process";

export const onCi = process.env["CI"] === "true" || process.env["CI"] === "1";

/** Whether `command --version` runs and exits 0 (Mono's `mcs`, `mono`). */
export function runs(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Whether `command --version` prints a Godot 3 version (Godot 3.2 exits 255 after printing it). */
export function isGodot3(command: string): boolean {
  try {
    return /^3\.\d/.test(execFileSync(command, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  } catch (error) {
    return /^3\.\d/.test(String((error as { stdout?: unknown }).stdout ?? ""));
  }
}
