import { nodeLibrary } from "../../tsup.library.js";

export default nodeLibrary(["src/index.ts"]);
