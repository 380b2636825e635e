import type { ChainService } from "@slotgate/chain-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChainHandle } from "../../src/index.js";
import { call } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/** CHAIN=off: the OAuth-only server runs without a chain; chain endpoints say so with 503. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ CHAIN: "off" });
});
afterAll(async () => server?.close());

describe("CHAIN=off", () => {
  it("health is ready on the database alone and reports the chain off", async () => {
    const res = await call(server.url, "GET", "/healthz");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok", chain: "off" });
  });

  it("every chain endpoint answers 503 service_unavailable; the dev-only routes do not exist", async () => {
    for (const [method, path] of [
      ["POST", "/v1/pin/register"],
      ["POST", "/v1/pin/verify"],
      ["POST", "/v1/pin/reset"],
      ["POST", "/v1/pin/recover"],
      ["POST", "/v1/pin/recover/code"],
      ["POST", "/v1/token/transfer"],
      ["POST", "/idex-platform/exchange_token_owner"],
      ["POST", "/v1/development-api/init_permission_provider"],
      ["POST", "/v1/development-api/user_buy_content_token"],
      ["POST", "/v1/development-api/increase_used_content_token"],
      ["POST", "/v1/development-api/release_used_balance"],
      ["POST", "/v1/development-api/test_encryption"],
      ["GET", `/v1/development-api/balance_adex/0x${"11".repeat(20)}`],
    ] as const) {
      const res = await call(server.url, method, path, method === "POST" ? { body: {} } : {});
      expect([res.status, res.json["error"]], path).toEqual([503, "service_unavailable"]);
    }
    const dev = await call(server.url, "POST", "/v1/dev/fund_slot", { body: {} });
    expect([dev.status, dev.json["error"]]).toEqual([404, "not_found"]);
  });
});

describe("/healthz waits for the chain", () => {
  it("answers 503 while the chain does not answer, 200 once it does", async () => {
    const { createKeyStore, generateSigningKey, loadConfig, migrateServer, startServer } = await import("../../src/index.js");
    const { openDatabase } = await import("@slotgate/storage");
    let up = false;
    const handle: ChainHandle = {
      mode: "rpc",
      service: {
        ready: async () => {
          if (!up) throw new Error("node down");
        },
      } as ChainService,
      devOperator: false,
      rpcUrl: null,
      close: async () => undefined,
    };
    const config = loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      CLIENT_SECRET_PEPPER: "test-pepper-0123456789abcdefghijklmnopqrstuv",
      SLOTGATE_SEED_DEMO: "off",
      CHAIN: "off",
    });
    const db = await openDatabase({});
    await migrateServer(db);
    const running = await startServer(config, {
      resources: { db, keys: await createKeyStore([await generateSigningKey()]), config, warnings: [] },
      chain: handle,
    });
    try {
      const down = await call(running.url, "GET", "/healthz");
      expect([down.status, down.json["error"]]).toEqual([503, "service_unavailable"]);
      up = true;
      const ready = await call(running.url, "GET", "/healthz");
      expect(ready.status).toBe(200);
      expect(ready.json).toMatchObject({ status: "ok", chain: "rpc" });
    } finally {
      await running.close();
    }
  });
});
