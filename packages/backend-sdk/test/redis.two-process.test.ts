import { randomUUID } from "node:crypto";
import type { MockService } from "@slotgate/mock-service";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlotgateBackendError } from "../src/index.js";
import { RedisPendingStore } from "../src/redis.js";
import { type HonoChild, startHonoChild } from "./support/hono-child.js";
import { backendFor, msw, simulatedService, startMsw, userJwt } from "./support/simulated-service.js";

const REDIS_URL = process.env.SLOTGATE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

let child: HonoChild;
let redis: Redis;

beforeAll(async () => {
  startMsw();
  redis = new Redis(REDIS_URL);
  child = await startHonoChild();
}, 30_000);

afterAll(async () => {
  await child?.close();
  msw.close();
  await redis?.quit();
});

/** The simulated service's backend client registers the Hono process's route as its redirect URI. */
async function serviceCallingTheChild(): Promise<{ mock: MockService; redirectUri: string }> {
  const redirectUri = `${child.origin}/slotgate/callback`;
  return { mock: await simulatedService(redirectUri), redirectUri };
}

/** The service's last callback delivery, once it recorded the answer. */
async function lastDelivery(mock: MockService): Promise<{ url: string; status?: number }> {
  const delivery = mock.state.callbacks.at(-1)!;
  for (let i = 0; i < 400 && delivery.status === undefined; i++) await new Promise((r) => setTimeout(r, 5));
  return delivery;
}

describe("getSlotInfo in this process, the callback served by a Hono app in another process", () => {
  it("completes: the callback reaches the Hono process and hands the code over through Redis", async () => {
    const { mock, redirectUri } = await serviceCallingTheChild();
    const keyPrefix = `slotgate-test:${randomUUID()}:`;
    const c = mock.fixtures.backendClient;
    const options = { authServerUrl: mock.baseUrl, clientId: c.client_id, clientSecret: c.client_secret, redirectUri };
    await child.configure({ ...options, redisUrl: REDIS_URL, keyPrefix });
    // This process serves no callback route at all: it only waits.
    const waiter = backendFor(mock, { pendingStore: new RedisPendingStore({ redis, keyPrefix }) });
    try {
      const info = await waiter.getSlotInfo(await userJwt(mock), { timeout: 10_000 });
      expect(info.id).toBe(mock.fixtures.endUser.user_id);
      expect(info.access_token).toEqual(expect.any(String));
      const delivery = await lastDelivery(mock);
      expect(new URL(delivery.url).origin).toBe(child.origin);
      expect(delivery.status).toBe(200);
      expect(await redis.keys(`${keyPrefix}wait:*`)).toEqual([]);
    } finally {
      await waiter.shutdown();
    }
  });

  it("times out without the shared store: the callback reaches the Hono process, which knows no such wait", async () => {
    const { mock, redirectUri } = await serviceCallingTheChild();
    const c = mock.fixtures.backendClient;
    await child.configure({ authServerUrl: mock.baseUrl, clientId: c.client_id, clientSecret: c.client_secret, redirectUri });
    const waiter = backendFor(mock);
    try {
      const err = await waiter.getSlotInfo(await userJwt(mock), { timeout: 1_500 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SlotgateBackendError);
      expect((err as SlotgateBackendError).code).toBe("callback_timeout");
      const delivery = await lastDelivery(mock);
      expect(new URL(delivery.url).origin).toBe(child.origin); // it did arrive, and was answered
      expect(delivery.status).toBe(200);
      expect(child.answered.at(-1)).toBe(200);
    } finally {
      await waiter.shutdown();
    }
  });
});
