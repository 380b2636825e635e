import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";

/** CI is "true" or "1", read as scripts/test.mjs reads it. */
const onCi = process.env["CI"] === "true" || process.env["CI"] === "1";
const chromium = process.env["SLOTGATE_CHROMIUM"] ?? "/usr/bin/chromium";
const BROWSER_E2E = "test/e2e/**";
const includeBrowser = onCi || existsSync(chromium);
if (!includeBrowser) console.warn(`[react] ${BROWSER_E2E} left out: no Chromium at ${chromium} (apt-get install -y chromium).`);

/**
 * Unit tests run in happy-dom with React Testing Library (test/*.test.tsx); test/ssr.test.tsx renders on the
 * server (node environment, no window). test/e2e/ drives headless Chromium against the real reference server
 * (@slotgate/server, built first by turbo's `^build`), required on CI.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.{ts,tsx}"],
    exclude: includeBrowser ? [] : [BROWSER_E2E],
    environment: "happy-dom",
    environmentOptions: { happyDOM: { url: "https://game.test/" } },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
