import { createHash, randomBytes } from "node:crypto";
import { defineConformanceSuite } from "@slotgate/conformance";
import { afterAll, beforeAll } from "vitest";
import { expireDevice } from "../../src/oauth/device/device-authorizations-store.js";
import { startTestServer, TEST_DB, type TestServer } from "../support/harness.js";

/**
 * The shared HTTP-contract suite, against the real server on 127.0.0.1 (PGlite and PostgreSQL projects),
 * with the in-process chain (content tokens included). The operator actions without a public HTTP API
 * call the server's chain service in process.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ CHAIN: "anvil" });
});
afterAll(async () => server?.close());

const chain = () => {
  const handle = server.slotgate.services.chain;
  if (!handle) throw new Error("the test server runs without its chain");
  return handle.service;
};

defineConformanceSuite({
  name: `reference server (${TEST_DB === "postgres" ? "PostgreSQL" : "PGlite"})`,
  baseUrl: () => server.url,
  operator: {
    async enableRelease(cuid) {
      await chain().enableRelease(cuid);
    },
    async fundSlot({ client_id, user_id, xotn, cuid }) {
      await chain().devFundSlot({ user_uuid: Number(user_id), xotn, cuid, client_id });
    },
    async issueExpiredToken({ user_id, client_id }) {
      const expiresAt = new Date(Date.now() - 120_000);
      return server.slotgate.services.tokens.signAccessToken(user_id, client_id, `expired-${Date.now()}`, expiresAt);
    },
    async ensureWallet({ user_id }) {
      const user_uuid = Number(user_id);
      if ((await chain().walletAddressFor(user_uuid)) !== null) return;
      const pin_salt = randomBytes(32).toString("hex");
      await chain().registerPin({ user_uuid, pin_salt, pin_hash: createHash("sha256").update(`123456${pin_salt}`).digest("hex") });
    },
    async expireDeviceAuthorization(userCode) {
      if (!(await expireDevice(server.slotgate.services.db, userCode.replace("-", "")))) throw new Error(`no device authorization ${userCode}`);
    },
  },
  readMailedCode: (email) => server.mail.nextCode(email),
  features: { contentTokens: true },
});
