import { errorBodySchema } from "@slotgate/protocol/schemas";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCode, BrowserSession, call, exchange, registerClient } from "../support/flows.js";
import { startTestServer, type TestServer } from "../support/harness.js";

let server: TestServer;
let client: Awaited<ReturnType<typeof registerClient>>;
let user: { token: string; userId: string };

beforeAll(async () => {
  server = await startTestServer();
  client = await registerClient(server.url);
  const { code } = await authorizeCode(server.url, client);
  const res = await exchange(server.url, client, code);
  user = { token: String(res.json["access_token"]), userId: String(res.json["user_id"]) };
});
afterAll(async () => server?.close());

const snapshot = async () =>
  (
    await server.sql<{ n: string }>(
      "SELECT (SELECT count(*) FROM dev_users) + (SELECT count(*) FROM clients) + (SELECT count(*) FROM end_users) + (SELECT count(*) FROM login_status) + (SELECT count(*) FROM outbox) + (SELECT count(*) FROM revoked_tokens) + (SELECT count(*) FROM authorization_codes WHERE used_at IS NOT NULL) AS n",
    )
  )[0]!.n;

describe("bad input changes nothing", () => {
  it("expired tokens get 401 on every bearer endpoint", async () => {
    const expired = await server.slotgate.services.tokens.signAccessToken(user.userId, client.client_id, "expired-1", new Date(Date.now() - 60_000));
    const before = await snapshot();
    const body = { user_id: user.userId, client_id: client.client_id };
    for (const [method, path, b] of [
      ["GET", "/v1/oauth/validate", undefined],
      ["POST", "/v1/oauth/revoke", undefined],
      ["POST", "/v1/oauth/status/login", body],
      ["POST", "/v1/oauth/status/logout", body],
      ["GET", `/v1/oauth/status/check?${new URLSearchParams(body)}`, undefined],
      [
        "GET",
        `/v1/oauth-meta/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, state: "s" })}`,
        undefined,
      ],
    ] as const) {
      const res = await call(server.url, method, path, { token: expired, ...(b ? { body: b } : {}) });
      expect(res.status, path).toBe(401);
      expect(res.json["error"]).toBe("invalid_token");
    }
    expect(await snapshot()).toBe(before);
  });

  it("revoke without a valid token is 401 and revokes nothing; the listing check validates its query", async () => {
    const before = await snapshot();
    expect((await call(server.url, "POST", "/v1/oauth/revoke")).status).toBe(401);
    expect((await call(server.url, "POST", "/v1/oauth/revoke", { token: `${user.token}x` })).status).toBe(401);
    expect((await call(server.url, "GET", "/v1/oauth/validate", { token: user.token })).status).toBe(200);
    expect(await snapshot()).toBe(before);
  });

  it.each([
    ["/v1/dev-user/signup", false],
    ["/v1/dev-user/login_devuser", false],
    ["/v1/dev-user/clients", true],
    ["/v1/oauth/status/login", true],
    ["/v1/oauth/status/logout", true],
    ["/v1/oauth-meta/get_token", false],
    ["/oauth/token", false],
  ])("POST %s: arbitrary JSON bodies get a 4xx error body and change nothing (property)", async (path, bearer) => {
    const token = path.startsWith("/v1/dev-user/clients") ? client.devToken : user.token;
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.dictionary(
            fc.constantFrom("email", "password", "user_id", "client_id", "client_secret", "code", "redirect_uri", "grant_type", "name", "x"),
            fc.jsonValue(),
          ),
        ),
        async (body) => {
          const res = await call(server.url, "POST", path, { body: JSON.stringify(body), ...(bearer ? { token } : {}) });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(errorBodySchema.safeParse(res.json).success).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
    expect(await snapshot()).toBe(before);
  });
});

describe("bad input on the sign-in endpoints of mailboxes, identity providers and passkeys changes nothing", () => {
  const identitySnapshot = async () =>
    (
      await server.sql<{ n: string }>(
        "SELECT concat_ws('/', (SELECT count(*) FROM end_users), (SELECT count(*) FROM end_users WHERE email_verified_at IS NOT NULL), (SELECT count(*) FROM identity_links), (SELECT count(*) FROM passkeys), (SELECT count(*) FROM mailbox_challenges WHERE consumed_at IS NOT NULL), (SELECT count(*) FROM sign_in_flows WHERE consumed_at IS NOT NULL), (SELECT count(*) FROM authorization_codes)) AS n",
      )
    )[0]!.n;
  const params = () => ({ client_id: client.client_id, redirect_uri: client.redirect_uris[0]!, response_type: "code", state: "bad-input" });
  const fieldValue = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("", "1", "approve", "deny", "A".repeat(32), "000000", "{}", "[]", "null"));

  it("POST /oauth/authorize with arbitrary challenge / otp / provider / passkey / idp_flow fields: 4xx page, nothing created or used (property)", async () => {
    const browser = new BrowserSession(server.url);
    const page = await browser.open(params());
    const before = await identitySnapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(
            "challenge",
            "otp",
            "provider",
            "passkey_flow",
            "passkey_response",
            "passkey_registration",
            "passkey_skip",
            "idp_flow",
            "add_passkey",
            "decision",
          ),
          fieldValue,
          { minKeys: 1 },
        ),
        async (fields) => {
          const res = await browser.submit({ ...params(), csrf_token: page.csrf, ...fields });
          if (res.status === 302) {
            // Only a denial may leave: with access_denied, never with a code.
            expect(res.location).toContain("error=access_denied");
            return;
          }
          expect(res.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    expect(await identitySnapshot()).toBe(before);
  });

  it("POST /oauth/authorize/passkey: arbitrary bodies without the browser's CSRF cookie get 4xx JSON and create no challenge (property)", async () => {
    const flows = async () => Number((await server.sql<{ n: string }>("SELECT count(*)::text AS n FROM sign_in_flows"))[0]!.n);
    const before = await flows();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom("csrf_token", "client_id", "x"), fc.jsonValue())), async (body) => {
        const res = await call(server.url, "POST", "/oauth/authorize/passkey", { body: JSON.stringify(body) });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(errorBodySchema.safeParse(res.json).success).toBe(true);
      }),
      { numRuns: 25 },
    );
    expect(await flows()).toBe(before);
  });

  it("GET /oauth/idp/callback with arbitrary query strings: 4xx, nothing created (property)", async () => {
    const before = await identitySnapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom("state", "code", "error", "iss", "x"),
          fc.oneof(fc.string({ maxLength: 60 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 })),
        ),
        async (query) => {
          const search = new URLSearchParams();
          for (const [k, v] of Object.entries(query)) for (const item of Array.isArray(v) ? v : [v]) search.append(k, item);
          const res = await call(server.url, "GET", `/oauth/idp/callback?${search}`);
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(errorBodySchema.safeParse(res.json).success).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
    expect(await identitySnapshot()).toBe(before);
  });
});
