import { join } from "node:path";
import { type ReferenceServer, startReferenceServer } from "@slotgate/server/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runExample } from "./run-example.js";

// Runs the example's command (the built dist/main.js) against the reference server, as its README says.
let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ env: { LOG_LEVEL: "warn", RATE_LIMIT: "off" } });
});
afterAll(() => server?.close());

it("onboards as a provider, turns a player's JWT into slot info, then buys, spends, reads balances and releases", async () => {
  const r = await runExample(join(import.meta.dirname, "../dist/main.js"), { SLOTGATE_URL: server.url, SLOTGATE_DATA_DIR: server.dataDir });
  expect(r.stdout).toContain("== 1. registered client application");
  expect(r.stdout).toMatch(/== 2\. slot info \(getSlotInfo\)\n\{\n\s+"user_id": "\d+",\n\s+"content_address": "0x[0-9a-fA-F]{40}"/);
  expect(r.stdout).toContain('"status": "logged_in"');
  expect(r.stdout, r.stdout).toContain('"local_encryption_matches_service": true');
  expect(r.stdout).toMatch(
    /== 4\. purchase\n\{[^}]*"token_amount": "1000",\n\s+"xotn_paid": "1000",\n\s+"platform_fee": "150",\n\s+"provider_received": "850"/,
  );
  expect(r.stdout).toMatch(/== 5\. encrypted spend\n\{[^}]*"amount": "250",\n\s+"balance": "750",\n\s+"used_balances": "250"/);
  expect(r.stdout).toMatch(/== 6\. balance\n\{[^}]*"balance": "750",\n\s+"used_balances": "250"/);
  expect(r.stdout).toMatch(/== 7\. release\n\{[^}]*"released_amount": "18"/); // floor(250 used * 15 % fee * 50 %)
  expect(r.stdout).toContain('"transfer_enabled": true');
  expect(r.code, r.stdout).toBe(0);
  expect(r.stdout + r.stderr).not.toMatch(/client_secret|aes_key/);
});
