/**
 * The example's scripts compile against the package they install (Packages/manifest.json ->
 * engines/unity/com.slotgate.login) with Mono's mcs, C# 7, warnings as errors, as a standalone and as a
 * WebGL build (UnityEngine stubbed by the package's test/UnityEngineStub.cs). The login itself is tested
 * under Mono in engines/unity.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { RUNTIME, RUNTIME_SOURCES } from "../../../engines/unity/test/compile-csharp.js";

const root = join(import.meta.dirname, "..");

it("Packages/manifest.json installs com.slotgate.login from the repository", () => {
  const manifest = JSON.parse(readFileSync(join(root, "Packages/manifest.json"), "utf8")) as { dependencies: Record<string, string> };
  const location = manifest.dependencies["com.slotgate.login"]!.replace(/^file:/, "");
  expect(resolve(root, "Packages", location, "Runtime")).toBe(RUNTIME);
});

it.each([
  ["standalone", []],
  ["WebGL", ["-define:UNITY_WEBGL"]],
])("Assets/Scripts compile against the package as a %s build", (_build, defines) => {
  const out = join(mkdtempSync(join(tmpdir(), "slotgate-unity-example-")), "Example.dll");
  const stub = join(root, "../../engines/unity/test/UnityEngineStub.cs");
  execFileSync(
    "mcs",
    [
      "-langversion:7",
      "-warnaserror+",
      "-target:library",
      "-r:System.Runtime.Serialization.dll",
      "-define:UNITY_5_3_OR_NEWER",
      ...defines,
      `-out:${out}`,
      ...RUNTIME_SOURCES,
      join(root, "Assets/Scripts/SlotgateLoginPanel.cs"),
      stub,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  expect(statSync(out).size).toBeGreaterThan(10_000);
});
