import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, randomEmail } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

/**
 * Rate limits shared through the real Redis at 127.0.0.1:6379 (`REDIS_URL`): two instances behind one
 * address spend one budget. Each run uses its own key prefix, so runs and database projects never share counters.
 */
const REDIS_URL = process.env["SLOTGATE_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379";
const prefix = `sg-test-${randomBytes(6).toString("hex")}:`;
let a: TestServer;
let b: TestServer;
let redis: Redis;

beforeAll(async () => {
  const env = { RATE_LIMIT: "on", RATE_LIMIT_SIGN_IN_PER_MINUTE: "3", REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix };
  [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
  await Promise.all([a?.close(), b?.close()]);
});

const login = (server: TestServer) => call(server.url, "POST", "/v1/dev-user/login_devuser", { body: { email: randomEmail(), password: "whatever-123" } });

describe("rate limits through Redis", () => {
  it("two instances share one sign-in budget: the fourth attempt, on either, is 429 rate_limited with Retry-After", async () => {
    const statuses = [(await login(a)).status, (await login(b)).status, (await login(a)).status];
    expect(statuses).toEqual([401, 401, 401]);
    const over = await login(b);
    expect([over.status, over.json["error"]]).toEqual([429, "rate_limited"]);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.headers.get("ratelimit-policy")).toContain("q=3");
    const keys = await redis.keys(`${prefix}sign-in:*`);
    expect(keys.length, "the counter lives in Redis under the configured prefix").toBeGreaterThan(0);
  });
});
