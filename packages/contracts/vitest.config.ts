import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each test file boots its own in-process Hardhat chain in its own worker.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
