import { defineConfig } from "tsup";

export default defineConfig({
  // ESM + CJS + types for bundlers; react and the client SDK stay external. The banner marks every file a client
  // component for React Server Components (Next.js App Router): the provider uses state and effects.
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  platform: "browser",
  target: "es2022",
  external: ["react", "@slotgate/client-sdk"],
  banner: { js: '"use client";' },
});
