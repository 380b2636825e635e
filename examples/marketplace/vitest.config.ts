import { defineConfig } from "vitest/config";

// test/storage.test.ts runs its table tests on PGlite always and on PostgreSQL when SLOTGATE_TEST_DATABASE_URL is set
// (`npm test` sets it when PostgreSQL answers; CI requires it).
if (!process.env["SLOTGATE_TEST_DATABASE_URL"]) {
  console.warn(
    "[example-marketplace] the PostgreSQL cases of test/storage.test.ts left out: SLOTGATE_TEST_DATABASE_URL is not set (npm test sets it when PostgreSQL answers).",
  );
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
