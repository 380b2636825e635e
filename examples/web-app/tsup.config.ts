import { defineConfig } from "tsup";

export default defineConfig([
  // The Express back end (Node): dependencies stay external, resolved from node_modules as a consumer's would.
  {
    entry: { main: "src/main.ts", "create-demo-app": "src/create-demo-app.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: false,
    sourcemap: true,
    clean: false,
  },
  // The browser front end: bundles @slotgate/client-sdk like any web app's bundler would.
  {
    entry: { "public/app": "src/browser/app.ts", "public/callback": "src/browser/callback.ts" },
    format: ["esm"],
    target: "es2022",
    platform: "browser",
    noExternal: ["@slotgate/client-sdk"],
    splitting: false, // one self-contained file per page
    sourcemap: true,
    clean: false,
  },
]);
