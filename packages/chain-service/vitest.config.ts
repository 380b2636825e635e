import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/*.test.ts", ...(process.env.SLOTGATE_TEST_DATABASE_URL ? ["test/postgres/*.test.ts"] : [])],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One worker, shared module state: one Anvil node (test/global-setup.ts) and one PGlite database for the whole suite
    // (PGlite's WASM start-up dominates on a busy two-core machine). Every test file deploys its own
    // contracts and uses fresh user ids and cuids, so files do not see each other's data.
    pool: "forks",
    // The shared Anvil node: started once in vitest's own process, stopped after the last file.
    globalSetup: ["test/global-setup.ts"],
    maxWorkers: 1,
    isolate: false,
  },
});
