import { defineConfig } from "vitest/config";
import { onCi, runs } from "../test-support/tools.js";

/**
 * The C# suites need Mono (`mcs`, `mono`; Debian: mono-mcs, mono-runtime,
 * libmono-system-runtime-serialization4.0-cil). With CI set they are required (a missing Mono fails
 * them); otherwise, without Mono, they are left out and this says so. The package-layout test needs nothing.
 */
const exclude: string[] = [];
if (!onCi && !(runs("mcs") && runs("mono"))) {
  exclude.push("test/csharp-*.test.ts");
  console.warn(
    "[engine-unity] C# tests left out: mcs/mono not found (apt-get install mono-mcs mono-runtime libmono-system-runtime-serialization4.0-cil), or set CI=1 to require them.",
  );
}

export default defineConfig({
  test: { include: ["test/**/*.test.ts"], exclude, testTimeout: 120_000, hookTimeout: 180_000 },
});
