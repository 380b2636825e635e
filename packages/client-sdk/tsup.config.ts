import { defineConfig } from "tsup";

export default defineConfig([
  {
    // npm consumers: ESM + CJS + types, unminified (their bundler minifies), tree-shakable.
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    platform: "browser",
    target: "es2022",
  },
  {
    // <script src=".../slotgate.iife.js">: window.Slotgate = { Slotgate, SlotgateError, handleLoginCallback, VERSION }.
    entry: { "slotgate.iife": "src/global.ts" },
    format: ["iife"],
    outExtension: () => ({ js: ".js" }),
    minify: true,
    sourcemap: true,
    platform: "browser",
    target: "es2022",
  },
]);
