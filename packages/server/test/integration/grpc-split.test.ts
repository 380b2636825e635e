import { defineConformanceSuite } from "@slotgate/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChain, type ChainHandle } from "../../src/chain/start-chain.js";
import { chainSettingsFromEnv } from "../../src/chain/chain-config.js";
import { createLogger, openDatabase, runCli, type Database } from "../../src/index.js";
import { type ChainGrpcServer, serveChainService } from "../../src/grpc/server.js";
import { connectRemoteChain } from "../../src/grpc/client.js";
import { newUser, pinOf, postBasic } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { startTestServer, TEST_DB, type TestServer } from "../support/harness.js";

/**
 * The front-service / chain-service split: the chain service runs behind gRPC (its own database and
 * in-process chain here) and the HTTP server reaches it through CHAIN_SERVICE_URL. The shared
 * conformance suite (content tokens included) and the PIN / ownership calls run through it.
 */
const TOKEN = "grpc-test-token-0123456789abcdefghijkl";
let chainDb: Database;
let chain: ChainHandle;
let grpcServer: ChainGrpcServer;
let server: TestServer;

beforeAll(async () => {
  chainDb = await openDatabase({});
  chain = (await startChain(chainSettingsFromEnv({ CHAIN: "in-process" }), chainDb, () => undefined)) as ChainHandle;
  grpcServer = await serveChainService(chain.service, { host: "127.0.0.1", port: 0, log: createLogger("silent"), token: TOKEN, devChain: true });
  server = await startTestServer({ CHAIN: "", CHAIN_SERVICE_URL: grpcServer.address, CHAIN_SERVICE_TOKEN: TOKEN });
});
afterAll(async () => {
  await server?.close();
  await grpcServer?.close();
  await chain?.close();
  await chainDb?.close();
});

describe("HTTP server -> gRPC chain service", () => {
  it("health reports the remote chain; PIN register and verify run in the chain-service process", async () => {
    const health = await call(server.url, "GET", "/healthz");
    expect(health.json).toMatchObject({ status: "ok", chain: "remote" });
    const client = await registerClient(server.url, { blockchain: true });
    const user = await newUser(server, client);
    expect(user.contentAddress).toBe(await chain.service.contentAddressFor(user.uuid));
    const pin = pinOf("31415");
    const reg = await call(server.url, "POST", "/v1/pin/register", { token: user.token, body: { user_uuid: user.uuid, ...pin } });
    expect(reg.status).toBe(200);
    const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
    const wrong = await call(server.url, "POST", "/v1/pin/verify", { token: user.token, body: { user_uuid: user.uuid, ...pinOf("0000", pin.pin_salt), key_share_user: share } });
    expect([wrong.status, wrong.json["error"], wrong.json["details"]]).toEqual([401, "pin_invalid", [{ path: "remaining_attempts", message: "4" }]]);
    const ok = await call(server.url, "POST", "/v1/pin/verify", { token: user.token, body: { user_uuid: user.uuid, ...pin, key_share_user: share } });
    expect(ok.status).toBe(200);
  });

  it("ownership: the slot exchange is signed in the chain-service process; not_owner keeps its code across gRPC", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const [from, to] = [await newUser(server, client), await newUser(server, client)];
    const pin = pinOf("2718");
    const reg = await call(server.url, "POST", "/v1/pin/register", { token: from.token, body: { user_uuid: from.uuid, ...pin } });
    const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
    const cuid = `grpc-${Date.now()}`;
    expect((await postBasic(server, client, "/v1/development-api/init_permission_provider", { client_id: client.client_id, cuid, release_per: 5, owner_addr: `0x${"ab".repeat(20)}` })).status).toBe(200);
    const slot = await postBasic(server, client, "/v1/dev/register_slot", { client_id: client.client_id, cuid, meta_idx: 1, user_id: from.userId });
    expect(slot.status, "dev routes follow the remote in-process chain").toBe(200);
    const body = { state: "grpc-state-1", cu_id: cuid, from_uuid: from.userId, to_uuid: to.userId, meta_idx: 1, ...pin, key_share_user: share };
    const moved = await call(server.url, "POST", "/idex-platform/exchange_token_owner", { token: from.token, body });
    expect(moved.status).toBe(200);
    expect(moved.json["new_owner"]).toBe(await chain.service.walletAddressFor(to.uuid));
    const again = await call(server.url, "POST", "/idex-platform/exchange_token_owner", { token: from.token, body: { ...body, state: "grpc-state-2" } });
    expect([again.status, again.json["error"]]).toEqual([403, "not_owner"]);
    expect((await server.sql("SELECT tx_hash FROM slot_exchange_states WHERE from_uuid = $1", [from.userId])).length, "the state token is recorded on the HTTP side").toBe(1);
  });

  it("a client without the shared token is refused; an unreachable process is chain_unavailable", async () => {
    await expect(connectRemoteChain(grpcServer.address, { token: null })).rejects.toMatchObject({ name: "RemoteChainError" });
    await expect(connectRemoteChain("127.0.0.1:1", { timeoutMs: 2000 })).rejects.toMatchObject({ code: "chain_unavailable" });
  });

  it("operator CLI commands reach the chain through CHAIN_SERVICE_URL", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const env = { CHAIN_SERVICE_URL: grpcServer.address, CHAIN_SERVICE_TOKEN: TOKEN, LOG_LEVEL: "silent" };
    expect(await runCli(["dev", "fund-slot", "--user-id", "424242", "--xotn", "777"], env, io), err.join("\n")).toBe(0);
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ success: true, user_id: "424242", xotn: "777", slot: await chain.service.contentAddressFor(424242) });
    const cuid = `cli-${Date.now()}`;
    await chain.service.initPermissionProvider({ client_id: "sg_cli_test", cuid, release_per: 10, owner_addr: `0x${"cd".repeat(20)}` });
    expect(await runCli(["release", "enable", "--cuid", cuid], env, io), err.join("\n")).toBe(0);
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ success: true, cuid, enabled: true });
    expect(await runCli(["release", "enable", "--cuid", "no-such-cuid"], env, io)).toBe(1);
    expect(JSON.parse(err.at(-1)!)).toMatchObject({ success: false });
    expect(await runCli(["dev", "fund-slot", "--user-id", "x", "--xotn", "1"], env, io)).toBe(2);
    expect(await runCli(["release", "enable", "--cuid", "c"], { CHAIN: "off", LOG_LEVEL: "silent" }, io)).toBe(2);
    expect(err.join("\n")).toContain("CHAIN=off");
  });
});

defineConformanceSuite({
  name: `reference server with the gRPC chain service (${TEST_DB === "postgres" ? "PostgreSQL" : "PGlite"})`,
  baseUrl: () => server.url,
  operator: {
    async enableRelease(cuid) {
      await chain.service.enableRelease(cuid);
    },
    async fundSlot({ user_id, xotn }) {
      await chain.service.devFundSlot({ user_uuid: Number(user_id), xotn });
    },
  },
  features: { contentTokens: true },
});
