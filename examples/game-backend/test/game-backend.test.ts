import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runExample, startReferenceServer } from "./reference-server.js";

// Runs the example's command (the built dist/main.js) against the reference server, as its README says.
let server: Awaited<ReturnType<typeof startReferenceServer>>;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server?.close());

it("onboards as a provider, turns a player's JWT into slot info, then buys, spends, reads balances and releases", async () => {
  const contentTokens = (await fetch(`${server.url}/v1/development-api/test_encryption`, { method: "POST" })).status !== 404;
  const r = await runExample(join(import.meta.dirname, "../dist/main.js"), { SLOTGATE_URL: server.url });
  expect(r.stdout).toContain("== 1. registered client application");
  expect(r.stdout).toMatch(/== 2\. slot info \(getSlotInfo\)\n\{\n\s+"user_id": "\d+",\n\s+"content_address": "0x[0-9a-fA-F]{40}"/);
  expect(r.stdout).toContain('"status": "logged_in"');
  if (contentTokens) {
    expect(r.stdout, r.stdout).toContain('"local_encryption_matches_service": true');
    expect(r.stdout).toMatch(/== 4\. purchase\n[\s\S]*"token_amount": "1000"/);
    expect(r.stdout).toMatch(/== 6\. balance\n[\s\S]*"balance": "750"[\s\S]*"used_balances": "250"/);
    expect(r.stdout).toMatch(/== 7\. release\n[\s\S]*"released_amount": "18"/); // floor(250 * 15 % * 50 %)
    expect(r.code).toBe(0);
  } else {
    // Until the chain wiring lands in @slotgate/server the example stops with a plain explanation and a failing exit code.
    expect(r.stdout).toContain("does not serve the content-token API yet");
    expect(r.code).toBe(1);
  }
  expect(r.stdout + r.stderr).not.toMatch(/client_secret|aes_key/);
});
