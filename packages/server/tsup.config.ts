import { nodeLibrary } from "../../tsup.library.js";

export default nodeLibrary(
  { index: "src/index.ts", cli: "src/cli.ts", testing: "src/testing/index.ts" },
  {
    dts: { entry: { index: "src/index.ts", testing: "src/testing/index.ts" } },
    // import.meta.url in the CJS build of the testing entry (resolving the slotgate-server bin)
    shims: true,
  },
);
