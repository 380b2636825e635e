import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One in-process EVM per file is plenty on two shared cores.
    fileParallelism: false,
  },
});
