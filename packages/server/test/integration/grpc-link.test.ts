import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import grpc from "@grpc/grpc-js";
import { USER_CALL_METHODS } from "@slotgate/chain-service";
import { type Database, openDatabase } from "@slotgate/storage";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerAssertions } from "../../src/chain-api/chain/caller-assertions.js";
import { type ChainHandle, startChain } from "../../src/chain-api/chain/start-chain.js";
import { chainSettingsFromEnv } from "../../src/platform/config/chain-env.js";
import { ConfigError } from "../../src/platform/config/env.js";
import { createLogger, loadConfig, migrateServer, startServer } from "../../src/index.js";
import { connectRemoteChain } from "../../src/chain-api/grpc/client.js";
import { chainServiceDefinition, METADATA } from "../../src/chain-api/grpc/definition.js";
import { type ChainGrpcServer, linkCredentialWarning, serveChainService } from "../../src/chain-api/grpc/server.js";
import { createKeyStore, generateSigningKey, type KeyStore } from "../../src/oauth/keys/key-store.js";
import { newUser, pinOf } from "../support/chain-flows.js";
import { call, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { makeTestPki, type TestPki } from "../support/tls-certs.js";

/**
 * The chain-service link as an attacker meets it (docs/decisions/chain-link.md): TLS and mutual TLS on
 * the gRPC channel, the shared token, and the caller assertions the chain service requires of every
 * user call from another process.
 */
const TOKEN = "grpc-link-token-0123456789abcdefghijkl";
let pki: TestPki;
let chainDb: Database;
let chainDir: string;
let chain: ChainHandle;
let frontKeys: KeyStore;
let tlsServer: ChainGrpcServer;
let mtlsServer: ChainGrpcServer;
let server: TestServer;
const silent = createLogger("silent");

beforeAll(async () => {
  pki = makeTestPki();
  chainDb = await openDatabase({});
  chainDir = mkdtempSync(join(tmpdir(), "sg-grpc-link-"));
  const frontKey = await generateSigningKey();
  frontKeys = await createKeyStore([frontKey]);
  const settings = chainSettingsFromEnv({
    CHAIN: "anvil",
    ANVIL_PORT: "0",
    CHAIN_KEK: "cd".repeat(32),
    CHAIN_CALLER_JWKS: JSON.stringify(frontKeys.jwks()),
    CHAIN_SERVICE_TLS_CERT: pki.serverCert,
    CHAIN_SERVICE_TLS_KEY: pki.serverKey,
  });
  chain = (await startChain(settings, chainDb, { dataDir: chainDir, warn: () => undefined })) as ChainHandle;
  tlsServer = await serveChainService(chain.service, { host: "127.0.0.1", port: 0, log: silent, token: TOKEN, tls: settings.tls.server, devChain: true });
  mtlsServer = await serveChainService(chain.service, {
    host: "127.0.0.1",
    port: 0,
    log: silent,
    tls: { cert: pki.read(pki.serverCert), key: pki.read(pki.serverKey), clientCa: pki.read(pki.ca) },
  });
  server = await startTestServer(
    { CHAIN: "", CHAIN_SERVICE_URL: tlsServer.address, CHAIN_SERVICE_TOKEN: TOKEN, CHAIN_SERVICE_TLS_CA: pki.ca, CHAIN_SERVICE_TLS_SERVER_NAME: "localhost" },
    [frontKey],
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
  await tlsServer?.close();
  await mtlsServer?.close();
  await chain?.close();
  await chainDb?.close();
  if (chainDir) rmSync(chainDir, { recursive: true, force: true });
  pki?.remove();
});

/** The client side of TLS: the CA to trust, a client identity, and the certificate's name (the address is an IP). */
const tlsTo = (ca: string, identity?: { cert: string; key: string }) => ({
  ca: pki.read(ca),
  cert: identity ? pki.read(identity.cert) : null,
  key: identity ? pki.read(identity.key) : null,
  serverName: "localhost",
});

/** What the chain service holds and the chain's height: a refused call changes none of it. */
async function chainState(): Promise<string> {
  const rows = await chainDb.query<{ t: string; n: string }>(
    `SELECT 'wallets' AS t, count(*)::text AS n FROM cs_wallets UNION ALL SELECT 'owners', coalesce(string_agg(owner_eoa, ',' ORDER BY user_uuid), '') FROM cs_wallets
     UNION ALL SELECT 'writes', count(*)::text FROM cs_writes UNION ALL SELECT 'attempts', count(*)::text FROM cs_pin_attempts
     UNION ALL SELECT 'assertions', count(*)::text FROM cs_caller_assertions UNION ALL SELECT 'slots', count(*)::text FROM cs_slot_exchange_states
     UNION ALL SELECT 'opened slots', coalesce(string_agg(cuid || '/' || meta_idx || '/' || user_uuid || '/' || active, ',' ORDER BY cuid, meta_idx), '') FROM cs_slots`,
  );
  const node = await fetch(chain.rpcUrl as string, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  const height = ((await node.json()) as { result: string }).result;
  return JSON.stringify({ rows, height });
}

describe("TLS on the chain-service link", () => {
  it("the front service reaches the chain service over TLS: PIN register, verify and a mailbox-proven recovery", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const user = await newUser(server, client);
    const pin = pinOf("27182");
    const reg = await call(server.url, "POST", "/v1/pin/register", { token: user.token, body: { user_uuid: user.uuid, ...pin } });
    expect(reg.status, JSON.stringify(reg.json)).toBe(200);
    const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
    const verify = await call(server.url, "POST", "/v1/pin/verify", { token: user.token, body: { user_uuid: user.uuid, ...pin, key_share_user: share } });
    expect(verify.status).toBe(200);
    const newPin = pinOf("31415");
    const body = { user_uuid: user.uuid, ...newPin };
    const started = await call(server.url, "POST", "/v1/pin/recover/code", { token: user.token, body });
    expect(started.status).toBe(200);
    const code = await server.mail.nextCode(user.email);
    const owner = (await chainDb.query<{ owner_eoa: string }>("SELECT owner_eoa FROM cs_wallets WHERE user_uuid = $1", [user.uuid]))[0]!.owner_eoa;
    const recovered = await call(server.url, "POST", "/v1/pin/recover", {
      token: user.token,
      body: { ...body, recovery_id: started.json["recovery_id"], code },
    });
    expect(recovered.status, JSON.stringify(recovered.json)).toBe(200);
    const rekeyed = (await chainDb.query<{ owner_eoa: string }>("SELECT owner_eoa FROM cs_wallets WHERE user_uuid = $1", [user.uuid]))[0]!.owner_eoa;
    expect(rekeyed).not.toBe(owner);
  });

  it("refuses a plain-text client, a client that does not trust its certificate, and a client without the token", async () => {
    await expect(connectRemoteChain(tlsServer.address, { token: TOKEN, timeoutMs: 3000 })).rejects.toMatchObject({ code: "chain_unavailable" });
    await expect(connectRemoteChain(tlsServer.address, { token: TOKEN, tls: tlsTo(pki.rogueCa), timeoutMs: 3000 })).rejects.toMatchObject({
      code: "chain_unavailable",
    });
    await expect(connectRemoteChain(tlsServer.address, { token: null, tls: tlsTo(pki.ca), timeoutMs: 3000 })).rejects.toMatchObject({
      code: "service_unavailable",
    });
    await expect(connectRemoteChain(tlsServer.address, { token: `${TOKEN}x`, tls: tlsTo(pki.ca), timeoutMs: 3000 })).rejects.toMatchObject({
      code: "service_unavailable",
    });
    const good = await connectRemoteChain(tlsServer.address, { token: TOKEN, tls: tlsTo(pki.ca) });
    expect(good.service.addresses.exchange).toBe(chain.service.addresses.exchange);
    await good.close();
  });

  it("a front service whose CA does not issue the chain service's certificate does not start", async () => {
    const rogue = {
      CHAIN: "",
      CHAIN_SERVICE_URL: tlsServer.address,
      CHAIN_SERVICE_TOKEN: TOKEN,
      CHAIN_SERVICE_TLS_CA: pki.rogueCa,
      CHAIN_SERVICE_TLS_SERVER_NAME: "localhost",
    };
    await expect(startTestServer(rogue)).rejects.toMatchObject({ code: "chain_unavailable" });
    // A certificate names hosts: over TLS an IP address needs the name the certificate carries.
    expect(() => chainSettingsFromEnv({ ...rogue, CHAIN_SERVICE_TLS_SERVER_NAME: "" })).toThrow(/CHAIN_SERVICE_TLS_SERVER_NAME is required/);
    expect(chainSettingsFromEnv({ ...rogue, CHAIN_SERVICE_URL: "chain.internal:50051", CHAIN_SERVICE_TLS_SERVER_NAME: "" }).tls.client?.serverName).toBeNull();
  });

  it("in production, a front service refuses a chain service that runs a development chain", async () => {
    const key = await generateSigningKey();
    const config = loadConfig({
      SLOTGATE_ENV: "production",
      DATABASE_URL: "postgres://slotgate@db.internal:5432/slotgate",
      SIGNING_KEYS: JSON.stringify([key]),
      CLIENT_SECRET_PEPPER: "p".repeat(40),
      SMTP_URL: "smtp://127.0.0.1:1",
      PUBLIC_URL: "https://login.slotgate.example",
      PORT: "0",
      LOG_LEVEL: "silent",
      CHAIN_SERVICE_URL: tlsServer.address,
      CHAIN_SERVICE_TOKEN: TOKEN,
      CHAIN_SERVICE_TLS_CA: pki.ca,
      CHAIN_SERVICE_TLS_SERVER_NAME: "localhost",
    });
    const db = await openDatabase({});
    try {
      await migrateServer(db);
      const resources = { db, keys: await createKeyStore([key]), config, warnings: [] };
      await expect(startServer(config, { resources, log: silent })).rejects.toThrow(/CHAIN_SERVICE_URL names a chain service on a development chain/);
    } finally {
      await db.close();
    }
  });

  it("mutual TLS: a caller needs a certificate from the configured CA", async () => {
    await expect(connectRemoteChain(mtlsServer.address, { tls: tlsTo(pki.ca), timeoutMs: 3000 })).rejects.toMatchObject({ code: "chain_unavailable" });
    await expect(
      connectRemoteChain(mtlsServer.address, { tls: tlsTo(pki.ca, { cert: pki.rogueClientCert, key: pki.rogueClientKey }), timeoutMs: 3000 }),
    ).rejects.toMatchObject({
      code: "chain_unavailable",
    });
    const good = await connectRemoteChain(mtlsServer.address, { tls: tlsTo(pki.ca, { cert: pki.clientCert, key: pki.clientKey }) });
    expect(good.service.addresses.xotn).toBe(chain.service.addresses.xotn);
    await good.close();
  });

  it("off loopback the chain service needs a credential (the token or mutual TLS); on loopback it says it runs without", async () => {
    expect(() => linkCredentialWarning({ host: "0.0.0.0", token: null, tls: null })).toThrow(ConfigError);
    expect(() => linkCredentialWarning({ host: "10.0.0.5", token: null, tls: { cert: Buffer.from(""), key: Buffer.from(""), clientCa: null } })).toThrow(
      /CHAIN_SERVICE_TOKEN/,
    );
    expect(linkCredentialWarning({ host: "0.0.0.0", token: TOKEN, tls: null })).toBeNull();
    expect(linkCredentialWarning({ host: "0.0.0.0", token: null, tls: { cert: Buffer.from(""), key: Buffer.from(""), clientCa: Buffer.from("") } })).toBeNull();
    for (const host of ["127.0.0.1", "::1", "[::1]", "localhost"])
      expect(linkCredentialWarning({ host, token: null, tls: null })).toMatch(/^DEVELOPMENT DEFAULT/);
    await expect(serveChainService(chain.service, { host: "0.0.0.0", port: 0, log: silent })).rejects.toThrow(/CHAIN_SERVICE_TOKEN/);
  });
});

/** One raw unary call with chosen metadata: the wire error's code, or "ok". */
function rawCall(client: grpc.Client, method: string, args: unknown[], metadata: Record<string, string>): Promise<string> {
  const md = new grpc.Metadata();
  for (const [key, value] of Object.entries(metadata)) md.set(key, value);
  return new Promise((resolve) => {
    (client as unknown as Record<string, (...a: unknown[]) => void>)[method]!.call(
      client,
      args,
      md,
      { deadline: Date.now() + 10_000 },
      (error: grpc.ServiceError | null) => {
        if (!error) return resolve("ok");
        const wire = error.metadata?.get(METADATA.error)[0];
        resolve(typeof wire === "string" ? (JSON.parse(wire) as { code: string }).code : `grpc:${error.code}`);
      },
    );
  });
}

describe("caller assertions are not bearer tokens", () => {
  it("an assertion presented to the HTTP API, with or without the issuer, is 401 invalid_token", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const user = await newUser(server, client);
    const assertion = callerAssertions(frontKeys)(user.uuid, "verifyPin");
    const [, payload] = assertion.split(".");
    const withIssuer = frontKeys.sign(
      { alg: "ES256", kid: frontKeys.activeKid, typ: "slotgate-chain-call+jwt" },
      { ...(JSON.parse(Buffer.from(payload!, "base64url").toString()) as object), iss: server.url, aud: undefined },
    );
    for (const token of [assertion, withIssuer]) {
      const res = await call(server.url, "POST", "/v1/pin/register", { token, body: { user_uuid: user.uuid, ...pinOf("1212") } });
      expect([res.status, res.json["error"]]).toEqual([401, "invalid_token"]);
    }
  });
});

describe("evidence, not flags: direct gRPC calls", () => {
  const Client = grpc.makeGenericClientConstructor(chainServiceDefinition, "ChainService");
  const channel = () => grpc.credentials.createSsl(pki.read(pki.ca));

  it("a caller holding the token but not the front service's key moves nothing: random calls without valid credentials or evidence (property)", async () => {
    const client = await registerClient(server.url, { blockchain: true });
    const victim = await newUser(server, client);
    const pin = pinOf("8675309");
    const reg = await call(server.url, "POST", "/v1/pin/register", { token: victim.token, body: { user_uuid: victim.uuid, ...pin } });
    const share = (reg.json["data"] as Array<{ key_share_user: string }>)[0]!.key_share_user;
    const grpcClient = new Client(tlsServer.address, channel(), { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" });
    const rogueKeys = await createKeyStore([await generateSigningKey()]);
    const forge = callerAssertions(rogueKeys);
    const genuine = callerAssertions(frontKeys);
    const victimId = victim.uuid;
    // Bodies a thief would send for the victim: well-formed, so only the evidence (or the token) stops them.
    const userCalls: Record<string, unknown[]> = {
      registerPin: [{ user_uuid: victimId, ...pinOf("0000") }],
      verifyPin: [{ user_uuid: victimId, ...pin, key_share_user: share, operation: { kind: "erc20_transfer", to: `0x${"99".repeat(20)}`, amount: "1" } }],
      resetPin: [
        {
          user_uuid: victimId,
          mnemonic: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
          new_pin_hash: pin.pin_hash,
          new_pin_salt: pin.pin_salt,
        },
      ],
      transferToken: [
        victimId,
        {
          from_address: victim.contentAddress,
          to_address: `0x${"99".repeat(20)}`,
          amount: "1",
          contract_address: chain.service.addresses.xotn,
          ...pin,
          key_share_user: share,
        },
      ],
      exchangeSlotOwner: [{ state: "s", cu_id: "c", from_uuid: String(victimId), to_uuid: String(victimId + 1), meta_idx: 1, ...pin, key_share_user: share }],
      recover: [{ user_uuid: victimId, ...pinOf("4444") }],
      fundWallet: [{ user_uuid: victimId, xotn: "1000" }],
      enableRelease: ["c", true],
      devFundSlot: [{ user_uuid: victimId, xotn: "10", cuid: "c", client_id: "sg_x" }],
      openSlot: [victimId, "c"],
      activateSlot: [victimId, "c", 0],
    };
    const before = await chainState();
    const methods = Object.keys(userCalls);
    expect(USER_CALL_METHODS.every((m) => methods.includes(m))).toBe(true);
    const evidence = fc.constantFrom("none", "forged", "other-user", "other-call", "garbage", "unsigned");
    const credential = fc.constantFrom("none", "wrong-token", "token");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), credential, evidence, async (method, cred, kind) => {
        const userCall = USER_CALL_METHODS.includes(method as never) || method === "recover";
        // With the right token, only user calls are in reach (the others are the token holder's by design).
        if (cred === "token" && !userCall) return;
        const assertion =
          kind === "none"
            ? null
            : kind === "forged"
              ? forge(victimId, method)
              : kind === "other-user"
                ? genuine(victimId + 1, method)
                : kind === "other-call"
                  ? genuine(victimId, method === "verifyPin" ? "transferToken" : "verifyPin")
                  : kind === "garbage"
                    ? "eyJhbGciOiJub25lIn0.e30."
                    : genuine(victimId, method).split(".").slice(0, 2).join(".") + ".";
        const metadata: Record<string, string> = {};
        if (cred !== "none") metadata[METADATA.token] = `Bearer ${cred === "token" ? TOKEN : "x".repeat(40)}`;
        let args = userCalls[method]!;
        if (method === "recover") args = [{ ...(args[0] as object), assertion: assertion ?? "" }];
        else if (assertion !== null) metadata[METADATA.assertion] = assertion;
        const outcome = await rawCall(grpcClient, method, args, metadata);
        expect(outcome, `${method} ${cred} ${kind}`).not.toBe("ok");
        expect(["service_unavailable", "invalid_caller_assertion", "invalid_request"]).toContain(outcome);
      }),
      { numRuns: 120 },
    );
    grpcClient.close();
    expect(await chainState()).toBe(before);
    // The genuine front service still serves the victim.
    const ok = await call(server.url, "POST", "/v1/pin/verify", { token: victim.token, body: { user_uuid: victim.uuid, ...pin, key_share_user: share } });
    expect(ok.status).toBe(200);
  });
});
