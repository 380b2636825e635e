import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCode, BrowserSession, call, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";
import { type Receiver, startReceiver } from "../support/receiver.js";

let server: TestServer;
let backend: Receiver;
let client: Awaited<ReturnType<typeof registerClient>>;
let callbackUri: string;

/** A user JWT from the popup login of `c`. */
async function userJwt(c: { client_id: string }, redirectUri: string, email = randomEmail()): Promise<{ jwt: string; email: string }> {
  const params = { client_id: c.client_id, redirect_uri: redirectUri, response_type: "code", state: "s", display: "popup" };
  const browser = new BrowserSession(server.url);
  const page = await browser.open(params);
  const res = await browser.submitWithMailbox({ ...params, csrf_token: page.csrf, email, password: "user-password-1", decision: "approve", intent: "signup" });
  const data = JSON.parse(/id="slotgate-result">([^<]+)</.exec(res.html)![1]!) as { messages: Array<{ data: string }> };
  return { jwt: data.messages[0]!.data, email };
}

beforeAll(async () => {
  backend = await startReceiver();
  server = await startTestServer();
  callbackUri = `${backend.url}/api/slotgate/callback`;
  client = await registerClient(server.url, { redirect_uris: ["https://web.example/popup", callbackUri], blockchain: true });
});
afterAll(async () => {
  await server?.close();
  await backend?.close();
});

const metaAuthorize = (token: string, q: Record<string, string>) => call(server.url, "GET", `/v1/oauth-meta/authorize?${new URLSearchParams(q)}`, { token });

describe("backend SDK flow (spec 4.4)", () => {
  it("authorize → server-to-server POST with code, state, success=1 → get_token answers slot info", async () => {
    const { jwt, email } = await userJwt(client, "https://web.example/popup");
    const start = backend.received.length;
    const res = await metaAuthorize(jwt, { client_id: client.client_id, redirect_uri: callbackUri, state: "corr-1" });
    expect(res.status).toBe(200);
    expect(res.json["success"]).toBe(true);
    const [hook] = (await backend.waitFor(start + 1)).slice(start);
    expect(hook!.method).toBe("POST");
    expect(hook!.url.pathname).toBe("/api/slotgate/callback");
    expect(hook!.url.searchParams.get("state")).toBe("corr-1");
    expect(hook!.url.searchParams.get("success")).toBe("1");
    expect(hook!.headers["x-request-id"], "the callback carries the authorize request's id").toBe(res.headers.get("x-request-id"));
    const code = hook!.url.searchParams.get("code")!;
    const token = await call(server.url, "POST", "/v1/oauth-meta/get_token", {
      body: { client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: callbackUri },
    });
    expect(token.status).toBe(200);
    expect(token.json).toMatchObject({
      success: true,
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      token_type: "Bearer",
      expires_in: 3600,
      content_address: "", // this server runs without a chain (CHAIN=off): no address to give
      token_nickname: email.split("@")[0],
      tr_cnt: 0,
      code,
    });
    const validate = await call(server.url, "GET", "/v1/oauth/validate", { token: String(token.json["access_token"]) });
    expect(validate.json).toMatchObject({ user_id: token.json["id"], token_use: "access_token" });
    const replay = await call(server.url, "POST", "/v1/oauth-meta/get_token", {
      body: { client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: callbackUri },
    });
    expect(replay.status).toBe(400);
    expect(replay.json["error"]).toBe("invalid_grant");
    expect((await call(server.url, "GET", "/v1/oauth/validate", { token: String(token.json["access_token"]) })).status).toBe(401);
  });

  it("keeps the callback's code sealed in the outbox: never in clear while queued, delivered with the code, sealed value dropped after delivery", async () => {
    const { jwt } = await userJwt(client, "https://web.example/popup");
    const start = backend.received.length;
    const release = backend.hold();
    const res = await metaAuthorize(jwt, { client_id: client.client_id, redirect_uri: callbackUri, state: "sealed-1" });
    expect(res.status).toBe(200);
    const [hook] = (await backend.waitFor(start + 1)).slice(start);
    const code = hook!.url.searchParams.get("code")!;
    expect(code).toMatch(/^.{16,}$/);
    type Row = { id: string; row: string; sealed_query: string | null; target_url: string; delivered_at: Date | null };
    const read = async () =>
      (
        await server.sql<Row>(
          "SELECT id::text, row_to_json(o)::text AS row, sealed_query, target_url, delivered_at FROM outbox o WHERE topic = 'oauth_meta.callback' AND target_url LIKE $1",
          [`%state=sealed-1%`],
        )
      )[0]!;
    // The backend holds its answer: the message is in flight, not delivered.
    const queued = await read();
    expect(queued.delivered_at).toBeNull();
    expect(queued.sealed_query).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(queued.row, "no column of the queued row holds the code").not.toContain(code);
    expect(new URL(queued.target_url).searchParams.has("code")).toBe(false);
    release();
    let delivered = await read();
    for (let i = 0; i < 200 && !delivered.delivered_at; i++) {
      await new Promise((r) => setTimeout(r, 25));
      delivered = await read();
    }
    expect(delivered.delivered_at).not.toBeNull();
    expect(delivered.sealed_query, "the sealed code is dropped once delivered").toBeNull();
    expect(delivered.row).not.toContain(code);
    const token = await call(server.url, "POST", "/v1/oauth-meta/get_token", {
      body: { client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: callbackUri },
    });
    expect(token.status, "the delivered code is the real one").toBe(200);
  });

  it("retries the callback with backoff when the backend answers 5xx", async () => {
    const { jwt } = await userJwt(client, "https://web.example/popup");
    backend.failFirst = 2;
    const start = backend.received.length;
    await metaAuthorize(jwt, { client_id: client.client_id, redirect_uri: callbackUri, state: "retry" });
    const got = await backend.waitFor(start + 1, 10_000);
    expect(got[start]!.url.searchParams.get("state")).toBe("retry");
    backend.failFirst = 0;
  });

  it("never calls an unregistered URI: 401 redirect_uri_mismatch, no code, no callback", async () => {
    const { jwt } = await userJwt(client, "https://web.example/popup");
    const codes = await server.sql("SELECT 1 FROM authorization_codes WHERE kind = 'meta'");
    const res = await metaAuthorize(jwt, { client_id: client.client_id, redirect_uri: `${backend.url}/elsewhere`, state: "x" });
    expect(res.status).toBe(401);
    expect(res.json["error"]).toBe("redirect_uri_mismatch");
    expect(await server.sql("SELECT 1 FROM authorization_codes WHERE kind = 'meta'")).toHaveLength(codes.length);
  });

  it("refuses a user JWT issued for another client (403), unknown clients (401), bad queries (400) and no token (401)", async () => {
    const other = await registerClient(server.url, { redirect_uris: ["https://other.example/popup"] });
    const { jwt } = await userJwt(other, "https://other.example/popup");
    const q = { client_id: client.client_id, redirect_uri: callbackUri, state: "x" };
    expect((await metaAuthorize(jwt, q)).json["error"]).toBe("token_user_mismatch");
    expect((await metaAuthorize(jwt, { ...q, client_id: "sg_000000000000000000000000" })).status).toBe(401);
    expect((await metaAuthorize(jwt, { client_id: client.client_id, redirect_uri: callbackUri })).status).toBe(400);
    expect((await metaAuthorize(jwt, { ...q, extra: "1" })).status).toBe(400);
    expect((await call(server.url, "GET", `/v1/oauth-meta/authorize?${new URLSearchParams(q)}`)).status).toBe(401);
  });

  it("get_token refuses wrong secrets, unregistered redirect URIs, browser codes and bad bodies", async () => {
    const browserCode = await authorizeCode(server.url, { client_id: client.client_id, redirect_uris: [callbackUri] });
    const body = { client_id: client.client_id, client_secret: client.client_secret, code: browserCode.code, redirect_uri: callbackUri };
    const wrong = await call(server.url, "POST", "/v1/oauth-meta/get_token", { body: { ...body, client_secret: "nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.json["error"]).toBe("invalid_client");
    const mismatch = await call(server.url, "POST", "/v1/oauth-meta/get_token", { body: { ...body, redirect_uri: "https://evil.example/cb" } });
    expect(mismatch.json["error"]).toBe("redirect_uri_mismatch");
    const kind = await call(server.url, "POST", "/v1/oauth-meta/get_token", { body });
    expect(kind.status).toBe(400);
    expect(kind.json["error"]).toBe("invalid_grant");
    for (const bad of [{ ...body, extra: 1 }, { ...body, code: 7 }, { client_id: client.client_id }]) {
      const res = await call(server.url, "POST", "/v1/oauth-meta/get_token", { body: bad });
      expect(res.status).toBe(400);
      expect(res.json["error"]).toBe("invalid_request");
    }
    expect((await call(server.url, "POST", "/v1/oauth-meta/get_token", { body: "{" })).json["error"]).toBe("malformed_json");
  });
});
