import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, devSignup, randomEmail, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const count = async (table: string) => Number((await server.sql<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`))[0]!.n);

const registration = {
  name: "Game",
  redirect_uris: ["https://game.example/cb", "http://127.0.0.1:7777/callback"],
  download_url: "https://game.example/dl",
  web_url: "https://game.example/",
  platform: "game",
  blockchain: true,
};

describe("developer accounts", () => {
  it("signs up (201) and logs in (200) with a JWT and uuid", async () => {
    const email = randomEmail("dev");
    const up = await call(server.url, "POST", "/v1/dev-user/signup", { body: { email, password: "long-enough-pw" } });
    expect(up.status).toBe(201);
    expect(up.json).toMatchObject({ success: true, uuid: expect.any(String), token: expect.any(String) });
    const login = await call(server.url, "POST", "/v1/dev-user/login_devuser", { body: { email: email.toUpperCase(), password: "long-enough-pw" } });
    expect(login.status).toBe(200);
    expect(login.json["uuid"]).toBe(up.json["uuid"]);
  });

  it("stores the password as a scrypt hash, never in clear", async () => {
    const email = randomEmail("dev");
    await call(server.url, "POST", "/v1/dev-user/signup", { body: { email, password: "clear-text-never" } });
    const [row] = await server.sql<{ password_hash: string }>("SELECT password_hash FROM dev_users WHERE email = $1", [email]);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain("clear-text-never");
  });

  it("answers 409 email_taken for a duplicate email and creates nothing", async () => {
    const dev = await devSignup(server.url);
    const before = await count("dev_users");
    const res = await call(server.url, "POST", "/v1/dev-user/signup", { body: { email: dev.email, password: "another-password" } });
    expect(res.status).toBe(409);
    expect(res.json["error"]).toBe("email_taken");
    expect(await count("dev_users")).toBe(before);
  });

  it("answers the same 401 invalid_credentials for a wrong password and an unknown email", async () => {
    const dev = await devSignup(server.url);
    const wrong = await call(server.url, "POST", "/v1/dev-user/login_devuser", { body: { email: dev.email, password: "wrong-password" } });
    const unknown = await call(server.url, "POST", "/v1/dev-user/login_devuser", { body: { email: randomEmail(), password: "wrong-password" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
    expect(wrong.json["error"]).toBe("invalid_credentials");
  });

  it.each([
    ["missing password", { email: "a@example.test" }],
    ["extra field", { email: "a@example.test", password: "long-enough-pw", admin: true }],
    ["wrong type", { email: "a@example.test", password: 12345678 }],
    ["short password", { email: "a@example.test", password: "short" }],
    ["bad email", { email: "not-an-email", password: "long-enough-pw" }],
    ["array body", ["a@example.test", "long-enough-pw"]],
  ])("rejects %s with 400 invalid_request and details, creating nothing", async (_name, body) => {
    const before = await count("dev_users");
    const res = await call(server.url, "POST", "/v1/dev-user/signup", { body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ success: false, error: "invalid_request" });
    expect(Array.isArray(res.json["details"])).toBe(true);
    expect(await count("dev_users")).toBe(before);
  });

  it("rejects malformed JSON (400 malformed_json), an oversized body (413) and a non-JSON body (415)", async () => {
    const bad = await call(server.url, "POST", "/v1/dev-user/login_devuser", { body: '{"email":' });
    expect(bad.status).toBe(400);
    expect(bad.json["error"]).toBe("malformed_json");
    const big = await call(server.url, "POST", "/v1/dev-user/signup", { body: { email: "a@example.test", password: "x".repeat(70 * 1024) } });
    expect(big.status).toBe(413);
    expect(big.json["error"]).toBe("payload_too_large");
    const form = await call(server.url, "POST", "/v1/dev-user/signup", {
      body: "email=a&password=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    expect(form.json["error"]).toBe("unsupported_media_type");
  });
});

describe("client registration", () => {
  it("registers a client: sg_ id, 43+ char secret shown once and stored only as a keyed hash", async () => {
    const dev = await devSignup(server.url);
    const res = await call(server.url, "POST", "/v1/dev-user/clients", { token: dev.token, body: registration });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json["client_id"]).toMatch(/^sg_[0-9a-f]{24}$/);
    const secret = String(res.json["client_secret"]);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(res.json).toMatchObject({ redirect_uris: registration.redirect_uris, platform: "game", blockchain: true });
    const [row] = await server.sql<{ secret_hash: string }>("SELECT secret_hash FROM clients WHERE client_id = $1", [res.json["client_id"]]);
    expect(row!.secret_hash).not.toBe(secret);
    expect(row!.secret_hash).not.toContain(secret);
    const list = await call(server.url, "GET", "/v1/dev-user/clients", { token: dev.token });
    expect(list.status).toBe(200);
    const clients = list.json["clients"] as Array<Record<string, unknown>>;
    expect(clients).toHaveLength(1);
    expect(clients[0]).not.toHaveProperty("client_secret");
    expect(clients[0]!["client_id"]).toBe(res.json["client_id"]);
  });

  it("lists only the caller's own clients", async () => {
    const a = await registerClient(server.url);
    const other = await devSignup(server.url);
    const list = await call(server.url, "GET", "/v1/dev-user/clients", { token: other.token });
    expect((list.json["clients"] as unknown[]).map((c) => (c as { client_id: string }).client_id)).not.toContain(a.client_id);
  });

  it("requires a developer token: none, forged or an end-user token is 401 invalid_token and creates nothing", async () => {
    const before = await count("clients");
    for (const token of [undefined, "not.a.jwt", "eyJhbGciOiJFUzI1NiIsImtpZCI6IngifQ.eyJzdWIiOiIxIn0.c2ln"]) {
      const res = await call(server.url, "POST", "/v1/dev-user/clients", { body: registration, ...(token ? { token } : {}) });
      expect(res.status).toBe(401);
      expect(res.json["error"]).toBe("invalid_token");
    }
    expect(await count("clients")).toBe(before);
    for (const token of [undefined, "not.a.jwt"]) {
      const list = await call(server.url, "GET", "/v1/dev-user/clients", token ? { token } : {});
      expect(list.status).toBe(401);
      expect(list.json["error"]).toBe("invalid_token");
    }
  });

  it.each([
    ["missing web_url", { ...registration, web_url: undefined }],
    ["missing download_url", { ...registration, download_url: undefined }],
    ["no redirect URI", { ...registration, redirect_uris: [] }],
    ["relative redirect URI", { ...registration, redirect_uris: ["/cb"] }],
    ["javascript: redirect URI", { ...registration, redirect_uris: ["javascript:alert(1)"] }],
    ["unknown platform", { ...registration, platform: "console" }],
    ["blockchain as string", { ...registration, blockchain: "yes" }],
    ["extra field", { ...registration, client_secret: "mine" }],
  ])("rejects a registration with %s (400 invalid_request) and creates nothing", async (_n, body) => {
    const dev = await devSignup(server.url);
    const before = await count("clients");
    const res = await call(server.url, "POST", "/v1/dev-user/clients", { token: dev.token, body });
    expect(res.status).toBe(400);
    expect(res.json["error"]).toBe("invalid_request");
    expect(await count("clients")).toBe(before);
  });

  it("serves the developer-center page with a nonce CSP, and its script as a static asset cached for good", async () => {
    const res = await fetch(`${server.url}/developer`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const nonce = res.headers.get("content-security-policy")!.match(/script-src 'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeDefined();
    const html = (await res.text()).replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    expect(html).toContain('id="client-form"');
    const tag = html.match(/<script nonce="([^"]+)" src="([^"]+)" integrity="([^"]+)"><\/script>/);
    expect(tag?.[1]).toBe(nonce);
    const asset = await fetch(`${server.url}${tag![2]}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
    const source = Buffer.from(await asset.arrayBuffer());
    expect(`sha256-${createHash("sha256").update(source).digest("base64")}`).toBe(tag![3]);
    expect(source.toString("utf8")).toContain("/v1/dev-user/clients");
    // Another build's path (an old page in a cache) is not this script: 404, not a script the integrity would refuse.
    expect((await fetch(`${server.url}/developer/developer-center.0000000000000000.js`)).status).toBe(404);
  });
});
