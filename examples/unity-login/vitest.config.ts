import { defineConfig } from "vitest/config";
import { onCi, runs } from "../../engines/test-support/tools.js";

/**
 * The C# compile test needs Mono's `mcs` (Debian: mono-mcs, libmono-system-runtime-serialization4.0-cil).
 * With CI set it is required; otherwise, without mcs, it is left out and this says so.
 */
const exclude: string[] = [];
if (!onCi && !runs("mcs")) {
  exclude.push("test/csharp-*.test.ts");
  console.warn(
    "[example-unity-login] C# compile test left out: mcs not found (apt-get install mono-mcs libmono-system-runtime-serialization4.0-cil), or set CI=1 to require it.",
  );
}

export default defineConfig({
  test: { include: ["test/**/*.test.ts"], exclude, testTimeout: 120_000, hookTimeout: 180_000 },
});
