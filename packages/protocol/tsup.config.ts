import { nodeLibrary } from "../../tsup.library.js";

export default nodeLibrary(["src/index.ts", "src/schemas.ts", "src/endpoints.ts", "src/crypto.ts", "src/test-vectors.ts"]);
