import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { Wallet } from "ethers";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerClient } from "../support/flows.js";
import { type ChainUser, newUser, pinOf, type TestClient } from "../support/chain-flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * Brute-force limits of the key-deriving PIN endpoints (issue 15, docs/decisions/brute-force.md): one
 * budget per IP, one per account (the bearer token's user), and a bound on the account's derivations in
 * flight, all shared through the real Redis at 127.0.0.1:6379. `TRUST_PROXY=1` lets each test speak from
 * its own address (`X-Forwarded-For`), so the budgets of one test do not spill into the next.
 */
const REDIS_URL = process.env["SLOTGATE_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379";
const prefix = `sg-test-${randomBytes(6).toString("hex")}:`;
const PER_IP = 6;
const PER_ACCOUNT = 3;
const REFUSAL_DELAY_MS = 200;
let server: TestServer;
let client: TestClient;
let redis: Redis;

beforeAll(async () => {
  server = await startTestServer({
    CHAIN: "anvil",
    RATE_LIMIT: "on",
    RATE_LIMIT_SIGN_IN_PER_MINUTE: "1000",
    RATE_LIMIT_PIN_PER_MINUTE: String(PER_IP),
    RATE_LIMIT_PIN_PER_ACCOUNT_PER_MINUTE: String(PER_ACCOUNT),
    PIN_CONCURRENT_DERIVATIONS_PER_ACCOUNT: "1",
    RATE_LIMIT_PIN_REFUSAL_DELAY_MS: String(REFUSAL_DELAY_MS),
    TRUST_PROXY: "1",
    REDIS_URL,
    RATE_LIMIT_REDIS_PREFIX: prefix,
  });
  client = await registerClient(server.url, { blockchain: true });
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
  await server?.close();
});

/** A fresh client address per test. */
const addresses = (() => {
  let n = 0;
  return () => `10.15.${Math.floor(++n / 250)}.${n % 250}`;
})();

/** A well-formed body of each key-deriving endpoint for `user`. */
function bodies(user: ChainUser): Array<[string, Record<string, unknown>]> {
  const pin = pinOf("246810");
  const next = pinOf("135790");
  return [
    ["/v1/pin/register", { user_uuid: user.uuid, ...pin }],
    ["/v1/pin/verify", { user_uuid: user.uuid, ...pin, key_share_user: "ab".repeat(32) }],
    ["/v1/pin/reset", { user_uuid: user.uuid, mnemonic: Wallet.createRandom().mnemonic!.phrase, new_pin_hash: next.pin_hash, new_pin_salt: next.pin_salt }],
    ["/v1/pin/recover/code", { user_uuid: user.uuid, ...next }],
    ["/v1/pin/recover", { user_uuid: user.uuid, ...next }],
  ];
}

const post = (path: string, body: unknown, ip: string, token?: string) =>
  call(server.url, "POST", path, { body, headers: { "x-forwarded-for": ip }, ...(token ? { token } : {}) });

function expectRateLimited(res: Awaited<ReturnType<typeof post>>, why: string): void {
  expect([res.status, res.json["error"]], why).toEqual([429, "rate_limited"]);
  expect(Number(res.headers.get("retry-after")), why).toBeGreaterThan(0);
}

describe("per-IP budget of the PIN endpoints", () => {
  it.each(["/v1/pin/register", "/v1/pin/verify", "/v1/pin/reset", "/v1/pin/recover/code", "/v1/pin/recover"])(
    "%s: after its budget an address gets 429 rate_limited with Retry-After, checked before authentication",
    async (path) => {
      const ip = addresses();
      for (let i = 0; i < PER_IP; i += 1) {
        const res = await post(path, { user_uuid: 1 }, ip);
        expect(res.status, "within the budget: the request is judged on its merits (no token: 401)").toBe(401);
      }
      expectRateLimited(await post(path, { user_uuid: 1 }, ip), `${path} over the per-IP budget`);
      const other = await post(path, { user_uuid: 1 }, addresses());
      expect(other.status, "another address has its own budget").toBe(401);
    },
  );

  it("a refusal is held at least half of RATE_LIMIT_PIN_REFUSAL_DELAY_MS before it is sent (the tarpit, with jitter)", async () => {
    const ip = addresses();
    for (let i = 0; i < PER_IP; i += 1) expect((await post("/v1/pin/verify", {}, ip)).status).toBe(401);
    const refused = performance.now();
    expectRateLimited(await post("/v1/pin/verify", {}, ip), "over the budget");
    expect(performance.now() - refused, "the refusal waited for the delay").toBeGreaterThanOrEqual(REFUSAL_DELAY_MS / 2 - 5);
  });

  it("the endpoints share one per-IP budget", async () => {
    const ip = addresses();
    const paths = ["/v1/pin/register", "/v1/pin/verify", "/v1/pin/reset", "/v1/pin/recover/code", "/v1/pin/recover", "/v1/pin/verify"];
    for (const path of paths) expect((await post(path, {}, ip)).status).toBe(401);
    expectRateLimited(await post("/v1/pin/register", {}, ip), "the seventh request, on any PIN endpoint");
  });
});

describe("per-account budget of the PIN endpoints", () => {
  it("after the account's budget, every PIN endpoint answers 429 for that account from any address; another account goes on", async () => {
    const [mallory, bystander] = [await newUser(server, client), await newUser(server, client)];
    const forMallory = bodies(mallory);
    for (let i = 0; i < PER_ACCOUNT; i += 1) {
      const [path, body] = forMallory[1]!;
      const res = await post(path, body, addresses(), mallory.token);
      expect(res.status, "within the account's budget: the chain service answers (no wallet yet)").toBe(404);
    }
    for (const [path, body] of forMallory) {
      expectRateLimited(await post(path, body, addresses(), mallory.token), `${path} over the per-account budget`);
    }
    const [path, body] = bodies(bystander)[1]!;
    expect((await post(path, body, addresses(), bystander.token)).status, "the other account has its own budget").toBe(404);
  });

  it("a request for another user is refused (403) before it can spend that user's budget", async () => {
    const [victim, attacker] = [await newUser(server, client), await newUser(server, client)];
    const [path, body] = bodies(victim)[1]!;
    for (let i = 0; i < PER_ACCOUNT + 2; i += 1) {
      const res = await post(path, body, addresses(), attacker.token);
      expect([res.status, res.json["error"]]).toEqual([403, "token_user_mismatch"]);
    }
    expect((await post(path, body, addresses(), victim.token)).status, "the victim's budget is untouched").toBe(404);
  });
});

describe("derivations in flight per account", () => {
  it("a PIN request while the account's slot is taken (on any instance: the count lives in Redis) is 429 with Retry-After: 1; the slot is given back after the answer", async () => {
    const user = await newUser(server, client);
    const slot = `${prefix}pin-derive:${user.userId}`;
    const [path, body] = bodies(user)[0]!;
    await redis.set(slot, "1", "PX", 10_000); // another instance is deriving for this account
    const busy = await post(path, body, addresses(), user.token);
    expectRateLimited(busy, "the account's one slot is taken");
    expect(busy.headers.get("retry-after")).toBe("1");
    expect(String(busy.json["message"])).toMatch(/in progress/);
    await redis.del(slot);
    const free = await post(path, body, addresses(), user.token);
    expect(free.status, "with the slot free, the registration runs").toBe(200);
    await expect.poll(() => redis.exists(slot), { timeout: 2000 }).toBe(0);
  });
});

describe("malformed input under the limits", () => {
  it("property: arbitrary JSON to any PIN endpoint, with a valid token and from any address, is a 4xx with a stable code, never a 5xx", async () => {
    const user = await newUser(server, client);
    const paths = ["/v1/pin/register", "/v1/pin/verify", "/v1/pin/reset", "/v1/pin/recover/code", "/v1/pin/recover"];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue(), fc.boolean(), async (path, body, sameAddress) => {
        const res = await call(server.url, "POST", path, {
          body: JSON.stringify(body),
          token: user.token,
          headers: { "x-forwarded-for": sameAddress ? "10.16.0.1" : addresses() },
        });
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(["invalid_request", "rate_limited", "token_user_mismatch"]).toContain(res.json["error"]);
      }),
      { numRuns: 60 },
    );
  });

  it("each PIN endpoint answers malformed bodies and headers with a 4xx and a stable code", async () => {
    const user = await newUser(server, client);
    const cases: Array<[string, { body?: unknown; headers?: Record<string, string> }, number, string]> = [
      ["/v1/pin/register", { body: "{not json" }, 400, "malformed_json"],
      ["/v1/pin/verify", { body: { user_uuid: user.uuid, pin_hash: "zz" } }, 400, "invalid_request"],
      ["/v1/pin/reset", { body: { user_uuid: "x".repeat(5000) } }, 400, "invalid_request"],
      ["/v1/pin/recover/code", { body: [1, 2, 3] }, 400, "invalid_request"],
      ["/v1/pin/recover", { body: "user_uuid=1", headers: { "content-type": "application/x-www-form-urlencoded" } }, 415, "unsupported_media_type"],
      ["/v1/pin/verify", { body: { ...bodies(user)[1]![1] }, headers: { "idempotency-key": "not a key!" } }, 400, "invalid_request"],
    ];
    for (const [path, init, status, error] of cases) {
      const res = await call(server.url, "POST", path, { ...init, token: user.token, headers: { "x-forwarded-for": addresses(), ...init.headers } });
      expect([res.status, res.json["error"]], path).toEqual([status, error]);
    }
  });
});
