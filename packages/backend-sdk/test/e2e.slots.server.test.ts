/**
 * The slot calls of SlotgateBackend (listSlots, openSlot, activateSlot, slot) end to end against the
 * real reference server (@slotgate/server on 127.0.0.1 with its development chain); slots.test.ts runs
 * the same journey against the simulated service (@slotgate/mock-service).
 */
import { randomBytes } from "node:crypto";
import { type ReferenceServer, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentTokenClient, type FetchLike, SlotgateBackend, type SlotgateBackendError, silentLogger } from "../src/index.js";
import { type RunningServer, freePort, nodeServer } from "./support/http-server.js";

let service: ReferenceServer;
let client: { client_id: string; client_secret: string };
let jwt: string;
let userId: string;
/** Requests the backend sent, as `METHOD path`. */
const sent: string[] = [];
const cuid = `sdk-slots-${randomBytes(4).toString("hex")}`;
/** The backend-SDK callback (handleCallback) of the getSlotInfo test. */
let callbackServer: RunningServer;
let callbackBackend: SlotgateBackend;

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function backend(): SlotgateBackend {
  const recording: FetchLike = (input, init) => {
    sent.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
    return globalThis.fetch(input, init);
  };
  return new SlotgateBackend({
    authServerUrl: service.url,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    redirectUri: "http://127.0.0.1:9/unused",
    fetch: recording,
    logger: silentLogger,
    statusSync: { attempts: 1 },
  });
}

async function rejection(promise: Promise<unknown>): Promise<SlotgateBackendError> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: SlotgateBackendError) => error,
  );
}

beforeAll(async () => {
  service = await startReferenceServer({ env: { LOG_LEVEL: "silent" } });
  const loopbackUri = `http://127.0.0.1:${await freePort()}/callback`;
  callbackServer = await nodeServer((req, res) => callbackBackend.handleCallback(req, res));
  const dev = await post("/v1/dev-user/signup", { email: `dev-${Date.now()}@example.test`, password: "dev-password-123" });
  expect(dev.status).toBe(201);
  const reg = await post(
    "/v1/dev-user/clients",
    {
      name: "Backend SDK slots e2e",
      redirect_uris: [loopbackUri, `${callbackServer.origin}/slotgate/callback`],
      download_url: "https://game.example/download",
      web_url: "https://game.example/",
      platform: "game", // the player signs in through the game's loopback URI (the JWT redirect of spec 4.14)
      blockchain: true,
    },
    String(dev.body.token),
  );
  expect(reg.status).toBe(201);
  client = { client_id: String(reg.body.client_id), client_secret: String(reg.body.client_secret) };
  callbackBackend = new SlotgateBackend({
    authServerUrl: service.url,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    redirectUri: `${callbackServer.origin}/slotgate/callback`,
    logger: silentLogger,
  });
  await new ContentTokenClient({ authServerUrl: service.url, clientId: client.client_id, clientSecret: client.client_secret }).registerProvider({
    cuid,
    release_per: 10,
    owner_addr: `0x${randomBytes(20).toString("hex")}`,
  });
  const signup = await signUpPlayer(service.url, service.dataDir, {
    client_id: client.client_id,
    redirect_uri: loopbackUri,
    state: "slots-e2e",
    email: `player-${Date.now()}@example.test`,
    password: "user-password-123",
  });
  expect(signup.status).toBe(302);
  jwt = new URL(signup.headers.get("location")!).searchParams.get("jwt")!;
  userId = String(decodeJwt(jwt).sub);
}, 120_000);

afterAll(async () => {
  await callbackBackend?.shutdown();
  await callbackServer?.close();
  await service?.close();
});

describe("SlotgateBackend slot calls against the reference server", () => {
  it("opens, lists and activates a user's slots; activation waits for logout; slot() reads one without a token", async () => {
    const slotgate = backend();
    expect((await slotgate.listSlots({ accessToken: jwt, cuid })).slots).toEqual([]);

    const { slot: first } = await slotgate.openSlot({ accessToken: jwt, cuid });
    expect(first).toMatchObject({ cuid, state: "active", owner_user_id: userId, tr_cnt: 0 });
    const { slot: second } = await slotgate.openSlot({ accessToken: jwt, cuid });
    expect(second).toMatchObject({ cuid, state: "sleeping" });
    expect(second.slot).not.toBe(first.slot);
    expect((await slotgate.listSlots({ accessToken: jwt, cuid })).slots.map((s) => [s.meta_idx, s.state])).toEqual([
      [first.meta_idx, "active"],
      [second.meta_idx, "sleeping"],
    ]);

    expect((await slotgate.statusLogin({ accessToken: jwt, userId })).ok).toBe(true);
    const refused = await rejection(slotgate.activateSlot({ accessToken: jwt, cuid, metaIdx: second.meta_idx }));
    expect([refused.code, refused.error, refused.serviceStatus]).toEqual(["service_error", "logout_required", 409]);

    expect((await slotgate.statusLogout({ accessToken: jwt, userId })).ok).toBe(true);
    const { active } = await slotgate.activateSlot({ accessToken: jwt, cuid, metaIdx: second.meta_idx });
    expect(active).toMatchObject({ meta_idx: second.meta_idx, slot: second.slot, state: "active" });

    const { slot: read } = await slotgate.slot(cuid, first.meta_idx);
    expect(read).toMatchObject({ cuid, meta_idx: first.meta_idx, slot: first.slot, state: "sleeping", owner_user_id: userId });
    const unknown = await rejection(slotgate.slot(cuid, 987_654));
    expect([unknown.code, unknown.error, unknown.serviceStatus]).toEqual(["service_error", "slot_not_found", 404]);
  });

  it("getSlotInfo names the slot of the client's cuid that backs the login (cu_id, meta_idx) with its content_address and tr_cnt", async () => {
    const info = await callbackBackend.getSlotInfo(jwt);
    const { slots } = await backend().listSlots({ accessToken: info.access_token, cuid });
    const active = slots.find((s) => s.state === "active");
    expect(active).toBeDefined();
    expect(info).toMatchObject({ id: userId, cu_id: cuid, meta_idx: active!.meta_idx, content_address: active!.slot, tr_cnt: active!.tr_cnt });
  });

  it("refuses bad arguments locally with invalid_argument, before any request", async () => {
    const slotgate = backend();
    const before = sent.length;
    const cases: Array<[string, Promise<unknown>]> = [
      ["empty access token", slotgate.listSlots({ accessToken: "", cuid })],
      ["bad cuid", slotgate.openSlot({ accessToken: jwt, cuid: "x y" })],
      ["negative metaIdx", slotgate.activateSlot({ accessToken: jwt, cuid, metaIdx: -1 })],
      ["fractional metaIdx", slotgate.activateSlot({ accessToken: jwt, cuid, metaIdx: 1.5 })],
      ["metaIdx as a string", slotgate.slot(cuid, "0" as unknown as number)],
      ["missing cuid", slotgate.slot(undefined as unknown as string, 0)],
    ];
    for (const [what, call] of cases) expect((await rejection(call)).code, what).toBe("invalid_argument");
    expect(sent.length, "no request was sent").toBe(before);
  });

  it("answers the service's own refusals as service_error with its code", async () => {
    const slotgate = backend();
    const noCuid = await rejection(slotgate.openSlot({ accessToken: jwt, cuid: "sdk-never-registered" }));
    expect([noCuid.error, noCuid.serviceStatus]).toEqual(["provider_not_registered", 404]);
    const badToken = await rejection(slotgate.listSlots({ accessToken: "not-a-token", cuid }));
    expect([badToken.error, badToken.serviceStatus]).toEqual(["invalid_token", 401]);
  });
});
