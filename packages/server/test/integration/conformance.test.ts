import { defineConformanceSuite } from "@slotgate/conformance";
import { afterAll, beforeAll } from "vitest";
import { startTestServer, TEST_DB, type TestServer } from "../support/harness.js";

/** The shared HTTP-contract suite, against the real server on 127.0.0.1 (PGlite and PostgreSQL projects). */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

defineConformanceSuite({
  name: `reference server (${TEST_DB === "postgres" ? "PostgreSQL" : "PGlite"})`,
  baseUrl: () => server.url,
  operator: {
    async enableRelease() {
      throw new Error("content tokens arrive with the chain service (issue 5)");
    },
    async issueExpiredToken({ user_id, client_id }) {
      const expiresAt = new Date(Date.now() - 120_000);
      return server.slotgate.services.tokens.signAccessToken(user_id, client_id, `expired-${Date.now()}`, expiresAt);
    },
  },
  features: { contentTokens: false },
});
