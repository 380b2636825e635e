import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/schemas.ts", "src/crypto.ts", "src/test-vectors.ts"],
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
