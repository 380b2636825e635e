import { nodeLibrary } from "../../tsup.library.js";

// import.meta.url (resolving the anvil binary's package) also works in the CJS build.
export default nodeLibrary(["src/index.ts"], { shims: true });
