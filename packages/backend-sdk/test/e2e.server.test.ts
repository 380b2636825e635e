/**
 * End to end against the real reference server (@slotgate/server) on 127.0.0.1: a developer,
 * a client application and an end user are created through the public HTTP API, the user logs
 * in through the loopback flow to obtain a user JWT, and the backend SDK exchanges it for slot info.
 */
import { type ReferenceServer, signUpPlayer, startReferenceServer } from "@slotgate/server/testing";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoginStatusWebhookEvent, SlotgateBackend, type SlotgateBackendError, isSlotgateBackendError, silentLogger, verifyWebhook } from "../src/index.js";
import { type RunningServer, freePort, nodeServer } from "./support/http-server.js";

let service: ReferenceServer;
let callbackServer: RunningServer;
let marketplace: RunningServer;
const MARKETPLACE_SECRET = "e2e-marketplace-secret-0123456789abcdef";
/** What the marketplace receiver accepted (verified events) and refused (error codes), in arrival order. */
const webhooks: { accepted: Array<LoginStatusWebhookEvent & { header_id: string }>; refused: string[] } = { accepted: [], refused: [] };
let backend: SlotgateBackend;
let client: { client_id: string; client_secret: string };
let redirectUri: string;
let loopbackUri: string;
let email: string;
const devCredentials = { email: `dev-${Date.now()}@example.test`, password: "dev-password-123" };

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

/** Signs up an end user on the authorize form (loopback mode, mailbox step included) and returns the user JWT from the redirect. */
async function loginUser(): Promise<string> {
  email = `player-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const res = await signUpPlayer(service.url, service.dataDir, {
    client_id: client.client_id,
    redirect_uri: loopbackUri,
    state: "e2e-state-1",
    email,
    password: "user-password-123",
  });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  expect(location.searchParams.get("state")).toBe("e2e-state-1");
  return location.searchParams.get("jwt")!;
}

beforeAll(async () => {
  // A marketplace endpoint as a platform would write it: the raw body, verifyWebhook, 204 or 400.
  marketplace = await nodeServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      verifyWebhook(Buffer.concat(chunks), req.headers["slotgate-signature"] as string | undefined, { secret: MARKETPLACE_SECRET }).then(
        (event) => {
          webhooks.accepted.push({ ...event, header_id: String(req.headers["slotgate-event-id"]) });
          res.writeHead(204).end();
        },
        (error: unknown) => {
          webhooks.refused.push(isSlotgateBackendError(error) ? error.code : "unexpected");
          res.writeHead(400).end();
        },
      );
    });
  });
  service = await startReferenceServer({
    env: { LOG_LEVEL: "silent", MARKETPLACE_URL: `${marketplace.origin}/webhooks/slotgate`, MARKETPLACE_SECRET, OUTBOX_POLL_MS: "50" },
  });
  callbackServer = await nodeServer((req, res) => backend.handleCallback(req, res));
  redirectUri = `${callbackServer.origin}/slotgate/callback`;
  loopbackUri = `http://127.0.0.1:${await freePort()}/callback`;

  const dev = await json("/v1/dev-user/signup", { method: "POST", body: devCredentials });
  expect(dev.status).toBe(201);
  const reg = await json("/v1/dev-user/clients", {
    method: "POST",
    token: String(dev.body.token),
    body: {
      name: "Backend SDK e2e",
      redirect_uris: [redirectUri, loopbackUri],
      download_url: "https://game.example/download",
      web_url: "https://game.example/",
      platform: "game", // the player signs in through the game's loopback URI (the JWT redirect of spec 4.14)
      blockchain: false,
    },
  });
  expect(reg.status).toBe(201);
  client = { client_id: String(reg.body.client_id), client_secret: String(reg.body.client_secret) };
  backend = new SlotgateBackend({
    authServerUrl: service.url,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    redirectUri,
    logger: silentLogger,
  });
}, 60_000);

afterAll(async () => {
  await marketplace?.close();
  await backend?.shutdown();
  await callbackServer?.close();
  await service?.close();
});

describe("backend SDK against the reference server", () => {
  it("gets slot info from a user JWT, and the access token validates", async () => {
    const jwt = await loginUser();
    const info = await backend.getSlotInfo(jwt);
    expect(info).toEqual({
      id: decodeJwt(jwt).sub,
      access_token: expect.any(String),
      content_address: "",
      token_nickname: email.split("@")[0],
      tr_cnt: 0,
      code: expect.any(String),
    });
    const validate = await json("/v1/oauth/validate", { token: info.access_token });
    expect(validate.status).toBe(200);
    expect(validate.body).toMatchObject({ user_id: info.id, client_id: client.client_id, token_use: "access_token" });
  });

  it("syncs login and logout status with the access token", async () => {
    const info = await backend.getSlotInfo(await loginUser());
    const login = await backend.statusLogin({ accessToken: info.access_token, userId: info.id });
    expect(login).toMatchObject({ ok: true, attempts: 1, response: { status: "logged_in" } });
    expect(await backend.statusCheck({ accessToken: info.access_token, userId: info.id })).toMatchObject({ status: "logged_in", transfer_enabled: false });
    const logout = await backend.statusLogout({ accessToken: info.access_token, userId: info.id });
    expect(logout).toMatchObject({ ok: true, response: { status: "logged_out", transfer_enabled: true } });
    expect(await backend.statusCheck({ accessToken: info.access_token, userId: info.id })).toMatchObject({ status: "logged_out", transfer_enabled: true });
    // The marketplace heard both changes, each signed and verified by verifyWebhook.
    const mine = async () => {
      for (let i = 0; i < 200 && webhooks.accepted.filter((e) => e.user_id === info.id).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      return webhooks.accepted.filter((e) => e.user_id === info.id);
    };
    const events = await mine();
    expect(events.map((e) => [e.status, e.transfer_enabled, e.client_id])).toEqual([
      ["logged_in", false, client.client_id],
      ["logged_out", true, client.client_id],
    ]);
    for (const e of events) expect(e.id).toBe(e.header_id);
    expect(Date.parse(events[1]!.timestamp)).toBeGreaterThanOrEqual(Date.parse(events[0]!.timestamp));
    expect(webhooks.refused).toEqual([]);
  });

  it("a replayed callback is ignored: the code is single use and the first result stands", async () => {
    const info = await backend.getSlotInfo(await loginUser());
    // Whatever an attacker replays to the callback route, nothing is pending under a used state.
    const res = await fetch(`${redirectUri}?code=${info.code}&state=${"Q".repeat(43)}&success=1`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(backend.pendingCount).toBe(0);
  });

  it("AUTHORIZE_ERROR with the server's code for a forged JWT", async () => {
    const jwt = await loginUser();
    const [h, p] = jwt.split(".");
    const err = (await backend.getSlotInfo(`${h}.${p}.${"A".repeat(86)}`).catch((e: unknown) => e)) as SlotgateBackendError;
    expect(err).toMatchObject({ code: "authorize_error", error: "invalid_token", serviceStatus: 401 });
  });

  it("refreshAccessToken rotates the refresh token from the slot info; reuse and logout end the session", async () => {
    const reg = await json("/v1/dev-user/clients", {
      method: "POST",
      token: String((await json("/v1/dev-user/login_devuser", { method: "POST", body: devCredentials })).body.token),
      body: {
        name: "Backend SDK refresh",
        redirect_uris: [redirectUri, loopbackUri],
        download_url: "https://game.example/download",
        web_url: "https://game.example/",
        platform: "game", // the player signs in through the game's loopback URI (the JWT redirect of spec 4.14)
        grant_types: ["refresh_token"],
      },
    });
    expect(reg.status).toBe(201);
    const savedClient = client;
    const saved = backend;
    client = { client_id: String(reg.body.client_id), client_secret: String(reg.body.client_secret) };
    backend = new SlotgateBackend({ ...saved.config, clientId: client.client_id, clientSecret: client.client_secret, logger: silentLogger });
    try {
      const info = await backend.getSlotInfo(await loginUser());
      expect(info.refresh_token).toMatch(/^sgr_/);
      const next = await backend.refreshAccessToken(info.refresh_token!);
      expect(next).toMatchObject({ token_type: "Bearer", expires_in: 3600, user_id: info.id });
      expect(next.refresh_token).not.toBe(info.refresh_token);
      expect((await json("/v1/oauth/validate", { token: next.access_token })).status).toBe(200);
      const third = await backend.refreshAccessToken(next.refresh_token);
      const reused = (await backend.refreshAccessToken(info.refresh_token!).catch((e: unknown) => e)) as SlotgateBackendError;
      expect(reused).toMatchObject({ code: "refresh_rejected", status: 401, error: "invalid_grant", serviceStatus: 400 });
      expect((await json("/v1/oauth/validate", { token: third.access_token })).status, "reuse revoked the session").toBe(401);

      const again = await backend.getSlotInfo(await loginUser());
      await backend.statusLogout({ accessToken: again.access_token, userId: again.id });
      const afterLogout = (await backend.refreshAccessToken(again.refresh_token!).catch((e: unknown) => e)) as SlotgateBackendError;
      expect(afterLogout.code).toBe("refresh_rejected");
    } finally {
      await backend.shutdown();
      backend = saved;
      client = savedClient;
    }
  });

  it("TOKEN_EXCHANGE_ERROR invalid_client with a wrong secret", async () => {
    const wrong = new SlotgateBackend({ ...backend.config, clientSecret: "not-the-secret-000000000000000000000000000", logger: silentLogger });
    const saved = backend;
    backend = wrong;
    try {
      const err = (await wrong.getSlotInfo(await loginUser()).catch((e: unknown) => e)) as SlotgateBackendError;
      expect(err).toMatchObject({ code: "token_exchange_error", error: "invalid_client", serviceStatus: 401 });
    } finally {
      backend = saved;
      await wrong.shutdown();
    }
  });
});
