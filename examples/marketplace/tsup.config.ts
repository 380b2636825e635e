import { defineConfig } from "tsup";

export default defineConfig([
  // The Express back end (Node): dependencies stay external, resolved from node_modules as a consumer's would.
  {
    entry: { main: "src/main.ts", "create-marketplace": "src/create-marketplace.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: false,
    sourcemap: true,
    clean: false,
  },
  // The browser front end: bundles @slotgate/client-sdk and nothing else.
  {
    entry: { "public/app": "src/browser/app.ts", "public/callback": "src/browser/callback.ts" },
    format: ["esm"],
    target: "es2022",
    platform: "browser",
    noExternal: ["@slotgate/client-sdk"],
    splitting: false,
    sourcemap: true,
    clean: false,
  },
]);
