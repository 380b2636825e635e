import { defineConfig } from "tsup";

export default defineConfig({
  // ESM + CJS + types for bundlers; react and the client SDK stay external. The banner marks every file a client
  // component for React Server Components (Next.js App Router): the provider uses state and effects.
  // Two entries: "." (provider, login) and "./wallet" (useSlotgateWallet), so a login-only app does not bundle the
  // wallet window. Splitting in both formats puts what they share (the provider's contexts) in one chunk: the
  // wallet hook must read the very context object the provider fills, in CJS too.
  entry: { index: "src/index.ts", wallet: "src/wallet/index.ts" },
  splitting: true,
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  platform: "browser",
  target: "es2022",
  external: ["react", "@slotgate/client-sdk"],
  banner: { js: '"use client";' },
});
