import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSigningKey } from "../../src/index.js";
import type { PrivateJwk } from "../../src/oauth/keys/key-store.js";
import { authorizeCode, call, exchange, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

let server: TestServer;
let oldKey: PrivateJwk;
beforeAll(async () => {
  oldKey = await generateSigningKey();
  server = await startTestServer({}, [oldKey]);
});
afterAll(async () => server?.close());

describe("discovery and service endpoints", () => {
  it("creates its requests and responses with the app's prototypes (no per-request prototype swap)", async () => {
    const born: boolean[] = [];
    const record = (req: object, res: object) =>
      born.push(Object.getPrototypeOf(req) === server.slotgate.app.request && Object.getPrototypeOf(res) === server.slotgate.app.response);
    server.server.prependListener("request", record);
    try {
      expect((await call(server.url, "GET", "/.well-known/jwks.json")).status).toBe(200);
    } finally {
      server.server.off("request", record);
    }
    expect(born).toEqual([true]);
  });

  it("publishes the public signing keys (no private parts) at /.well-known/jwks.json", async () => {
    const res = await call(server.url, "GET", "/.well-known/jwks.json");
    const keys = res.json["keys"] as Array<Record<string, string>>;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", kid: oldKey.kid });
    expect(keys[0]).not.toHaveProperty("d");
  });

  it("serves RFC 8414 metadata whose issuer is the base URL", async () => {
    const res = await call(server.url, "GET", "/.well-known/oauth-authorization-server");
    expect(res.json).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      jwks_uri: `${server.url}/.well-known/jwks.json`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
      device_authorization_endpoint: `${server.url}/oauth/device_authorization`,
    });
  });

  it("serves an OpenAPI document generated from the protocol schemas", async () => {
    const res = await call(server.url, "GET", "/openapi.json");
    const paths = res.json["paths"] as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: object } }> } }>>;
    expect(res.json["openapi"]).toBe("3.1.0");
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        "/oauth/token",
        "/v1/oauth/status/login",
        "/v1/oauth-meta/get_token",
        "/v1/pin/recover/code",
        "/oauth/authorize/passkey",
        "/oauth/idp/callback",
        "/v1/dev-user/mailbox",
        "/v1/dev-user/clients/{client_id}",
        "/v1/dev-user/clients/{client_id}/deliveries/{delivery_id}/retry",
      ]),
    );
    expect(Object.keys(paths["/v1/dev-user/clients/{client_id}"]!)).toEqual(["get", "patch", "delete"]);
    expect(Object.keys(paths["/v1/dev-user/clients/{client_id}"]!["patch"]!.requestBody!.content["application/json"]!.schema.properties)).toEqual([
      "name",
      "redirect_uris",
      "download_url",
      "web_url",
    ]);
    expect(Object.keys(paths["/v1/pin/recover"]!["post"]!.requestBody!.content["application/json"]!.schema.properties)).toEqual([
      "user_uuid",
      "pin_hash",
      "pin_salt",
      "recovery_id",
      "code",
    ]);
    expect(Object.keys(paths["/v1/oauth/status/login"]!["post"]!.requestBody!.content["application/json"]!.schema.properties)).toEqual([
      "user_id",
      "client_id",
    ]);
    // Money-moving writes: the Idempotency-Key header, the 202 pending answer and the lookup to follow it.
    type Described = { parameters?: Array<{ name: string; in: string }>; responses: Record<string, { headers?: object }> };
    const described = res.json["paths"] as Record<string, Record<string, Described>>;
    for (const path of [
      "/v1/development-api/user_buy_content_token",
      "/v1/development-api/increase_used_content_token",
      "/v1/token/transfer",
      "/v1/pin/verify",
    ]) {
      const post = described[path]!["post"]!;
      expect(post.parameters).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header" }));
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(["200", "202", "422", "429"]));
      expect(Object.keys(post.responses["202"]!.headers!)).toEqual(["Location", "Retry-After"]);
    }
    const lookup = described["/v1/chain/writes/{write_id}"]!["get"]!;
    expect(lookup.parameters).toContainEqual(expect.objectContaining({ name: "write_id", in: "path" }));
    expect(Object.keys(lookup.responses)).toEqual(expect.arrayContaining(["200", "404"]));
    expect(described["/v1/oauth/validate"]!["get"]!.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: "Idempotency-Key" }));
    // state is optional on the wire (PKCE S256 may stand in for it on a code redirect); the other three are not.
    const authorize = (described["/oauth/authorize"]!["get"]!.parameters ?? []) as unknown as Array<{
      name: string;
      required: boolean;
      schema: { description?: string };
    }>;
    expect(Object.fromEntries(authorize.map((p) => [p.name, p.required]))).toMatchObject({
      client_id: true,
      redirect_uri: true,
      response_type: true,
      state: false,
    });
    expect(authorize.find((p) => p.name === "state")?.schema.description).toContain("PKCE S256");
  });

  it("answers /healthz, 404 not_found for unknown routes, and security headers everywhere", async () => {
    const health = await call(server.url, "GET", "/healthz");
    expect(health.status).toBe(200);
    expect(health.json["status"]).toBe("ok");
    const missing = await call(server.url, "GET", "/nope");
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ success: false, error: "not_found", message: expect.any(String) });
    for (const h of [health, missing]) {
      expect(h.headers.get("x-content-type-options")).toBe("nosniff");
      expect(h.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(h.headers.get("x-powered-by")).toBeNull();
    }
  });
});

describe("key rotation", () => {
  it("tokens signed by the previous key keep verifying after a new key becomes active", async () => {
    const client = await registerClient(server.url);
    const { code } = await authorizeCode(server.url, client);
    const before = String((await exchange(server.url, client, code)).json["access_token"]);
    const newKey = await generateSigningKey();
    const rotated = await startTestServer({}, [oldKey, newKey]);
    try {
      const jwks = (await call(rotated.url, "GET", "/.well-known/jwks.json")).json as { keys: Array<{ kid: string }> };
      expect(jwks.keys.map((k) => k.kid)).toEqual([oldKey.kid, newKey.kid]);
      const c2 = await registerClient(rotated.url);
      const fresh = await exchange(rotated.url, c2, (await authorizeCode(rotated.url, c2)).code);
      const token = String(fresh.json["access_token"]);
      const { protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks as never), { issuer: rotated.url });
      expect(protectedHeader.kid).toBe(newKey.kid);
      // A token the old key signed (re-issued here for the rotated server's issuer) still verifies.
      const { SignJWT, importJWK } = await import("jose");
      const legacy = await new SignJWT({ client_id: c2.client_id, token_use: "user_jwt" })
        .setProtectedHeader({ alg: "ES256", kid: oldKey.kid })
        .setIssuer(rotated.url)
        .setSubject(String(fresh.json["user_id"]))
        .setJti("legacy-1")
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(await importJWK(oldKey, "ES256"));
      expect((await call(rotated.url, "GET", "/v1/oauth/validate", { token: legacy })).status).toBe(200);
    } finally {
      await rotated.close();
    }
    expect((await call(server.url, "GET", "/v1/oauth/validate", { token: before })).status).toBe(200);
  });

  it("accepts tokens within the 30 s clock-skew tolerance and refuses them beyond it", async () => {
    const { SignJWT, importJWK } = await import("jose");
    const key = await importJWK(oldKey, "ES256");
    const now = Math.floor(Date.now() / 1000);
    const make = (exp: number) =>
      new SignJWT({ client_id: "sg_x", token_use: "user_jwt" })
        .setProtectedHeader({ alg: "ES256", kid: oldKey.kid })
        .setIssuer(server.url)
        .setSubject("1")
        .setJti(`skew-${exp}`)
        .setIssuedAt(now - 100)
        .setExpirationTime(exp)
        .sign(key);
    expect((await call(server.url, "GET", "/v1/oauth/validate", { token: await make(now - 10) })).status).toBe(200);
    expect((await call(server.url, "GET", "/v1/oauth/validate", { token: await make(now - 40) })).status).toBe(401);
  });
});
