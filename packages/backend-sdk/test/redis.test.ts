import { randomUUID } from "node:crypto";
import type { MockService } from "@slotgate/mock-service";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type SlotgateBackend, SlotgateBackendError } from "../src/index.js";
import { type PendingStore, RedisPendingStore } from "../src/redis.js";
import { CALLBACK_ROUTES } from "./support/callback-routes.js";
import { type RunningServer, freePort } from "./support/http-server.js";
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

for (const [route, mount] of Object.entries(CALLBACK_ROUTES)) {
  describe(`callback route: ${route}`, () => {
    beforeAll(async () => {
      startMsw();
      redisA = new Redis(REDIS_URL);
      redisB = new Redis(REDIS_URL);
      serverA = await mount(() => a);
      serverB = await mount(() => b);
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
        expect(await redisA.keys(`${prefix}wait:*`)).toEqual([]);
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
        expect(await redisA.get(`${prefix}wait:${state}`)).toBe("pending");
        expect(await redisA.pttl(`${prefix}wait:${state}`)).toBeGreaterThan(100);
        expect(await pending).toMatchObject({ code: "callback_timeout" });
        await new Promise((r) => setTimeout(r, 20));
        expect(await redisA.exists(`${prefix}wait:${state}`)).toBe(0);
        expect((await postCallback(redirectUri, { state, code: "late", success: "1" })).status).toBe(200);
        await new Promise((r) => setTimeout(r, 30));
        expect(getToken.count).toBe(0);
      });

      it("shutdown rejects A's calls, removes their keys and closes the store's subscriber connection", async () => {
        await setup();
        const capture = captureAuthorize(mock);
        const pending = a.getSlotInfo(await userJwt(mock)).catch((e: SlotgateBackendError) => e);
        const state = await capture.next();
        expect(await redisA.pubsub("NUMSUB", `${prefix}completed`)).toEqual([`${prefix}completed`, 1]);
        await a.shutdown();
        expect(await pending).toMatchObject({ code: "shutdown" });
        await new Promise((r) => setTimeout(r, 20));
        expect(await redisA.exists(`${prefix}wait:${state}`)).toBe(0);
        expect(await redisA.pubsub("NUMSUB", `${prefix}completed`)).toEqual([`${prefix}completed`, 0]);
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
  });
}

describe("RedisPendingStore: the state is a mailbox", () => {
  let redis: Redis;
  let store: RedisPendingStore;
  let keyPrefix: string;

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterEach(async () => {
    await store.close();
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length) await redis.del(...keys);
  });
  afterAll(async () => {
    await redis.quit();
  });

  function fresh(pollIntervalMs?: number): RedisPendingStore {
    keyPrefix = `slotgate-test:${randomUUID()}:`;
    store = new RedisPendingStore({ redis, keyPrefix, ...(pollIntervalMs ? { pollIntervalMs } : {}) });
    return store;
  }

  it("completes a pending state once: later, unknown and removed states are refused; take is atomic", async () => {
    const s = fresh();
    const state = "M".repeat(43);
    await s.add(state, 10_000);
    await expect(s.add(state, 10_000)).rejects.toThrow(/already registered/);
    expect(await s.take(state)).toBeNull(); // still pending
    expect(await s.complete(state, { state, code: "c1", success: "1" })).toBe(true);
    expect(await s.complete(state, { state, code: "c2", success: "1" })).toBe(false);
    expect(await redis.pttl(`${keyPrefix}wait:${state}`)).toBeGreaterThan(9_000); // KEEPTTL
    const takes = await Promise.all([s.take(state), s.take(state)]);
    expect(takes.filter(Boolean)).toEqual([{ state, code: "c1", success: "1" }]);
    expect(await s.complete(state, { state, code: "c3", success: "1" })).toBe(false);
    expect(await s.complete("U".repeat(43), { state: "U".repeat(43), code: "c", success: "1" })).toBe(false);
    const removed = "R".repeat(43);
    await s.add(removed, 10_000);
    await s.remove(removed);
    expect(await s.complete(removed, { state: removed, code: "c", success: "1" })).toBe(false);
  });

  it("wakes the waiter through pub/sub, also when the completion came before the wait", async () => {
    const s = fresh(60_000);
    const other = new RedisPendingStore({ redis, keyPrefix }); // the instance that received the callback
    const state = "W".repeat(43);
    await s.add(state, 10_000);
    const woken = s.completed(state, new AbortController().signal);
    expect(await other.complete(state, { state, code: "c", success: "1" })).toBe(true);
    await woken;
    const early = "E".repeat(43);
    await s.add(early, 10_000);
    expect(await other.complete(early, { state: early, code: "c", success: "1" })).toBe(true);
    await new Promise((r) => setTimeout(r, 50)); // usually the announcement arrives before anyone waits...
    await s.completed(early, new AbortController().signal); // ...and is kept for the wait; if later, it wakes it
    expect(await s.take(early)).toEqual({ state: early, code: "c", success: "1" });
  });
});

describe("a getSlotInfo wait completed through the store", () => {
  it("resolves by push within a poll interval of a minute, and by polling alone when the store cannot push", async () => {
    startMsw();
    const r = new Redis(REDIS_URL);
    const receiver = new Redis(REDIS_URL);
    const keyPrefix = `slotgate-test:${randomUUID()}:`;
    let callbackBackend: SlotgateBackend | undefined;
    const route = await CALLBACK_ROUTES["WHATWG Request"]!(() => callbackBackend!);
    try {
      const m = await simulatedService(`${route.origin}/slotgate/callback`);
      callbackBackend = backendFor(m, { pendingStore: new RedisPendingStore({ redis: receiver, keyPrefix }) });
      const push = new RedisPendingStore({ redis: r, keyPrefix, pollIntervalMs: 60_000 });
      const waiter = backendFor(m, { pendingStore: push });
      const started = Date.now();
      expect((await waiter.getSlotInfo(await userJwt(m))).id).toBe(m.fixtures.endUser.user_id);
      expect(Date.now() - started).toBeLessThan(10_000);
      await waiter.shutdown();
      // Without pub/sub (no subscriber connection, as on serverless): the waiter polls.
      const before = (await r.pubsub("NUMSUB", `${keyPrefix}completed`))[1];
      const noSub = backendFor(m, { pendingStore: new RedisPendingStore({ redis: r, keyPrefix, subscribe: false, pollIntervalMs: 20 }) });
      expect((await noSub.getSlotInfo(await userJwt(m))).id).toBe(m.fixtures.endUser.user_id);
      expect((await r.pubsub("NUMSUB", `${keyPrefix}completed`))[1]).toBe(before); // no subscriber was opened
      await noSub.shutdown();
      // A store without `completed` (a key-value API with no push): the waiter polls `take`.
      const kv = new RedisPendingStore({ redis: r, keyPrefix });
      const pollOnly: PendingStore = {
        pollIntervalMs: 20,
        add: (s, ttl) => kv.add(s, ttl),
        complete: (s, cb) => kv.complete(s, cb),
        take: (s) => kv.take(s),
        remove: (s) => kv.remove(s),
        close: () => kv.close(),
      };
      const poller = backendFor(m, { pendingStore: pollOnly });
      expect((await poller.getSlotInfo(await userJwt(m))).id).toBe(m.fixtures.endUser.user_id);
      await poller.shutdown();
      await callbackBackend.shutdown();
    } finally {
      await route.close();
      msw.close();
      await Promise.all([r.quit(), receiver.quit()]);
    }
  });
});
