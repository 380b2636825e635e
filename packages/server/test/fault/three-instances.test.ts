import { randomBytes, randomUUID } from "node:crypto";
import { type AnvilProcess, developmentKey, startAnvil } from "@slotgate/chain-service";
import { type SlotgateContracts, connectContracts } from "@slotgate/contracts";
import { encryptHex } from "@slotgate/protocol/crypto";
import { openDatabase } from "@slotgate/storage";
import { type Contract, JsonRpcProvider, Wallet } from "ethers";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, signUpPlayer, startReferenceServer } from "../../src/testing/index.js";
import { pinOf } from "../support/chain-flows.js";
import { call, randomEmail, registerClient } from "../support/flows.js";
import { type Receiver, startReceiver } from "../support/receiver.js";
import { PLATFORM_KEYS, deployOnNode } from "../support/rpc-chain.js";

/**
 * Issue 14's fault test: three `slotgate-server` processes on one PostgreSQL schema (and Redis) against one Anvil
 * node, configured alike (one operator, spend-recorder, bundler and paymaster key for all), under a mixed load of
 * logins, status changes, purchases, spends and sponsored transfers, each money call with an Idempotency-Key and
 * retried by the client, with the same key, on a network error, a 503 or a timeout. During the run one instance is
 * killed with SIGKILL and restarted, and the chain is paused (SIGSTOP / SIGCONT of Anvil). Afterwards the chain and
 * the database must say that every accepted purchase, spend and transfer happened exactly once and nothing else did.
 */
const DATABASE = process.env["SLOTGATE_TEST_PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
const SECRET = "fault-marketplace-secret-0123456789abcdef";
const BANK = developmentKey(20);
const RPC_TIMEOUT_MS = 2000;
/** How long after the pause an answer it caused may still arrive: the RPC timeout, plus queueing on a loaded machine. */
const PAUSE_TAIL_MS = RPC_TIMEOUT_MS + 10_000;

let node: AnvilProcess;
let provider: JsonRpcProvider;
let contracts: SlotgateContracts;
let marketplace: Receiver;
let schema: string;
const instances: ReferenceServer[] = [];

interface Player {
  userId: string;
  token: string;
  slot: string;
  wallet: string;
  pin: { pin_hash: string; pin_salt: string };
  keyShare: string;
}
let client: Awaited<ReturnType<typeof registerClient>>;
let cuid: string;
let spendKey: { key: string; iv: string };
const players: Player[] = [];
const sink = Wallet.createRandom().address;

/** Every HTTP answer the clients saw, with when it came; and how often a request got no answer at all. */
const seen: Array<{ status: number; at: number; path: string }> = [];
let unanswered = 0;

async function jwks(): Promise<string> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return JSON.stringify([{ ...(await exportJWK(privateKey)), kid: "fault-1", alg: "ES256" }]);
}

beforeAll(async () => {
  node = await startAnvil({ port: 0 });
  const { env: chainEnv } = await deployOnNode(node.rpcUrl);
  provider = new JsonRpcProvider(node.rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
  contracts = connectContracts(
    {
      xotn: chainEnv["XOTN_ADDRESS"]!,
      exchange: chainEnv["EXCHANGE_ADDRESS"]!,
      entryPoint: chainEnv["ENTRYPOINT_ADDRESS"]!,
      factory: chainEnv["FACTORY_ADDRESS"]!,
      paymaster: chainEnv["PAYMASTER_ADDRESS"]!,
    },
    provider,
  );
  // The players' XOTN comes from a bank account, funded by the treasury before any instance uses the operator key.
  const bank = new Wallet(BANK, provider);
  await provider.send("anvil_setBalance", [bank.address, "0x3635C9ADC5DEA00000"]);
  await (await (contracts.xotn.connect(new Wallet(PLATFORM_KEYS.operator, provider)) as Contract).getFunction("transfer")(bank.address, 10n ** 24n)).wait();

  marketplace = await startReceiver();
  schema = `sg_fault_${randomBytes(6).toString("hex")}`;
  const admin = await openDatabase({ databaseUrl: DATABASE, poolSize: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const env: Record<string, string | undefined> = {
    ...chainEnv,
    CHAIN: "",
    // One issuer for the three, as behind a load balancer (tokens issued by one instance verify on the others).
    PUBLIC_URL: "http://127.0.0.1:8080",
    SIGNING_KEYS: await jwks(),
    CLIENT_SECRET_PEPPER: randomBytes(32).toString("hex"),
    MARKETPLACE_URL: `${marketplace.url}/hooks/slotgate`,
    MARKETPLACE_SECRET: SECRET,
    MARKETPLACE_RETRY_BASE_MS: "100",
    REDIS_URL: process.env["SLOTGATE_TEST_REDIS_URL"],
    RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
    CHAIN_WRITE_WAIT_MS: "4000",
    RATE_LIMIT: "off",
    LOG_LEVEL: "warn",
  };
  // The first instance migrates; the other two join the same schema.
  instances.push(await startReferenceServer({ database: DATABASE, schema, env }));
  instances.push(...(await Promise.all([1, 2].map(() => startReferenceServer({ database: DATABASE, schema, env })))));

  const [first] = instances as [ReferenceServer];
  client = await registerClient(first.url, { blockchain: true, redirect_uris: ["https://game.example/callback"] });
  cuid = `fault-${randomBytes(4).toString("hex")}`;
  const provided = await call(first.url, "POST", "/v1/development-api/init_permission_provider", {
    headers: basicOf(),
    body: { client_id: client.client_id, cuid, release_per: 0, owner_addr: Wallet.createRandom().address },
  });
  expect(provided.status).toBe(200);
  spendKey = { key: String(provided.json["aes_key"]), iv: String(provided.json["aes_iv"]) };

  const xotn = contracts.xotn.connect(bank) as Contract;
  let bankNonce = await provider.getTransactionCount(bank.address);
  for (let n = 0; n < 6; n += 1) {
    const res = await signUpPlayer(first.url, first.dataDir, {
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0]!,
      state: `s${n}`,
      email: randomEmail("fault"),
      password: "fault-player-password",
    });
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    const token = await call(first.url, "POST", "/oauth/token", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: client.redirect_uris[0]!,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }).toString(),
    });
    expect(token.status).toBe(200);
    const userId = String(token.json["user_id"]);
    const accessToken = String(token.json["access_token"]);
    const pin = pinOf("246810");
    const reg = await call(first.url, "POST", "/v1/pin/register", { token: accessToken, body: { user_uuid: Number(userId), ...pin } });
    expect(reg.status, reg.text).toBe(200);
    const data = (reg.json["data"] as Array<{ address: string; key_share_user: string }>)[0]!;
    const player: Player = {
      userId,
      token: accessToken,
      slot: String(token.json["content_address"]),
      wallet: data.address,
      pin,
      keyShare: data.key_share_user,
    };
    await (await xotn.getFunction("transfer")(player.slot, 100_000n, { nonce: bankNonce++ })).wait();
    await (await xotn.getFunction("transfer")(player.wallet, 1_000n, { nonce: bankNonce++ })).wait();
    const consent = await call(first.url, "POST", "/v1/pin/verify", {
      token: accessToken,
      body: { user_uuid: Number(userId), ...pin, key_share_user: player.keyShare, operation: { kind: "approve_purchases", cuid, amount: "100000" } },
    });
    expect(consent.status, consent.text).toBe(200);
    players.push(player);
  }
}, 600_000);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
  provider?.destroy();
  await marketplace?.close();
  await node?.stop();
  if (schema) {
    const admin = await openDatabase({ databaseUrl: DATABASE, poolSize: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
});

function basicOf(): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { kind: "accepted"; body: Record<string, unknown> } | { kind: "refused"; status: number; error: string };

let nextInstance = 0;
/**
 * One call as a careful client makes it: to the next instance, with `key` as its Idempotency-Key; a network error, a
 * timeout or a 503 is retried with the same key on the next instance; a 202 is followed at its Location until settled.
 */
async function send(path: string, body: unknown, headers: Record<string, string>, key?: string): Promise<Outcome> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const instance = instances[nextInstance++ % instances.length]!;
    let res: Response;
    try {
      res = await fetch(instance.url + path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers, ...(key ? { "idempotency-key": key } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch {
      unanswered += 1;
      await sleep(200);
      continue; // killed instance, or a timeout: the same key elsewhere
    }
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    seen.push({ status: res.status, at: Date.now(), path });
    if (res.status === 503) {
      await sleep(300);
      continue;
    }
    if (res.status === 202) return follow(String(json["write_id"]), headers);
    if (res.status === 200) return { kind: "accepted", body: json };
    return { kind: "refused", status: res.status, error: `${String(json["error"])} (${String(json["message"])})` };
  }
  throw new Error(`${path} got no final answer`);
}

/** Follows a pending write to its outcome (any instance answers it). */
async function follow(writeId: string, headers: Record<string, string>): Promise<Outcome> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    await sleep(500);
    const instance = instances[nextInstance++ % instances.length]!;
    const res = await fetch(`${instance.url}/v1/chain/writes/${writeId}`, { headers, signal: AbortSignal.timeout(15_000) }).catch(() => null);
    if (res === null) continue;
    seen.push({ status: res.status, at: Date.now(), path: "/v1/chain/writes" });
    if (res.status !== 200) continue;
    const state = (await res.json()) as { status: string; result?: Record<string, unknown>; error?: { code: string; message: string } };
    if (state.status === "confirmed") return { kind: "accepted", body: state.result! };
    // A write that failed after it was accepted (status 0: no HTTP answer of its own).
    if (state.status === "failed") return { kind: "refused", status: 0, error: `${state.error!.code} (${state.error!.message})` };
  }
  throw new Error(`write ${writeId} did not settle`);
}

describe("three instances, one database, one chain node", () => {
  it("a purchase sent with one key to two instances at the same moment buys once", async () => {
    const player = players[0]!;
    const key = randomUUID();
    const body = { client_id: client.client_id, user_dbkey: player.userId, amount: "7", cuid };
    const before = await contracts.exchange.queryFilter(contracts.exchange.filters.ContentTokenPurchased!());
    const answers = await Promise.all(
      [instances[0]!, instances[2]!].map((instance) =>
        call(instance.url, "POST", "/v1/development-api/user_buy_content_token", { body, headers: { ...basicOf(), "idempotency-key": key } }),
      ),
    );
    const settled = await Promise.all(
      answers.map((answer) => (answer.status === 202 ? follow(String(answer.json["write_id"]), basicOf()) : { kind: "accepted" as const, body: answer.json })),
    );
    expect(settled.map((outcome) => outcome.kind)).toEqual(["accepted", "accepted"]);
    const [a, b] = settled as Array<{ body: Record<string, unknown> }>;
    expect(b!.body["tx_hash"]).toBe(a!.body["tx_hash"]);
    const after = await contracts.exchange.queryFilter(contracts.exchange.filters.ContentTokenPurchased!());
    expect(after.length - before.length).toBe(1);
    const [balance] = await contracts.exchange.balance_adex(player.slot, cuid);
    expect(balance).toBe(7n);
  });

  it("survives a SIGKILLed instance and a paused chain: every accepted purchase, spend and transfer once, nonces contiguous, every webhook delivered, only 503s during the pause", async () => {
    const accepted = { purchases: [] as string[], spent: new Map<string, bigint>(), transfers: 0 };
    const purchasesBefore = (await contracts.exchange.queryFilter(contracts.exchange.filters.ContentTokenPurchased!())).length;
    const usedBefore = new Map<string, bigint>();
    for (const player of players) usedBefore.set(player.slot, (await contracts.exchange.balance_adex(player.slot, cuid))[1]);
    const sinkBefore: bigint = await contracts.xotn.balanceOf(sink);

    const start = Date.now();
    // The load runs until the faults are over and a little after (a restart's length depends on the machine).
    let faultsOver = Number.POSITIVE_INFINITY;
    let pause = { from: 0, to: 0 };
    const faults = (async () => {
      await sleep(4_000);
      await instances[1]!.kill("SIGKILL");
      await sleep(3_000);
      await instances[1]!.restart();
      await sleep(2_000);
      pause = { from: Date.now(), to: 0 };
      process.kill(node.pid, "SIGSTOP");
      await sleep(4_000);
      process.kill(node.pid, "SIGCONT");
      pause.to = Date.now();
      faultsOver = Date.now();
    })();

    const refusals: string[] = [];
    const playerLoop = async (player: Player) => {
      const user = { user_id: player.userId, client_id: client.client_id };
      const bearer = { authorization: `Bearer ${player.token}` };
      while (Date.now() < faultsOver + 3_000) {
        const login = await send("/v1/oauth/status/login", user, bearer);
        if (login.kind !== "accepted") refusals.push(`login ${login.status} ${login.error}`);
        const bought = await send(
          "/v1/development-api/user_buy_content_token",
          { client_id: client.client_id, user_dbkey: player.userId, amount: "50", cuid },
          basicOf(),
          randomUUID(),
        );
        if (bought.kind === "accepted") accepted.purchases.push(String(bought.body["tx_hash"]));
        else refusals.push(`purchase ${bought.status} ${bought.error}`);
        for (const amount of [3n, 4n]) {
          const message = encryptHex(
            JSON.stringify({ client_id: client.client_id, user_dbkey: player.userId, amount: String(amount), cuid }),
            spendKey.key,
            spendKey.iv,
          );
          const spent = await send("/v1/development-api/increase_used_content_token", { encrypted_message: message }, basicOf(), randomUUID());
          if (spent.kind === "accepted") accepted.spent.set(player.slot, (accepted.spent.get(player.slot) ?? 0n) + amount);
          else refusals.push(`spend ${spent.status} ${spent.error}`);
        }
        const transfer = await send(
          "/v1/token/transfer",
          {
            from_address: player.wallet,
            to_address: sink,
            amount: "1",
            contract_address: await contracts.xotn.getAddress(),
            pin_hash: player.pin.pin_hash,
            key_share_user: player.keyShare,
          },
          bearer,
          randomUUID(),
        );
        if (transfer.kind === "accepted") accepted.transfers += 1;
        else refusals.push(`transfer ${transfer.status} ${transfer.error}`);
        const logout = await send("/v1/oauth/status/logout", user, bearer);
        if (logout.kind !== "accepted") refusals.push(`logout ${logout.status} ${logout.error}`);
      }
    };
    await Promise.all([faults, ...players.map(playerLoop)]);

    // Nothing was refused: every call of a careful client lands once, whatever crashed or paused.
    expect(refusals).toEqual([]);
    expect(accepted.purchases.length).toBeGreaterThan(0);
    expect(accepted.transfers).toBeGreaterThan(0);

    // Purchases: one ContentTokenPurchased event per accepted purchase, in the transactions the answers named.
    const purchases = (await contracts.exchange.queryFilter(contracts.exchange.filters.ContentTokenPurchased!())).slice(purchasesBefore);
    expect(purchases.length).toBe(accepted.purchases.length);
    expect(new Set(purchases.map((event) => event.transactionHash))).toEqual(new Set(accepted.purchases));
    // Spends: each slot's used_balances grew by exactly what was accepted.
    for (const player of players) {
      const [, used] = await contracts.exchange.balance_adex(player.slot, cuid);
      expect(used - usedBefore.get(player.slot)!).toBe(accepted.spent.get(player.slot) ?? 0n);
    }
    // Sponsored transfers: the sink got one wei per accepted transfer.
    expect((await contracts.xotn.balanceOf(sink)) - sinkBefore).toBe(BigInt(accepted.transfers));

    // Nonces: for each platform key, the transactions the instances signed use contiguous nonces, each mined once,
    // and the chain's next nonce follows the last one (nothing skipped, nothing reused, nothing stuck).
    const db = await openDatabase({ databaseUrl: `${DATABASE}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, poolSize: 1 });
    try {
      for (const key of [PLATFORM_KEYS.operator, PLATFORM_KEYS.spendRecorder, PLATFORM_KEYS.bundler]) {
        const signer = new Wallet(key).address;
        const rows = await db.query<{ n: string; status: string; tx_hash: string }>(
          "SELECT nonce::text AS n, status, tx_hash FROM cs_transactions WHERE lower(signer) = lower($1) ORDER BY nonce",
          [signer],
        );
        if (rows.length === 0) continue;
        const nonces = rows.map((row) => Number(row.n));
        expect(nonces).toEqual(Array.from({ length: nonces.length }, (_, n) => nonces[0]! + n));
        expect(rows.filter((row) => row.status === "signed")).toEqual([]);
        expect(await provider.getTransactionCount(signer)).toBe(nonces.at(-1)! + 1);
        for (const row of rows.filter((r) => r.status === "mined")) expect((await provider.getTransaction(row.tx_hash))?.nonce).toBe(Number(row.n));
      }
      // Webhooks: every marketplace message in the outbox was delivered, and the marketplace saw each event id.
      let undelivered = -1;
      for (let attempt = 0; attempt < 120 && undelivered !== 0; attempt += 1) {
        [{ undelivered }] = (await db.query<{ undelivered: number }>("SELECT count(*)::int AS undelivered FROM outbox WHERE delivered_at IS NULL")) as [
          { undelivered: number },
        ];
        if (undelivered !== 0) await sleep(250);
      }
      expect(undelivered).toBe(0);
      const ids = (await db.query<{ id: string }>("SELECT id::text AS id FROM outbox WHERE payload->>'type' = 'login_status.changed'")).map((row) => row.id);
      const received = new Set(marketplace.received.map((hook) => String(hook.headers["slotgate-event-id"])));
      expect(ids.length).toBeGreaterThanOrEqual(players.length * 2);
      expect(ids.filter((id) => !received.has(id))).toEqual([]);
    } finally {
      await db.close();
    }

    // The faults happened: the killed instance left requests unanswered, and the pause held writes (202) or
    // refused reads (503).
    expect(unanswered).toBeGreaterThan(0);
    expect(
      seen.filter((answer) => answer.at >= pause.from && answer.at <= pause.to + PAUSE_TAIL_MS && (answer.status === 202 || answer.status === 503)).length,
    ).toBeGreaterThan(0);
    // The only 5xx answers were 503s while the chain was paused (and its RPC timeout ran out).
    const serverErrors = seen.filter((answer) => answer.status >= 500 && answer.at >= start);
    expect(serverErrors.filter((answer) => answer.status !== 503)).toEqual([]);
    expect(serverErrors.filter((answer) => answer.at < pause.from || answer.at > pause.to + PAUSE_TAIL_MS)).toEqual([]);
  }, 300_000);
});
