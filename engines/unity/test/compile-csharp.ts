import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

/** Every C# file of the UPM package's Runtime folder (Unity-only files compile to nothing outside Unity). */
export const RUNTIME = join(root, "com.slotgate.login", "Runtime");
export const RUNTIME_SOURCES = (readdirSync(RUNTIME, { recursive: true }) as string[]).filter((f) => f.endsWith(".cs")).map((f) => join(RUNTIME, f));

/** mcs as CI runs it: C# 7 (what every Unity version the package targets accepts), warnings as errors. */
function mcs(args: string[]): string {
  return execFileSync("mcs", ["-langversion:7", "-warnaserror+", "-r:System.Runtime.Serialization.dll", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Compiles the runtime into Slotgate.Login.dll and `extra` sources (a harness, an example's scripts) into an
 * executable against it, in a fresh folder. Returns both paths.
 */
export function compileWithRuntime(extra: string[], exeName = "Harness.exe"): { dll: string; exe: string } {
  const dir = mkdtempSync(join(tmpdir(), "slotgate-unity-"));
  const dll = join(dir, "Slotgate.Login.dll");
  const exe = join(dir, exeName);
  mcs(["-target:library", `-out:${dll}`, ...RUNTIME_SOURCES]);
  mcs([`-r:${dll}`, `-out:${exe}`, ...extra]);
  return { dll, exe };
}

/** The package's CI harness (ci/Harness.cs), compiled against the runtime. */
export function compileHarness(): { dll: string; exe: string } {
  return compileWithRuntime([join(root, "ci", "Harness.cs")]);
}
