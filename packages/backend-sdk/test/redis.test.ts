import { randomUUID } from "node:crypto";
import type { MockService } from "@slotgate/mock-service";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type SlotgateBackend, SlotgateBackendError } from "../src/index.js";
import { RedisPendingStore } from "../src/redis.js";
import { type RunningServer, freePort, nodeServer } from "./support/http-server.js";
import { backendFor, captureAuthorize, countRequests, msw, postCallback, simulatedService, startMsw, userJwt } from "./support/simulated-service.js";

const REDIS_URL = process.env.SLOTGATE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Two backend instances behind one "load balancer": the registered redirect URI points at instance B only. */
let redisA: Redis;
let redisB: Redis;
let prefix: string;
let serverA: RunningServer;
let serverB: RunningServer;
let a: SlotgateBackend;
let b: SlotgateBackend;
let mock: MockService;

beforeAll(async () => {
  startMsw();
  redisA = new Redis(REDIS_URL);
  redisB = new Redis(REDIS_URL);
  serverA = await nodeServer((req, res) => a.handleCallback(req, res));
  serverB = await nodeServer((req, res) => b.handleCallback(req, res));
});

afterAll(async () => {
  msw.close();
  await Promise.all([serverA.close(), serverB.close()]);
  await Promise.all([redisA.quit(), redisB.quit()]);
});

async function setup(): Promise<string> {
  prefix = `slotgate-test:${randomUUID()}:`;
  const redirectUri = `${serverB.origin}/slotgate/callback`;
  mock = await simulatedService(redirectUri);
  a = backendFor(mock, { pendingStore: new RedisPendingStore({ redis: redisA, keyPrefix: prefix }) });
  b = backendFor(mock, { pendingStore: new RedisPendingStore({ redis: redisB, keyPrefix: prefix }) });
  return redirectUri;
}

afterEach(async () => {
  msw.events.removeAllListeners();
  await Promise.all([a?.shutdown(), b?.shutdown()]);
  const keys = await redisA.keys(`${prefix}*`);
  if (keys.length) await redisA.del(...keys);
});

describe("RedisPendingStore: two instances sharing real Redis", () => {
  it("a login started on A resolves although the callback lands on B", async () => {
    await setup();
    const info = await a.getSlotInfo(await userJwt(mock));
    expect(info.id).toBe(mock.fixtures.endUser.user_id);
    expect(new URL(mock.state.callbacks.at(-1)!.url).port).toBe(String(serverB.port));
    expect(a.pendingCount).toBe(0);
    expect(await redisA.keys(`${prefix}pending:*`)).toEqual([]);
  });

  it("the code is exchanged once even when the callback is delivered to both instances", async () => {
    const redirectUri = await setup();
    const capture = captureAuthorize(mock);
    const getToken = countRequests(mock, "/v1/oauth-meta/get_token");
    const jwt = await userJwt(mock);
    const pending = a.getSlotInfo(jwt);
    const state = await capture.next();
    const code = await realCode(jwt, redirectUri);
    const aUri = `${serverA.origin}/slotgate/callback`;
    const answers = await Promise.all([
      postCallback(redirectUri, { state, code, success: "1" }),
      postCallback(aUri, { state, code, success: "1" }),
      postCallback(redirectUri, { state, code, success: "1" }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await pending).code).toBe(code);
    await new Promise((r) => setTimeout(r, 30));
    expect(getToken.count).toBe(1);
  });

  it("a rejected callback landing on B rejects the call waiting on A", async () => {
    const redirectUri = await setup();
    const capture = captureAuthorize(mock);
    const pending = a.getSlotInfo(await userJwt(mock)).catch((e: SlotgateBackendError) => e);
    await postCallback(redirectUri, { state: await capture.next(), success: "0", error: "access_denied" });
    expect(await pending).toMatchObject({ code: "callback_rejected", error: "access_denied" });
  });

  it("a timeout removes the pending key, and a late callback on B is ignored", async () => {
    const redirectUri = await setup();
    const capture = captureAuthorize(mock);
    const getToken = countRequests(mock, "/v1/oauth-meta/get_token");
    const pending = a.getSlotInfo(await userJwt(mock), { timeout: 100 }).catch((e: SlotgateBackendError) => e);
    const state = await capture.next();
    expect(await redisA.get(`${prefix}pending:${state}`)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await redisA.pttl(`${prefix}pending:${state}`)).toBeGreaterThan(100);
    expect(await pending).toMatchObject({ code: "callback_timeout" });
    await new Promise((r) => setTimeout(r, 20));
    expect(await redisA.exists(`${prefix}pending:${state}`)).toBe(0);
    expect((await postCallback(redirectUri, { state, code: "late", success: "1" })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 30));
    expect(getToken.count).toBe(0);
  });

  it("shutdown rejects A's calls, removes their keys and closes A's subscriber connection", async () => {
    await setup();
    const capture = captureAuthorize(mock);
    const pending = a.getSlotInfo(await userJwt(mock)).catch((e: SlotgateBackendError) => e);
    const state = await capture.next();
    const channels = await redisA.pubsub("CHANNELS", `${prefix}callback:*`);
    expect(channels).toHaveLength(1);
    await a.shutdown();
    expect(await pending).toMatchObject({ code: "shutdown" });
    await new Promise((r) => setTimeout(r, 20));
    expect(await redisA.exists(`${prefix}pending:${state}`)).toBe(0);
    expect(await redisA.pubsub("CHANNELS", `${prefix}callback:*`)).toEqual([]);
  });

  it("STORE_ERROR (503) when Redis cannot be reached", async () => {
    await setup();
    const port = await freePort();
    const dead = new Redis({ host: "127.0.0.1", port, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const c = backendFor(mock, { pendingStore: new RedisPendingStore({ redis: dead, keyPrefix: prefix }) });
    const err = await c.getSlotInfo(await userJwt(mock)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlotgateBackendError);
    expect(err).toMatchObject({ code: "store_error", status: 503 });
    await c.shutdown();
    dead.disconnect();
  });
});

/** A genuine code for the backend client, from the simulated service's recorded callback. */
async function realCode(jwt: string, redirectUri: string): Promise<string> {
  msw.resetHandlers(...mock.handlers);
  const before = mock.state.callbacks.length;
  const url = new URL(`${mock.baseUrl}/v1/oauth-meta/authorize`);
  url.search = new URLSearchParams({ client_id: mock.fixtures.backendClient.client_id, redirect_uri: redirectUri, state: "Y".repeat(43) }).toString();
  expect((await fetch(url, { headers: { authorization: `Bearer ${jwt}` } })).status).toBe(200);
  return new URL(mock.state.callbacks[before]!.url).searchParams.get("code")!;
}
