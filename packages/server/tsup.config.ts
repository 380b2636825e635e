import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", cli: "src/cli.ts", testing: "src/testing/index.ts" },
  format: ["esm", "cjs"],
  dts: { entry: { index: "src/index.ts", testing: "src/testing/index.ts" } },
  sourcemap: true,
  clean: true,
  // import.meta.url in the CJS build of the testing entry (resolving the slotgate-server bin)
  shims: true,
  target: "node20",
});
