import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const runtime = join(root, "Assets/Slotgate/Runtime");

/** The example's C# sources (Unity-only parts compile to nothing outside Unity), plus the CI harness. */
export const CSHARP_SOURCES = [...readdirSync(runtime).filter((f) => f.endsWith(".cs")).map((f) => join(runtime, f)), join(root, "ci/Harness.cs")];

/** Compiles the sources with Mono's mcs into a fresh folder; returns the harness path and mcs's output. */
export function compileHarness(): { exe: string; output: string } {
  const exe = join(mkdtempSync(join(tmpdir(), "slotgate-unity-")), "Harness.exe");
  const output = execFileSync("mcs", ["-langversion:7", "-warnaserror+", "-r:System.Runtime.Serialization.dll", `-out:${exe}`, ...CSHARP_SOURCES], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return { exe, output };
}
