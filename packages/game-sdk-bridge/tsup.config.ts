import { readFileSync } from "node:fs";
import { nodeLibrary } from "../../tsup.library.js";

const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

export default nodeLibrary(
  { index: "src/index.ts", cli: "src/cli.ts" },
  { dts: { entry: { index: "src/index.ts" } }, define: { __PACKAGE_VERSION__: JSON.stringify(version) } },
);
