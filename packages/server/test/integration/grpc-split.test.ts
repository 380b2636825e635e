import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "@slotgate/storage";
import { defineConformanceSuite } from "@slotgate/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChain, type ChainHandle } from "../../src/chain-api/chain/start-chain.js";
import { chainSettingsFromEnv } from "../../src/platform/config/chain-env.js";
import { createLogger, runCli } from "../../src/index.js";
import { type ChainGrpcServer, serveChainService } from "../../src/chain-api/grpc/server.js";
import { connectRemoteChain } from "../../src/chain-api/grpc/client.js";
import { newUser, pinOf, postBasic } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { startTestServer, TEST_DB, type TestServer } from "../support/harness.js";
import { createKeyStore, generateSigningKey } from "../../src/oauth/keys/key-store.js";

/**
 * The front-service / chain-service split: the chain service runs behind gRPC (its own database and
 * in-process chain here) and the HTTP server reaches it through CHAIN_SERVICE_URL. The shared
 * conformance suite (content tokens included) and the PIN / ownership calls run through it.
 */
const TOKEN = "grpc-test-token-0123456789abcdefghijkl";
let chainDb: Database;
let chainDir: string;
let chain: ChainHandle;
let grpcServer: ChainGrpcServer;
let server: TestServer;
/** The chain-service process's log lines. */
const chainLines: string[] = [];

beforeAll(async () => {
  chainDb = await openDatabase({});
  chainDir = mkdtempSync(join(tmpdir(), "sg-grpc-chain-"));
  // The front service's signing key; the chain-service process trusts its public half (CHAIN_CALLER_JWKS).
  const frontKey = await generateSigningKey();
  const callerJwks = JSON.stringify((await createKeyStore([frontKey])).jwks());
  const settings = chainSettingsFromEnv({ CHAIN: "anvil", ANVIL_PORT: "0", CHAIN_KEK: "ab".repeat(32), CHAIN_CALLER_JWKS: callerJwks });
  chain = (await startChain(settings, chainDb, {
    dataDir: chainDir,
    warn: () => undefined,
    log: createLogger("debug", (l) => chainLines.push(l)),
  })) as ChainHandle;
  grpcServer = await serveChainService(chain.service, { host: "127.0.0.1", port: 0, log: createLogger("silent"), token: TOKEN, devChain: true });
  server = await startTestServer({ CHAIN: "", CHAIN_SERVICE_URL: grpcServer.address, CHAIN_SERVICE_TOKEN: TOKEN }, [frontKey]);
});
afterAll(async () => {
  await server?.close();
  await grpcServer?.close();
  await chain?.close();
  await chainDb?.close();
  if (chainDir) rmSync(chainDir, { recursive: true, force: true });
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
    const wrong = await call(server.url, "POST", "/v1/pin/verify", {
      token: user.token,
      body: { user_uuid: user.uuid, ...pinOf("0000", pin.pin_salt), key_share_user: share },
    });
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
    expect(
      (
        await postBasic(server, client, "/v1/development-api/init_permission_provider", {
          client_id: client.client_id,
          cuid,
          release_per: 5,
          owner_addr: `0x${"ab".repeat(20)}`,
        })
      ).status,
    ).toBe(200);
    const slot = await postBasic(server, client, "/v1/dev/register_slot", { client_id: client.client_id, cuid, meta_idx: 1, user_id: from.userId });
    expect(slot.status, "dev routes follow the remote in-process chain").toBe(200);
    const body = { state: "grpc-state-1", cu_id: cuid, from_uuid: from.userId, to_uuid: to.userId, meta_idx: 1, ...pin, key_share_user: share };
    const moved = await call(server.url, "POST", "/idex-platform/exchange_token_owner", { token: from.token, body });
    expect(moved.status).toBe(200);
    expect(moved.json["new_owner"]).toBe(await chain.service.walletAddressFor(to.uuid));
    const again = await call(server.url, "POST", "/idex-platform/exchange_token_owner", { token: from.token, body: { ...body, state: "grpc-state-2" } });
    expect([again.status, again.json["error"]]).toEqual([403, "not_owner"]);
    expect(
      (await chainDb.query("SELECT tx_hash FROM cs_slot_exchange_states WHERE from_uuid = $1", [from.userId])).length,
      "the chain service records the state token",
    ).toBe(1);
  });

  it("slots across gRPC: the code exchange answers the active slot; opening and activating (user calls) carry the front's caller assertion", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const cuid = `grpc-slots-${Date.now()}`;
    expect(
      (
        await postBasic(server, client, "/v1/development-api/init_permission_provider", {
          client_id: client.client_id,
          cuid,
          release_per: 5,
          owner_addr: `0x${"cd".repeat(20)}`,
        })
      ).status,
    ).toBe(200);
    const user = await newUser(server, client);
    const listed = await call(server.url, "GET", `/v1/slots?cu_id=${cuid}`, { token: user.token });
    expect((listed.json["slots"] as Array<{ slot: string; state: string }>).map((s) => [s.slot, s.state])).toEqual([[user.contentAddress, "active"]]);
    const opened = await call(server.url, "POST", "/v1/slots", { token: user.token, body: { cu_id: cuid } });
    expect(opened.status, JSON.stringify(opened.json)).toBe(201);
    const metaIdx = (opened.json["slot"] as { meta_idx: number }).meta_idx;
    const active = await call(server.url, "POST", "/v1/slots/activate", { token: user.token, body: { cu_id: cuid, meta_idx: metaIdx } });
    expect([active.status, (active.json["active"] as { state?: string } | undefined)?.state], JSON.stringify(active.json)).toEqual([200, "active"]);
  });

  it("the HTTP request's id reaches the chain-service process in the gRPC metadata: its log lines and the write carry it", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const user = await newUser(server, client);
    const id = `grpc-req-${Date.now()}`;
    const pin = pinOf("16180");
    const reg = await call(server.url, "POST", "/v1/pin/register", {
      token: user.token,
      body: { user_uuid: user.uuid, ...pin },
      headers: { "x-request-id": id },
    });
    expect(reg.status).toBe(200);
    const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
    const verify = await call(server.url, "POST", "/v1/pin/verify", {
      token: user.token,
      body: { user_uuid: user.uuid, ...pin, key_share_user: share },
      headers: { "x-request-id": id },
    });
    expect([verify.status, verify.headers.get("x-request-id")]).toEqual([200, id]);
    const lines = chainLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l["request_id"] === id);
    expect(lines.map((l) => [l["component"], l["msg"], l["method"]])).toEqual(
      expect.arrayContaining([
        ["chain-service", "chain-service call", "registerPin"],
        ["chain-service", "chain write requested", "verifyPin"],
      ]),
    );
  });

  it("a client without the shared token is refused; an unreachable process is chain_unavailable", async () => {
    await expect(connectRemoteChain(grpcServer.address, { token: null })).rejects.toMatchObject({ name: "ChainServiceError", code: "service_unavailable" });
    await expect(connectRemoteChain("127.0.0.1:1", { timeoutMs: 2000 })).rejects.toMatchObject({ code: "chain_unavailable" });
  });

  it("operator CLI commands reach the chain through CHAIN_SERVICE_URL", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const env = { CHAIN_SERVICE_URL: grpcServer.address, CHAIN_SERVICE_TOKEN: TOKEN, LOG_LEVEL: "silent" };
    const cuid = `cli-${Date.now()}`;
    await chain.service.initPermissionProvider({ client_id: "sg_cli_test", cuid, release_per: 10, owner_addr: `0x${"cd".repeat(20)}` });
    const fund = ["dev", "fund-slot", "--client-id", "sg_cli_test", "--cuid", cuid, "--user-id", "424242", "--xotn", "777"];
    expect(await runCli(fund, env, io), err.join("\n")).toBe(0);
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ success: true, user_id: "424242", xotn: "777", slot: await chain.service.contentAddressFor(424242) });
    expect(await runCli(["release", "enable", "--cuid", cuid], env, io), err.join("\n")).toBe(0);
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ success: true, cuid, enabled: true });
    expect(await runCli(["release", "enable", "--cuid", "no-such-cuid"], env, io)).toBe(1);
    expect(JSON.parse(err.at(-1)!)).toMatchObject({ success: false });
    expect(await runCli(["dev", "fund-slot", "--user-id", "x", "--xotn", "1"], env, io)).toBe(2);
    expect(await runCli(["dev", "fund-slot", "--user-id", "5", "--xotn", "1"], env, io), "no --client-id / --cuid").toBe(2);
    expect(await runCli(["release", "enable", "--cuid", "c"], { CHAIN: "off", LOG_LEVEL: "silent" }, io)).toBe(2);
    expect(err.join("\n")).toContain("CHAIN=off");
  });

  it("provider CLI verbs: status, register-cuid (key printed once), replay-protection, rotate-key — JSON out, audit actor cli", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "sg-provider-cli-"));
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const env = {
      CHAIN_SERVICE_URL: grpcServer.address,
      CHAIN_SERVICE_TOKEN: TOKEN,
      LOG_LEVEL: "silent",
      SLOTGATE_DATA_DIR: dataDir,
      PROVIDER_KEY_OVERLAP_SECONDS: "60",
    };
    const run = async (...argv: string[]) => {
      const code = await runCli(argv, env, io);
      return { code, json: code === 0 ? (JSON.parse(out.at(-1)!) as Record<string, unknown>) : {} };
    };
    try {
      expect((await run("migrate")).code).toBe(0);
      const created = await run(
        "client",
        "create",
        "--name",
        "P",
        "--redirect-uri",
        "https://p.example/cb",
        "--download-url",
        "https://p.example/dl",
        "--web-url",
        "https://p.example/",
        "--platform",
        "web",
        "--blockchain",
      );
      const clientId = String(created.json["client_id"]);
      expect((await run("provider", "status", "--client-id", clientId)).json).toMatchObject({ success: true, registered: false, cuids: [] });
      const cuid = `pcli-${Date.now()}`;
      const reg = await run(
        "provider",
        "register-cuid",
        "--client-id",
        clientId,
        "--cuid",
        cuid,
        "--release-per",
        "15",
        "--owner-addr",
        `0x${"ab".repeat(20)}`,
      );
      expect(reg.code, err.join("\n")).toBe(0);
      expect(reg.json["aes_key"]).toMatch(/^[0-9a-f]{64}$/);
      expect((await run("provider", "replay-protection", "on", "--client-id", clientId)).json).toMatchObject({ replay_protection: true });
      const rotated = await run("provider", "rotate-key", "--client-id", clientId);
      expect(rotated.json["aes_key"]).toMatch(/^[0-9a-f]{64}$/);
      expect(rotated.json["aes_key"]).not.toBe(reg.json["aes_key"]);
      const status = (await run("provider", "status", "--client-id", clientId)).json;
      expect(status).toMatchObject({ registered: true, replay_protection: true, previous_key_valid_until: rotated.json["previous_key_valid_until"] });
      expect(status["cuids"]).toEqual([expect.objectContaining({ cuid, release_per: 15, release_enabled: false })]);
      const audit = (await run("client", "audit", "--client-id", clientId)).json["entries"] as Array<{ actor: string; action: string }>;
      expect(audit.map((e) => e.action).slice(0, 3)).toEqual(["provider.key_rotated", "provider.replay_protection", "provider.cuid_registered"]);
      expect(audit.every((e) => e.actor === "cli")).toBe(true);

      expect(await runCli(["provider", "register-cuid", "--client-id", clientId, "--cuid", cuid, "--release-per", "x", "--owner-addr", "0x1"], env, io)).toBe(
        2,
      );
      expect(await runCli(["provider", "replay-protection", "maybe", "--client-id", clientId], env, io)).toBe(2);
      expect(await runCli(["provider", "rotate-key"], env, io)).toBe(2);
      expect(await runCli(["provider", "rotate-key", "--client-id", "sg_unknown"], env, io)).toBe(1);
      expect(err.at(-1)).toContain("client_not_found");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

defineConformanceSuite({
  name: `reference server with the gRPC chain service (${TEST_DB === "postgres" ? "PostgreSQL" : "PGlite"})`,
  baseUrl: () => server.url,
  operator: {
    async enableRelease(cuid) {
      await chain.service.enableRelease(cuid);
    },
    async fundSlot({ client_id, user_id, xotn, cuid }) {
      await chain.service.devFundSlot({ user_uuid: Number(user_id), xotn, cuid, client_id });
    },
  },
  readMailedCode: (email) => server.mail.nextCode(email),
  features: { contentTokens: true },
});
