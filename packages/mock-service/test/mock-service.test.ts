import { encryptHex } from "@slotgate/protocol/crypto";
import { ENCRYPTION_TEST_VECTORS } from "@slotgate/protocol/test-vectors";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import { FIXTURES, MockServiceError, createMockService } from "../src/index.js";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function use(options: api.MockServiceOptions = {}) {
  const mock = createMockService(options);
  server.use(...mock.handlers);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${mock.baseUrl}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { mock, post };
}

const basic = (c: { client_id: string; client_secret: string }) => ({
  Authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}`,
});

/** Logs the seeded end user in on the authorize page (page mode) and returns the code. */
async function loginCode(baseUrl: string, client = FIXTURES.webClient, user = FIXTURES.endUser): Promise<string> {
  const query = { client_id: client.client_id, redirect_uri: client.redirect_uri, response_type: "code", state: "s1" };
  const page = await fetch(`${baseUrl}/oauth/authorize?${new URLSearchParams(query)}`);
  const cookie = /slotgate_csrf=([^;]+)/.exec(page.headers.get("set-cookie") ?? "")?.[1] ?? "";
  const res = await fetch(`${baseUrl}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: `slotgate_csrf=${cookie}` },
    body: new URLSearchParams({ ...query, csrf_token: cookie, email: user.email, password: user.password, decision: "approve" }),
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "").searchParams.get("code") ?? "";
}

describe("public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(api).sort()).toEqual(["FIXTURES", "MockServiceError", "MockState", "createFixtures", "createMockService"]);
  });
});

describe("fixtures", () => {
  it("the seeded developer logs in and owns the three seeded clients (never with secrets)", async () => {
    const { mock, post } = use();
    const login = await post("/v1/dev-user/login_devuser", { email: FIXTURES.developer.email, password: FIXTURES.developer.password });
    const { token, uuid } = (await login.json()) as { token: string; uuid: string };
    expect(uuid).toBe(FIXTURES.developer.uuid);
    const list = (await (await fetch(`${mock.baseUrl}/v1/dev-user/clients`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      clients: { client_id: string }[];
    };
    expect(list.clients.map((c) => c.client_id).sort()).toEqual(["sg_demo_backend", "sg_demo_client", "sg_demo_game"]);
    expect(JSON.stringify(list)).not.toContain('"client_secret"');
    expect(JSON.stringify(list)).not.toContain(FIXTURES.webClient.client_secret);
  });

  it("the seeded end user logs in at the web client and gets the seeded slot as content_address", async () => {
    const { mock, post } = use();
    const code = await loginCode(mock.baseUrl);
    const res = await post("/oauth/token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: FIXTURES.webClient.redirect_uri,
      client_id: FIXTURES.webClient.client_id,
      client_secret: FIXTURES.webClient.client_secret,
    });
    expect(await res.json()).toMatchObject({ user_id: FIXTURES.endUser.user_id, content_address: FIXTURES.slot.address });
  });

  it("backendRedirectUri and loopbackPort shape the backend and game fixtures", async () => {
    const { mock } = use({ backendRedirectUri: "http://127.0.0.1:3999/auth/callback", loopbackPort: 41000 });
    await mock.ready();
    expect(mock.fixtures.backendClient.redirect_uri).toBe("http://127.0.0.1:3999/auth/callback");
    expect(mock.fixtures.gameClient.redirect_uris).toEqual(["http://127.0.0.1:41000/callback"]);
    expect(mock.state.clients.get("sg_demo_game")?.redirect_uris).toEqual(["http://127.0.0.1:41000/callback"]);
  });

  it("seed: false starts empty", async () => {
    const { post } = use({ seed: false });
    const res = await post("/v1/dev-user/login_devuser", { email: FIXTURES.developer.email, password: FIXTURES.developer.password });
    expect(res.status).toBe(401);
  });
});

describe("content tokens with the shared test vectors", () => {
  it("test_encryption of the seeded provider reproduces every shared vector that uses its key", async () => {
    const { post } = use();
    for (const vector of ENCRYPTION_TEST_VECTORS.filter((v) => v.key === FIXTURES.provider.aes_key && v.iv === FIXTURES.provider.aes_iv)) {
      const res = await post(
        "/v1/development-api/test_encryption",
        { client_id: FIXTURES.webClient.client_id, test_string: vector.plaintext },
        basic(FIXTURES.webClient),
      );
      expect(await res.json()).toEqual({ success: true, encrypted_string: vector.ciphertext });
    }
  });

  it("the spend-payload vector's ciphertext spends 25 tokens of the seeded user's slot", async () => {
    const { mock, post } = use();
    const buy = await post(
      "/v1/development-api/user_buy_content_token",
      { client_id: FIXTURES.webClient.client_id, user_dbkey: FIXTURES.endUser.user_id, amount: "100", cuid: FIXTURES.provider.cuid },
      basic(FIXTURES.webClient),
    );
    expect(await buy.json()).toMatchObject({ token_amount: "100", platform_fee: "15", provider_received: "85" });
    const vector = ENCRYPTION_TEST_VECTORS[0]!;
    const spend = await post("/v1/development-api/increase_used_content_token", { encrypted_message: vector.ciphertext }, basic(FIXTURES.webClient));
    expect(await spend.json()).toMatchObject({ slot: FIXTURES.slot.address, amount: "25", balance: "75", used_balances: "25" });
    expect(mock.state.platformTreasury).toBe(15n);
    expect(mock.state.providerRevenue.get(FIXTURES.provider.owner_addr)).toBe(85n);
  });

  it("a purchase beyond the slot's XOTN is refused with 409 insufficient_allowance until fundSlot", async () => {
    const { mock, post } = use();
    const body = { client_id: FIXTURES.webClient.client_id, user_dbkey: FIXTURES.endUser.user_id, amount: "1001", cuid: FIXTURES.provider.cuid };
    const refused = await post("/v1/development-api/user_buy_content_token", { ...body, amount: "1000.000000000000000001" }, basic(FIXTURES.webClient));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toBe("insufficient_allowance");
    await mock.operator.fundSlot({ client_id: FIXTURES.webClient.client_id, user_id: FIXTURES.endUser.user_id, xotn: "1" });
    const ok = await post("/v1/development-api/user_buy_content_token", { ...body, amount: "1000.000000000000000001" }, basic(FIXTURES.webClient));
    expect(ok.status).toBe(200);
  });

  it("opt-in nonce and ts: a replayed nonce gets 409 replayed_message, a stale ts 400 stale_message", async () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const { post } = use({ now: () => now });
    const { client_id, client_secret } = FIXTURES.webClient;
    await post(
      "/v1/development-api/user_buy_content_token",
      { client_id, user_dbkey: "1001", amount: "10", cuid: "demo-game" },
      basic({ client_id, client_secret }),
    );
    const message = (extra: Record<string, unknown>) =>
      encryptHex(
        JSON.stringify({ client_id, user_dbkey: "1001", amount: "1", cuid: "demo-game", ...extra }),
        FIXTURES.provider.aes_key,
        FIXTURES.provider.aes_iv,
      );
    const send = (m: string) => post("/v1/development-api/increase_used_content_token", { encrypted_message: m }, basic({ client_id, client_secret }));
    const first = message({ nonce: "nonce-0001", ts: now / 1000 });
    expect((await send(first)).status).toBe(200);
    const replay = await send(first);
    expect([replay.status, ((await replay.json()) as { error: string }).error]).toEqual([409, "replayed_message"]);
    const stale = await send(message({ nonce: "nonce-0002", ts: now / 1000 - 301 }));
    expect([stale.status, ((await stale.json()) as { error: string }).error]).toEqual([400, "stale_message"]);
  });
});

describe("Idempotency-Key on the money endpoints", () => {
  const buyBody = (amount: string) => ({ client_id: FIXTURES.webClient.client_id, user_dbkey: FIXTURES.endUser.user_id, amount, cuid: FIXTURES.provider.cuid });

  it("the same key and body answer the first answer and buy once; another body under the key is 422", async () => {
    const { mock, post } = use();
    const headers = { ...basic(FIXTURES.webClient), "Idempotency-Key": "order-1" };
    const first = await (await post("/v1/development-api/user_buy_content_token", buyBody("100"), headers)).json();
    const again = await (await post("/v1/development-api/user_buy_content_token", buyBody("100"), headers)).json();
    expect(again).toEqual(first);
    expect(mock.state.platformTreasury).toBe(15n);
    const other = await post("/v1/development-api/user_buy_content_token", buyBody("101"), headers);
    expect([other.status, ((await other.json()) as { error: string }).error]).toEqual([422, "idempotency_key_reused"]);
  });

  it("a refused keyed request is not remembered (and leaves no unhandled rejection): the same request may be sent again", async () => {
    const { mock, post } = use();
    const headers = { ...basic(FIXTURES.webClient), "Idempotency-Key": "order-2" };
    const body = buyBody("1000.000000000000000001");
    const refused = await post("/v1/development-api/user_buy_content_token", body, headers);
    expect(refused.status).toBe(409);
    await mock.operator.fundSlot({ client_id: FIXTURES.webClient.client_id, user_id: FIXTURES.endUser.user_id, xotn: "1" });
    const ok = await post("/v1/development-api/user_buy_content_token", body, headers);
    expect(ok.status).toBe(200);
  });
});

describe("clock-dependent rules (frozen clock)", () => {
  it("an authorization code expires after 60 seconds", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const { mock, post } = use({ now: () => now });
    const exchange = (code: string) =>
      post("/oauth/token", {
        grant_type: "authorization_code",
        code,
        redirect_uri: FIXTURES.webClient.redirect_uri,
        client_id: FIXTURES.webClient.client_id,
        client_secret: FIXTURES.webClient.client_secret,
      });
    const fresh = await loginCode(mock.baseUrl);
    now += 59_000;
    expect((await exchange(fresh)).status).toBe(200);
    const stale = await loginCode(mock.baseUrl);
    now += 61_000;
    const res = await exchange(stale);
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, "invalid_grant"]);
  });

  it("a user JWT is valid for 7 days plus the 30 s clock-skew tolerance", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const { mock } = use({ now: () => now });
    const jwt = await mock.issueUserJwt(FIXTURES.endUser.user_id, FIXTURES.webClient.client_id);
    const validate = () => fetch(`${mock.baseUrl}/v1/oauth/validate`, { headers: { Authorization: `Bearer ${jwt}` } });
    now += (7 * 24 * 3600 + 29) * 1000;
    expect((await validate()).status).toBe(200);
    now += 2000;
    expect((await validate()).status).toBe(401);
  });
});

describe("public clients and the browser session (beyond the conformance suite)", () => {
  async function developerToken(post: ReturnType<typeof use>["post"]): Promise<string> {
    const login = await post("/v1/dev-user/login_devuser", { email: FIXTURES.developer.email, password: FIXTURES.developer.password });
    return ((await login.json()) as { token: string }).token;
  }

  it("a public client has no secret to rotate and keeps loopback IP redirect URIs only (400 invalid_request)", async () => {
    const { mock, post } = use();
    const auth = { Authorization: `Bearer ${await developerToken(post)}` };
    const registered = await post(
      "/v1/dev-user/clients",
      {
        name: "Public",
        redirect_uris: ["http://127.0.0.1/callback"],
        download_url: "https://x.test/d",
        web_url: "https://x.test/",
        platform: "game",
        blockchain: false,
        token_endpoint_auth_method: "none",
      },
      auth,
    );
    const { client_id } = (await registered.json()) as { client_id: string };
    const rotate = await post(`/v1/dev-user/clients/${client_id}/secret`, {}, auth);
    expect([rotate.status, ((await rotate.json()) as { error: string }).error]).toEqual([400, "invalid_request"]);
    const edit = await fetch(`${mock.baseUrl}/v1/dev-user/clients/${client_id}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json", ...auth },
      body: JSON.stringify({ redirect_uris: ["https://game.example/callback"] }),
    });
    expect([edit.status, ((await edit.json()) as { error: string }).error]).toEqual([400, "invalid_request"]);
    expect(mock.state.clients.get(client_id)?.redirect_uris).toEqual(["http://127.0.0.1/callback"]);
  });

  it("a browser session ends 30 days after its last use; a renewal extends it", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const { mock } = use({ now: () => now });
    const client = FIXTURES.webClient;
    const query = { client_id: client.client_id, redirect_uri: client.redirect_uri, response_type: "code", state: "s1" };
    const page = await fetch(`${mock.baseUrl}/oauth/authorize?${new URLSearchParams(query)}`);
    const csrf = /slotgate_csrf=([^;]+)/.exec(page.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const approved = await fetch(`${mock.baseUrl}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: `slotgate_csrf=${csrf}` },
      body: new URLSearchParams({ ...query, csrf_token: csrf, email: FIXTURES.endUser.email, password: FIXTURES.endUser.password, decision: "approve" }),
    });
    let cookie = /^(slotgate_session_[^;]+)/.exec(approved.headers.get("set-cookie") ?? "")?.[1] ?? "";
    expect(cookie).toMatch(/^slotgate_session_\w+=.+/);
    const silent = async () => {
      const res = await fetch(`${mock.baseUrl}/oauth/authorize?${new URLSearchParams({ ...query, display: "popup", prompt: "none" })}`, {
        headers: { Cookie: cookie },
      });
      const next = /^(slotgate_session_[^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
      if (next) cookie = next;
      return (/"type":"(\w+)"/.exec(await res.text()) ?? [])[1];
    };
    now += 29 * 86_400_000;
    expect(await silent()).toBe("success");
    now += 29 * 86_400_000;
    expect(await silent(), "29 days after the renewal").toBe("success");
    now += 31 * 86_400_000;
    expect(await silent(), "31 days idle").toBe("fail");
  });
});

describe("authorize callback delivery", () => {
  it("retries the server-to-server POST on 5xx and records the delivery", async () => {
    const { mock } = use({ backendRedirectUri: "http://backend.test/slotgate/callback", callbackDelayMs: 1 });
    let calls = 0;
    const received: string[] = [];
    server.use(
      http.post("http://backend.test/slotgate/callback", ({ request }) => {
        calls += 1;
        received.push(request.url);
        return calls < 3 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json({ ok: true });
      }),
    );
    const jwt = await mock.issueUserJwt(FIXTURES.endUser.user_id, FIXTURES.backendClient.client_id);
    const query = new URLSearchParams({ client_id: FIXTURES.backendClient.client_id, redirect_uri: mock.fixtures.backendClient.redirect_uri, state: "st-1" });
    const res = await fetch(`${mock.baseUrl}/v1/oauth-meta/authorize?${query}`, { headers: { Authorization: `Bearer ${jwt}` } });
    expect(res.status).toBe(200);
    await expect.poll(() => mock.state.callbacks[0]?.delivered, { timeout: 2000 }).toBe(true);
    expect(mock.state.callbacks[0]).toMatchObject({ attempts: 3, status: 200, state: "st-1" });
    const url = new URL(received[2] ?? "");
    expect([url.searchParams.get("state"), url.searchParams.get("success")]).toEqual(["st-1", "1"]);
  });
});

describe("HTTP details", () => {
  it("a known path with another method answers 405 method_not_allowed; a text/plain JSON body 415", async () => {
    const { mock } = use();
    const get = await fetch(`${mock.baseUrl}/oauth/token`);
    expect([get.status, ((await get.json()) as { error: string }).error]).toEqual([405, "method_not_allowed"]);
    const text = await fetch(`${mock.baseUrl}/v1/dev-user/login_devuser`, { method: "POST", body: "{}", headers: { "Content-Type": "text/plain" } });
    expect([text.status, ((await text.json()) as { error: string }).error]).toEqual([415, "unsupported_media_type"]);
  });

  it("baseUrl is normalised and is the JWT issuer", async () => {
    const { mock } = use({ baseUrl: "https://auth.example.test/" });
    expect(mock.baseUrl).toBe("https://auth.example.test");
    const jwt = await mock.issueAccessToken(FIXTURES.endUser.user_id, FIXTURES.webClient.client_id);
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()) as { iss: string; aud: string };
    expect(payload).toMatchObject({ iss: "https://auth.example.test", aud: FIXTURES.webClient.client_id });
    expect((await mock.jwks()).keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
  });
});

describe("test-side errors", () => {
  it("throws MockServiceError with stable codes", async () => {
    expect(() => createMockService({ baseUrl: "ftp://x" })).toThrow(expect.objectContaining({ code: "invalid_option" }));
    const mock = createMockService();
    await expect(mock.issueUserJwt("999999", FIXTURES.webClient.client_id)).rejects.toMatchObject({ code: "unknown_user" });
    await expect(mock.issueUserJwt(FIXTURES.endUser.user_id, "sg_nope")).rejects.toMatchObject({ code: "unknown_client" });
    await expect(mock.operator.enableRelease("no-such-cuid")).rejects.toBeInstanceOf(MockServiceError);
  });
});
