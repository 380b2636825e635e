import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/redis.ts"],
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
