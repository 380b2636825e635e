#!/usr/bin/env node
// The demo's end-to-end test on its own: builds the server and the demo app, then drives `npm start`'s demo in
// headless Chromium from popup sign-up to release (examples/web-app/test/demo.e2e.test.ts).
//   node scripts/demo-e2e.mjs                        screenshots in examples/web-app/test-results/screenshots/
//   node scripts/demo-e2e.mjs --update-screenshots   screenshots in docs/images/ (commit them)
// With CI set, a missing Chromium fails instead of leaving the test out.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const bin = (name) => join(root, "node_modules/.bin", name);
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1" };
if (process.argv.includes("--update-screenshots")) env.SLOTGATE_UPDATE_SCREENSHOTS = "1";

const build = spawnSync(bin("turbo"), ["run", "build", "--filter=@slotgate/example-web-app...", "--output-logs=errors-only"], {
  cwd: root,
  env,
  stdio: "inherit",
});
if (build.status !== 0) process.exit(build.status ?? 1);
const test = spawnSync(bin("vitest"), ["run", "test/demo.e2e.test.ts"], { cwd: join(root, "examples/web-app"), env, stdio: "inherit" });
process.exit(test.status ?? 1);
