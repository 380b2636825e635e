/**
 * Two processes against the real reference server (@slotgate/server) and real Redis: the client's
 * registered redirect URI is a Hono app in a child process (`test/fixtures/hono-callback-app.ts`,
 * `handleCallback(c.req.raw)`); `getSlotInfo` runs in this process, which serves no callback route.
 * The server's outbox delivers the callback to the Hono process; the shared store carries it here.
 */
import { randomUUID } from "node:crypto";
import { type ReferenceServer, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlotgateBackend, SlotgateBackendError, type SlotgateBackendOptions, silentLogger } from "../src/index.js";
import { RedisPendingStore } from "../src/redis.js";
import { freePort } from "./support/http-server.js";
import { type HonoChild, startHonoChild } from "./support/hono-child.js";

const REDIS_URL = process.env.SLOTGATE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

let service: ReferenceServer;
let child: HonoChild;
let redis: Redis;
let options: Omit<SlotgateBackendOptions, "logger">;
let loopbackUri: string;

async function json(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${service.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A new end user signs up through the loopback flow; returns the user JWT for the client. */
async function userJwt(): Promise<string> {
  const res = await signUpPlayer(service.url, service.dataDir, {
    client_id: options.clientId,
    redirect_uri: loopbackUri,
    state: "two-process",
    email: `player-${randomUUID()}@example.test`,
    password: "user-password-123",
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!).searchParams.get("jwt")!;
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  [service, child] = await Promise.all([startReferenceServer({ env: { LOG_LEVEL: "silent", OUTBOX_POLL_MS: "50" } }), startHonoChild()]);
  const redirectUri = `${child.origin}/slotgate/callback`;
  loopbackUri = `http://127.0.0.1:${await freePort()}/callback`;
  const dev = await json("/v1/dev-user/signup", { method: "POST", body: { email: `dev-${randomUUID()}@example.test`, password: "dev-password-123" } });
  expect(dev.status).toBe(201);
  const reg = await json("/v1/dev-user/clients", {
    method: "POST",
    token: String(dev.body.token),
    body: {
      name: "Two-process callback",
      redirect_uris: [redirectUri, loopbackUri],
      download_url: "https://game.example/download",
      web_url: "https://game.example/",
      platform: "game", // the player signs in through the game's loopback URI (the JWT redirect of spec 4.14)
      blockchain: false,
    },
  });
  expect(reg.status).toBe(201);
  options = { authServerUrl: service.url, clientId: String(reg.body.client_id), clientSecret: String(reg.body.client_secret), redirectUri };
}, 60_000);

afterAll(async () => {
  await child?.close();
  await service?.close();
  await redis?.quit();
});

describe("the reference server's callback reaches a Hono app in another process", () => {
  it("completes the getSlotInfo waiting in this process through Redis; the access token validates", async () => {
    const keyPrefix = `slotgate-test:${randomUUID()}:`;
    await child.configure({ ...options, redisUrl: REDIS_URL, keyPrefix });
    const waiter = new SlotgateBackend({ ...options, logger: silentLogger, pendingStore: new RedisPendingStore({ redis, keyPrefix }) });
    try {
      const before = child.answered.length;
      const info = await waiter.getSlotInfo(await userJwt(), { timeout: 15_000 });
      // The child reports its answer on stdout, which may reach us just after the exchange finished.
      for (let i = 0; i < 400 && child.answered.length === before; i++) await new Promise((r) => setTimeout(r, 5));
      expect(child.answered.slice(before)).toEqual([200]);
      const validate = await json("/v1/oauth/validate", { token: info.access_token });
      expect(validate.status).toBe(200);
      expect(validate.body).toMatchObject({ user_id: info.id, client_id: options.clientId });
    } finally {
      await waiter.shutdown();
    }
  });

  it("times out without the shared store, although the Hono process received and answered the callback", async () => {
    await child.configure(options);
    const waiter = new SlotgateBackend({ ...options, logger: silentLogger });
    try {
      const before = child.answered.length;
      const err = await waiter.getSlotInfo(await userJwt(), { timeout: 4_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SlotgateBackendError);
      expect((err as SlotgateBackendError).code).toBe("callback_timeout");
      expect(child.answered.slice(before)).toEqual([200]);
    } finally {
      await waiter.shutdown();
    }
  });
});
