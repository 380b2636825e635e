import { defineConfig } from "tsup";

export default defineConfig([
  {
    // npm consumers: ESM + CJS + types, unminified (their bundler minifies), tree-shakable. Two entry points:
    // "." (login) and "./wallet" (the wallet window). Splitting in both formats puts what they share (SlotgateError,
    // the popup machinery) in one chunk, so `instanceof SlotgateError` holds across the two entries in CJS too.
    entry: { index: "src/index.ts", wallet: "src/wallet/index.ts" },
    format: ["esm", "cjs"],
    splitting: true,
    dts: true,
    sourcemap: true,
    clean: true,
    platform: "browser",
    target: "es2022",
  },
  {
    // <script src=".../slotgate.iife.js">: window.Slotgate = { Slotgate, SlotgateError, handleLoginCallback, VERSION }.
    // <script src=".../slotgate-wallet.iife.js">: window.SlotgateWallet = { SlotgateWallet, handleWalletCallback,
    // SlotgateError, VERSION }, the wallet window alone (a page that only logs in never loads it).
    entry: { "slotgate.iife": "src/global.ts", "slotgate-wallet.iife": "src/wallet/global.ts" },
    format: ["iife"],
    outExtension: () => ({ js: ".js" }),
    minify: true,
    sourcemap: true,
    platform: "browser",
    target: "es2022",
  },
]);
