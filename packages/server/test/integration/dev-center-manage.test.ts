import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCode, BrowserSession, call, clientSecretAccepted, devSignup, exchange, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { type Receiver, startReceiver } from "../support/receiver.js";

/**
 * Managing a registered application through the developer center's JSON API: edits, secret rotation
 * with its overlap window, disable / enable / delete and what they do to issued tokens, the audit list,
 * the deliveries list with retry, bad input and another developer's token.
 */
const OVERLAP_SECONDS = 2;
let server: TestServer;
let marketplace: Receiver;

beforeAll(async () => {
  marketplace = await startReceiver();
  server = await startTestServer({
    CLIENT_SECRET_OVERLAP_SECONDS: String(OVERLAP_SECONDS),
    MARKETPLACE_URL: `${marketplace.url}/hooks`,
    MARKETPLACE_SECRET: "marketplace-secret-0123456789abcdefghijklmnop",
    // A failed webhook waits long for its automatic retry: the test retries it by hand.
    MARKETPLACE_RETRY_BASE_MS: "600000",
  });
});
afterAll(async () => {
  await server?.close();
  await marketplace?.close();
});

type Client = Awaited<ReturnType<typeof registerClient>>;
const path = (c: { client_id: string }, suffix = "") => `/v1/dev-user/clients/${c.client_id}${suffix}`;
const snapshot = async (clientId: string) => ({
  client: (await server.sql("SELECT * FROM clients WHERE client_id = $1", [clientId]))[0],
  audit: (await server.sql("SELECT id FROM client_audit WHERE client_id = $1", [clientId])).length,
  outbox: await server.sql("SELECT id, attempts, next_attempt_at, failed_at, max_attempts FROM outbox WHERE payload->>'client_id' = $1 ORDER BY id", [
    clientId,
  ]),
  revoked: (await server.sql("SELECT jti FROM revoked_tokens")).length,
});

const secretWorks = (client: { client_id: string; redirect_uris: string[] }, secret: string) => clientSecretAccepted(server.url, client, secret);

async function signIn(client: Client) {
  const { code } = await authorizeCode(server.url, client);
  const res = await exchange(server.url, client, code);
  expect(res.status).toBe(200);
  return { token: String(res.json["access_token"]), userId: String(res.json["user_id"]) };
}

const validates = async (token: string) => (await call(server.url, "GET", "/v1/oauth/validate", { token })).status === 200;

describe("reading one application", () => {
  it("answers the developer's own application as it is now, never its secret; another's or an unknown one is 404, no token 401, a bad id 400; the OpenAPI document lists it", async () => {
    const client = await registerClient(server.url, { name: "Readable" });
    const read = await call(server.url, "GET", path(client), { token: client.devToken });
    expect(read.status).toBe(200);
    expect(read.headers.get("cache-control")).toBe("no-store");
    expect(read.json).toMatchObject({ success: true, client_id: client.client_id, name: "Readable", redirect_uris: client.redirect_uris, disabled: false });
    expect(read.json).not.toHaveProperty("client_secret");
    expect(JSON.stringify(read.json)).not.toContain(client.client_secret);
    await call(server.url, "PATCH", path(client), { token: client.devToken, body: { name: "Renamed" } });
    expect((await call(server.url, "GET", path(client), { token: client.devToken })).json["name"]).toBe("Renamed");
    const other = await devSignup(server.url);
    expect((await call(server.url, "GET", path(client), { token: other.token })).json).toMatchObject({ success: false, error: "client_not_found" });
    expect((await call(server.url, "GET", path({ client_id: "sg_000000000000000000000000" }), { token: client.devToken })).status).toBe(404);
    expect((await call(server.url, "GET", path(client))).json["error"]).toBe("invalid_token");
    expect((await call(server.url, "GET", path({ client_id: "bad%20id" }), { token: client.devToken })).json["error"]).toBe("invalid_request");
    const doc = (await call(server.url, "GET", "/openapi.json")).json as {
      paths: Record<string, Record<string, { operationId: string; security: unknown[] }>>;
    };
    expect(doc.paths["/v1/dev-user/clients/{client_id}"]!["get"]).toMatchObject({ operationId: "getClient", security: [{ developerBearer: [] }] });
  });
});

describe("editing an application", () => {
  it("replaces the redirect URIs: the old one is then redirect_uri_mismatch, the new one signs in; the audit list has old and new", async () => {
    const client = await registerClient(server.url, { redirect_uris: ["https://old.example/cb"] });
    const res = await call(server.url, "PATCH", path(client), {
      token: client.devToken,
      body: { redirect_uris: ["https://new.example/cb", "https://new.example/cb"], name: "Renamed" },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, client_id: client.client_id, name: "Renamed", redirect_uris: ["https://new.example/cb"] });
    const old = await new BrowserSession(server.url).open({
      client_id: client.client_id,
      redirect_uri: "https://old.example/cb",
      response_type: "code",
      state: "s1",
    });
    expect(old.status).toBe(401);
    expect(old.html).toContain('data-code="redirect_uri_mismatch"');
    const { code } = await authorizeCode(server.url, { client_id: client.client_id, redirect_uris: ["https://new.example/cb"] });
    expect(code).toBeTruthy();
    const audit = await call(server.url, "GET", path(client, "/audit"), { token: client.devToken });
    expect(audit.status).toBe(200);
    const entries = audit.json["entries"] as Array<{ actor: string; action: string; detail: Record<string, unknown>; at: string }>;
    expect(entries.map((e) => e.action)).toEqual(["client.updated", "client.registered"]);
    expect(entries[0]!.actor).toMatch(/^dev-.*@example\.test$/);
    expect(entries[0]!.detail).toEqual({
      changes: { name: { from: "Test app", to: "Renamed" }, redirect_uris: { from: ["https://old.example/cb"], to: ["https://new.example/cb"] } },
    });
  });

  it("changes the URLs alone and records nothing when nothing changes", async () => {
    const client = await registerClient(server.url);
    const res = await call(server.url, "PATCH", path(client), {
      token: client.devToken,
      body: { web_url: "https://web.example/", download_url: "https://dl.example/" },
    });
    expect(res.json).toMatchObject({ web_url: "https://web.example/", download_url: "https://dl.example/", redirect_uris: client.redirect_uris });
    const again = await call(server.url, "PATCH", path(client), { token: client.devToken, body: { web_url: "https://web.example/" } });
    expect(again.status).toBe(200);
    const audit = await call(server.url, "GET", path(client, "/audit"), { token: client.devToken });
    expect((audit.json["entries"] as unknown[]).length).toBe(2);
  });
});

describe("rotating the client secret", () => {
  it("both secrets work during the overlap window, then only the new one; the page shows until when", async () => {
    const client = await registerClient(server.url);
    expect(await secretWorks(client, client.client_secret)).toBe(true);
    const res = await call(server.url, "POST", path(client, "/secret"), { token: client.devToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const fresh = String(res.json["client_secret"]);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(fresh).not.toBe(client.client_secret);
    const until = Date.parse(String(res.json["previous_secret_valid_until"]));
    expect(until - Date.now()).toBeGreaterThan(0);
    expect(until - Date.now()).toBeLessThanOrEqual(OVERLAP_SECONDS * 1000);
    expect(await secretWorks(client, client.client_secret)).toBe(true);
    expect(await secretWorks(client, fresh)).toBe(true);
    await new Promise((r) => setTimeout(r, until - Date.now() + 50));
    expect(await secretWorks(client, client.client_secret)).toBe(false);
    expect(await secretWorks(client, fresh)).toBe(true);
    const [row] = await server.sql<{ secret_hash: string; previous_secret_hash: string }>(
      "SELECT secret_hash, previous_secret_hash FROM clients WHERE client_id = $1",
      [client.client_id],
    );
    expect(JSON.stringify(row)).not.toContain(fresh);
    const audit = await call(server.url, "GET", path(client, "/audit"), { token: client.devToken });
    expect(JSON.stringify(audit.json)).not.toContain(fresh);
    expect((audit.json["entries"] as Array<{ action: string }>)[0]!.action).toBe("secret.rotated");
  });

  it("a second rotation inside the window ends the first secret at once", async () => {
    const client = await registerClient(server.url);
    const second = String((await call(server.url, "POST", path(client, "/secret"), { token: client.devToken })).json["client_secret"]);
    const third = String((await call(server.url, "POST", path(client, "/secret"), { token: client.devToken })).json["client_secret"]);
    expect(await secretWorks(client, client.client_secret)).toBe(false);
    expect(await secretWorks(client, second)).toBe(true);
    expect(await secretWorks(client, third)).toBe(true);
  });
});

describe("disabling and deleting an application", () => {
  it("disable: sign-in, client authentication and every issued token stop; enable: new sign-ins work, old tokens stay revoked", async () => {
    const client = await registerClient(server.url, { grant_types: ["refresh_token"] });
    const { code } = await authorizeCode(server.url, client);
    const first = await exchange(server.url, client, code);
    const token = String(first.json["access_token"]);
    const refresh = String(first.json["refresh_token"]);
    expect(await validates(token)).toBe(true);
    const off = await call(server.url, "POST", path(client, "/disable"), { token: client.devToken });
    expect(off.status).toBe(200);
    expect(off.json["disabled"]).toBe(true);
    expect(await validates(token)).toBe(false);
    expect(await secretWorks(client, client.client_secret)).toBe(false);
    const page = await new BrowserSession(server.url).open({
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0]!,
      response_type: "code",
      state: "s",
    });
    expect(page.html).toContain('data-code="invalid_client"');
    const list = await call(server.url, "GET", "/v1/dev-user/clients", { token: client.devToken });
    expect((list.json["clients"] as Array<{ disabled: boolean }>)[0]!.disabled).toBe(true);

    // Tokens minted in the same second as the disable count as issued before it.
    await new Promise((r) => setTimeout(r, 1100));
    const on = await call(server.url, "POST", path(client, "/enable"), { token: client.devToken });
    expect(on.json["disabled"]).toBe(false);
    expect(await validates(token)).toBe(false);
    const renewed = await call(server.url, "POST", "/oauth/token", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: refresh,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }).toString(),
    });
    expect(renewed.status).toBe(400);
    expect(renewed.json["error"]).toBe("invalid_grant");
    const again = await signIn(client);
    expect(await validates(again.token)).toBe(true);
    const audit = await call(server.url, "GET", path(client, "/audit"), { token: client.devToken });
    expect((audit.json["entries"] as Array<{ action: string }>).map((e) => e.action)).toEqual(["client.enabled", "client.disabled", "client.registered"]);
  });

  it("delete: tokens stop, the client leaves the list, its secret is erased and every endpoint answers client_not_found", async () => {
    const client = await registerClient(server.url);
    const user = await signIn(client);
    const res = await call(server.url, "DELETE", path(client), { token: client.devToken });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, client_id: client.client_id, deleted: true });
    expect(await validates(user.token)).toBe(false);
    expect(await secretWorks(client, client.client_secret)).toBe(false);
    const list = await call(server.url, "GET", "/v1/dev-user/clients", { token: client.devToken });
    expect(list.json["clients"]).toEqual([]);
    const [row] = await server.sql<{ secret_hash: string; deleted_at: Date | null }>("SELECT secret_hash, deleted_at FROM clients WHERE client_id = $1", [
      client.client_id,
    ]);
    expect(row).toMatchObject({ secret_hash: "", deleted_at: expect.any(Date) });
    for (const [method, suffix] of [
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/secret"],
      ["POST", "/enable"],
      ["GET", "/audit"],
      ["GET", "/deliveries"],
    ] as const) {
      const r = await call(server.url, method, path(client, suffix), { token: client.devToken, ...(method === "PATCH" ? { body: { name: "x" } } : {}) });
      expect(r.status, `${method} ${suffix}`).toBe(404);
      expect(r.json["error"]).toBe("client_not_found");
    }
  });
});

describe("deliveries", () => {
  it("lists a failed marketplace webhook with its error and next retry; retry now delivers it", async () => {
    const client = await registerClient(server.url);
    const user = await signIn(client);
    marketplace.failFirst = 1;
    const before = marketplace.received.length;
    const status = await call(server.url, "POST", "/v1/oauth/status/login", { token: user.token, body: { user_id: user.userId, client_id: client.client_id } });
    expect(status.status).toBe(200);
    let deliveries: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 100; i++) {
      deliveries = (await call(server.url, "GET", path(client, "/deliveries"), { token: client.devToken })).json["deliveries"] as Array<
        Record<string, unknown>
      >;
      if (deliveries[0]?.["last_error"]) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      kind: "marketplace_webhook",
      target: `${marketplace.url}/hooks`,
      status: "pending",
      attempts: 1,
      max_attempts: 15,
      last_error: "HTTP 500",
    });
    expect(Date.parse(String(deliveries[0]!["next_attempt_at"])) - Date.now()).toBeGreaterThan(60_000);
    const retry = await call(server.url, "POST", path(client, `/deliveries/${String(deliveries[0]!["id"])}/retry`), { token: client.devToken });
    expect(retry.status).toBe(200);
    await marketplace.waitFor(before + 1);
    for (let i = 0; i < 100; i++) {
      deliveries = (await call(server.url, "GET", path(client, "/deliveries"), { token: client.devToken })).json["deliveries"] as Array<
        Record<string, unknown>
      >;
      if (deliveries[0]?.["status"] === "delivered") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(deliveries[0]).toMatchObject({ status: "delivered", attempts: 2, next_attempt_at: null });
    const done = await call(server.url, "POST", path(client, `/deliveries/${String(deliveries[0]!["id"])}/retry`), { token: client.devToken });
    expect(done.status).toBe(409);
    expect(done.json["error"]).toBe("delivery_not_retryable");
  });

  it("lists authorize callbacks without their query (the one-time code)", async () => {
    const receiver = await startReceiver();
    try {
      const callback = `${receiver.url}/slotgate/callback`;
      const client = await registerClient(server.url, { redirect_uris: [callback] });
      const user = await signIn({ ...client, redirect_uris: [callback] });
      const res = await call(
        server.url,
        "GET",
        `/v1/oauth-meta/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: callback, state: "st" })}`,
        { token: user.token },
      );
      expect(res.status).toBe(200);
      await receiver.waitFor(1);
      const list = await call(server.url, "GET", path(client, "/deliveries"), { token: client.devToken });
      const meta = (list.json["deliveries"] as Array<Record<string, unknown>>).find((d) => d["kind"] === "authorize_callback");
      expect(meta).toMatchObject({ target: callback, attempts: 1 });
      expect(JSON.stringify(list.json)).not.toContain("code=");
    } finally {
      await receiver.close();
    }
  });
});

describe("bad input and other developers", () => {
  let client: Client;
  beforeAll(async () => {
    client = await registerClient(server.url);
  });

  it.each([
    ["empty body", {}],
    ["unknown field", { name: "x", secret_hash: "y" }],
    ["no redirect URIs", { redirect_uris: [] }],
    ["javascript: redirect URI", { redirect_uris: ["javascript:alert(1)"] }],
    ["bad web_url", { web_url: "not a url" }],
    ["long name", { name: "n".repeat(101) }],
    ["array body", ["https://x.example/cb"]],
    ["platform (not editable)", { platform: "game" }],
  ])("PATCH with %s: 400 invalid_request with details, nothing changed", async (_n, body) => {
    const before = await snapshot(client.client_id);
    const res = await call(server.url, "PATCH", path(client), { token: client.devToken, body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ success: false, error: "invalid_request" });
    expect(Array.isArray(res.json["details"])).toBe(true);
    expect(await snapshot(client.client_id)).toEqual(before);
  });

  it("malformed JSON, a non-JSON body and a body on an action: 4xx, nothing changed", async () => {
    const before = await snapshot(client.client_id);
    const cases: Array<[string, string, Parameters<typeof call>[3], number, string]> = [
      ["PATCH", "", { token: client.devToken, body: '{"name":' }, 400, "malformed_json"],
      [
        "PATCH",
        "",
        { token: client.devToken, body: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } },
        415,
        "unsupported_media_type",
      ],
      ["POST", "/secret", { token: client.devToken, body: { overlap_seconds: 1 } }, 400, "invalid_request"],
      ["POST", "/disable", { token: client.devToken, body: { now: true } }, 400, "invalid_request"],
      ["POST", "/enable", { token: client.devToken, body: "[]" }, 400, "invalid_request"],
      ["POST", "/deliveries/abc/retry", { token: client.devToken }, 400, "invalid_request"],
      ["POST", "/deliveries/999999999/retry", { token: client.devToken }, 404, "delivery_not_found"],
    ];
    for (const [method, suffix, init, status, code] of cases) {
      const res = await call(server.url, method, path(client, suffix), init);
      expect(res.status, `${method} ${suffix}`).toBe(status);
      expect(res.json["error"], `${method} ${suffix}`).toBe(code);
    }
    const badId = await call(server.url, "GET", "/v1/dev-user/clients/bad%20id/audit", { token: client.devToken });
    expect(badId.status).toBe(400);
    expect(badId.json["error"]).toBe("invalid_request");
    const unknown = await call(server.url, "POST", "/v1/dev-user/clients/sg_000000000000000000000000/secret", { token: client.devToken });
    expect(unknown.status).toBe(404);
    expect(unknown.json["error"]).toBe("client_not_found");
    expect(await snapshot(client.client_id)).toEqual(before);
  });

  it("another developer's token: every endpoint answers 404 client_not_found (as for an unknown client) and nothing changes", async () => {
    const other = await devSignup(server.url);
    const user = await signIn(client);
    await call(server.url, "POST", "/v1/oauth/status/logout", { token: user.token, body: { user_id: user.userId, client_id: client.client_id } });
    let delivery: { id: string } | undefined;
    for (let i = 0; i < 100 && !delivery; i++) {
      [delivery] = await server.sql<{ id: string }>("SELECT id::text FROM outbox WHERE payload->>'client_id' = $1 AND delivered_at IS NOT NULL", [
        client.client_id,
      ]);
      if (!delivery) await new Promise((r) => setTimeout(r, 50));
    }
    const before = await snapshot(client.client_id);
    const cases: Array<[string, string, unknown]> = [
      ["PATCH", "", { name: "Hijacked" }],
      ["DELETE", "", undefined],
      ["POST", "/secret", undefined],
      ["POST", "/disable", undefined],
      ["POST", "/enable", undefined],
      ["GET", "/audit", undefined],
      ["GET", "/deliveries", undefined],
      ["POST", `/deliveries/${delivery!.id}/retry`, undefined],
    ];
    for (const [method, suffix, body] of cases) {
      const res = await call(server.url, method, path(client, suffix), { token: other.token, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${suffix}`).toBe(404);
      expect(res.json["error"], `${method} ${suffix}`).toBe("client_not_found");
      const anon = await call(server.url, method, path(client, suffix), body === undefined ? {} : { body });
      expect(anon.status, `${method} ${suffix} without a token`).toBe(401);
      expect(anon.json["error"]).toBe("invalid_token");
      const endUser = await call(server.url, method, path(client, suffix), { token: user.token, ...(body === undefined ? {} : { body }) });
      expect(endUser.json["error"], `${method} ${suffix} with an end-user token`).toBe("invalid_token");
    }
    expect(await snapshot(client.client_id)).toEqual(before);
  });
});
