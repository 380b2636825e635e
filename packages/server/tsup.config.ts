import { defineConfig } from "tsup";
import { nodeLibrary } from "../../tsup.library.js";

export default defineConfig([
  nodeLibrary(
    { index: "src/index.ts", cli: "src/cli.ts", testing: "src/testing/index.ts" },
    {
      dts: { entry: { index: "src/index.ts", testing: "src/testing/index.ts" } },
      // import.meta.url in the CJS build of the testing entry (resolving the slotgate-server bin)
      shims: true,
      // dist/assets is the browser build below
      clean: ["!assets/**"],
    },
  ),
  {
    // The pages' browser scripts (type-checked by tsconfig.browser.json), served by the server under a content-hashed path.
    entry: { "developer-center": "src/developer/browser/developer-center.ts", "wallet-window": "src/wallet-window/browser/wallet-window.ts" },
    outDir: "dist/assets",
    format: ["iife"],
    outExtension: () => ({ js: ".js" }),
    platform: "browser",
    target: "es2022",
    minify: true,
    clean: true,
  },
]);
