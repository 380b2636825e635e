import { join } from "node:path";
import { freeLoopbackPort, type ReferenceServer, startReferenceServer } from "@slotgate/server/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runExample } from "./run-example.js";

// Runs the example's command with a scripted stand-in for the system browser (SLOTGATE_BROWSER).
let server: ReferenceServer;
let clientId = "";
let redirectUri = "";
beforeAll(async () => {
  redirectUri = `http://127.0.0.1:${await freeLoopbackPort()}/callback`;
  server = await startReferenceServer({
    env: { LOG_LEVEL: "warn", RATE_LIMIT: "off" },
    before(run) {
      const created = run([
        "client",
        "create",
        "--name",
        "Desktop example",
        "--redirect-uri",
        redirectUri,
        "--download-url",
        "https://game.example/dl",
        "--web-url",
        "https://game.example",
        "--platform",
        "desktop",
      ]) as Record<string, unknown>;
      clientId = String(created["client_id"]);
    },
  });
});
afterAll(() => server?.close());

const main = join(import.meta.dirname, "../dist/main.js");
const browser = `${process.execPath} ${join(import.meta.dirname, "fake-browser.mjs")}`;

it("signs a player in through slotgate-login and the service validates the JWT", async () => {
  const r = await runExample(main, {
    SLOTGATE_URL: server.url,
    SLOTGATE_CLIENT_ID: clientId,
    SLOTGATE_REDIRECT_URI: redirectUri,
    SLOTGATE_BROWSER: browser,
    FAKE_DATA_DIR: server.dataDir,
  });
  expect(r.code, r.stderr).toBe(0);
  const line = JSON.parse(r.stdout.trim()) as { signed_in: boolean; validate: Record<string, unknown> };
  expect(line).toMatchObject({
    signed_in: true,
    validate: { valid: true, client_id: clientId, token_use: "user_jwt", user_id: expect.stringMatching(/^\d+$/) },
  });
});

it("reports a declined sign-in as access_denied with exit code 1", async () => {
  const r = await runExample(main, {
    SLOTGATE_URL: server.url,
    SLOTGATE_CLIENT_ID: clientId,
    SLOTGATE_REDIRECT_URI: redirectUri,
    SLOTGATE_BROWSER: browser,
    FAKE_DECISION: "deny",
    FAKE_DATA_DIR: server.dataDir,
  });
  expect(r.code).toBe(1);
  expect(JSON.parse(r.stdout.trim())).toMatchObject({ signed_in: false, error: "access_denied" });
});
