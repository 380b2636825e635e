/**
 * The package compiles with Mono's mcs as C# 7 with warnings as errors: the runtime alone (what Mono runs in
 * csharp-login.test.ts), and with the Unity-only files switched on (UNITY_5_3_OR_NEWER, with and without
 * UNITY_WEBGL) against test/UnityEngineStub.cs, the few UnityEngine members they use.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { compileHarness, RUNTIME_SOURCES } from "./compile-csharp.js";

const SAMPLES = join(import.meta.dirname, "..", "com.slotgate.login", "Samples~");
const sampleSources = (readdirSync(SAMPLES, { recursive: true }) as string[]).filter((f) => f.endsWith(".cs")).map((f) => join(SAMPLES, f));
const STUB = join(import.meta.dirname, "UnityEngineStub.cs");

it("the runtime compiles into Slotgate.Login.dll, and the CI harness against it", () => {
  const { dll, exe } = compileHarness();
  // Measured 46.5 KiB (Mono 6.8, 0.2.0).
  expect(statSync(dll).size).toBeGreaterThan(10_000);
  expect(statSync(exe).size).toBeGreaterThan(1_000);
});

it.each([
  ["standalone", []],
  ["WebGL", ["-define:UNITY_WEBGL"]],
])("the Unity-only files type-check as a %s build (UnityEngine stubbed)", (_build, defines) => {
  const out = join(mkdtempSync(join(tmpdir(), "slotgate-unity-")), "Unity.dll");
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
      ...sampleSources,
      STUB,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  expect(statSync(out).size).toBeGreaterThan(10_000);
});
