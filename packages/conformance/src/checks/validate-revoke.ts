import { LIMITS, PATHS } from "@slotgate/protocol";
import { validateResponseSchema } from "@slotgate/protocol/schemas";
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, jwtVerify } from "jose";
import { expect } from "vitest";
import { expectError, expectJson, expectOk } from "../assertions.js";
import type { ConformanceContext } from "../context.js";
import type { CheckGroup } from "./check.js";

async function expectInvalidToken(res: Response, what: string): Promise<void> {
  const challenge = res.headers.get("www-authenticate") ?? "";
  await expectError(res, "invalid_token", what);
  expect(challenge, `${what}: WWW-Authenticate`).toMatch(/^Bearer\b.*error="invalid_token"/);
}

/** An access token validates: user_id, client_id, token_use access_token, expires_at about an hour ahead. */
export async function validateAcceptsAccessToken(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const token = await ctx.accessToken(web, ctx.users.alice);
  const body = await expectOk(await ctx.validate(token.access_token), validateResponseSchema);
  expect(body).toMatchObject({ valid: true, user_id: ctx.users.alice.user_id, client_id: web.client_id, token_use: "access_token" });
  const claims = decodeJwt(token.access_token);
  expect(Date.parse(body.expires_at) / 1000).toBe(claims.exp);
  expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(LIMITS.accessTokenLifetimeSeconds);
}

/** A user JWT (popup login) validates with token_use user_jwt and a 7-day lifetime. */
export async function validateAcceptsUserJwt(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const jwt = await ctx.userJwt(web, ctx.users.bob);
  const body = await expectOk(await ctx.validate(jwt), validateResponseSchema);
  expect(body).toMatchObject({ user_id: ctx.users.bob.user_id, client_id: web.client_id, token_use: "user_jwt" });
  const claims = decodeJwt(jwt);
  expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(LIMITS.userJwtLifetimeSeconds);
}

/**
 * `GET /v1/oauth/userinfo` names the token's user, for an access token and a user JWT alike: `sub` is the
 * `user_id`, the nickname a new account's email local part, and nothing else (no email); no token is 401.
 */
export async function userinfoNamesTheTokensUser(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  for (const [user, token] of [
    [ctx.users.alice, (await ctx.accessToken(web, ctx.users.alice)).access_token],
    [ctx.users.bob, await ctx.userJwt(web, ctx.users.bob)],
  ] as const) {
    const body = await expectJson(await ctx.request(PATHS.userinfo, { headers: ctx.bearer(token) }), 200, "userinfo");
    expect(body, "userinfo of the token's user").toEqual({ success: true, sub: user.user_id, nickname: user.email.split("@")[0] });
  }
  await expectInvalidToken(await ctx.request(PATHS.userinfo), "userinfo without a token");
  const metadata = await expectJson(await ctx.request(PATHS.metadata), 200, "metadata");
  expect(metadata["userinfo_endpoint"], "the metadata document names the UserInfo endpoint").toBe(ctx.url(PATHS.userinfo));
}

/** No token, a malformed one, or another scheme: 401 invalid_token with the Bearer challenge. */
export async function validateRejectsMissingOrMalformed(ctx: ConformanceContext): Promise<void> {
  await expectInvalidToken(await ctx.request(PATHS.validate), "no Authorization header");
  for (const header of ["Bearer", "Bearer not-a-jwt", "Bearer a.b.c", `Basic ${Buffer.from("a:b").toString("base64")}`]) {
    await expectInvalidToken(await ctx.request(PATHS.validate, { headers: { Authorization: header } }), header);
  }
}

/** A token signed by another key (same claims and kid), an alg=none token and a tampered payload: 401. */
export async function validateRejectsForgedToken(ctx: ConformanceContext): Promise<void> {
  const real = (await ctx.accessToken(ctx.clients.web, ctx.users.alice)).access_token;
  const header = decodeProtectedHeader(real);
  const claims = decodeJwt(real);
  const { privateKey } = await generateKeyPair("ES256");
  const forged = await new SignJWT({ ...claims }).setProtectedHeader({ ...header, alg: "ES256" }).sign(privateKey);
  await expectInvalidToken(await ctx.validate(forged), "signed by another key");
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const none = `${b64({ alg: "none", typ: header.typ })}.${b64(claims)}.`;
  await expectInvalidToken(await ctx.validate(none), "alg none");
  const [h, , s] = real.split(".");
  const tampered = `${h}.${b64({ ...claims, sub: ctx.users.bob.user_id })}.${s}`;
  await expectInvalidToken(await ctx.validate(tampered), "payload changed after signing");
}

/** A correctly signed but expired token: 401 invalid_token (needs `operator.issueExpiredToken`). */
export async function validateRejectsExpiredToken(ctx: ConformanceContext): Promise<void> {
  const issue = ctx.target.operator.issueExpiredToken;
  if (!issue) throw new Error("this check needs operator.issueExpiredToken");
  const expired = await issue({ user_id: ctx.users.alice.user_id, client_id: ctx.clients.web.client_id });
  expect(decodeJwt(expired).exp ?? Number.POSITIVE_INFINITY).toBeLessThan(Date.now() / 1000 - LIMITS.clockSkewSeconds);
  await expectInvalidToken(await ctx.validate(expired), "expired token");
  const status = await ctx.postJson(PATHS.statusLogin, { user_id: ctx.users.alice.user_id, client_id: ctx.clients.web.client_id }, ctx.bearer(expired));
  await expectInvalidToken(status, "expired token on status login");
}

/** Revoke deactivates exactly that token (by jti): 200 { revoked: true }, then 401; other tokens stay valid. */
export async function revokeDeactivatesToken(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const token = (await ctx.accessToken(web, ctx.users.alice)).access_token;
  const other = (await ctx.accessToken(web, ctx.users.alice)).access_token;
  const jwt = await ctx.userJwt(web, ctx.users.alice);
  const revoked = await ctx.request(PATHS.revoke, { method: "POST", headers: ctx.bearer(token) });
  expect(await revoked.json()).toEqual({ success: true, revoked: true });
  expect(revoked.status).toBe(200);
  await expectInvalidToken(await ctx.validate(token), "revoked token");
  await expectInvalidToken(await ctx.request(PATHS.revoke, { method: "POST", headers: ctx.bearer(token) }), "revoking twice");
  expect((await ctx.validate(other)).status, "another token of the same user stays valid").toBe(200);
  expect((await ctx.validate(jwt)).status, "the user JWT stays valid").toBe(200);
  const revokedJwt = await ctx.request(PATHS.revoke, { method: "POST", headers: ctx.bearer(jwt) });
  expect(revokedJwt.status, "a user JWT can be revoked (client SDK logout)").toBe(200);
  await expectInvalidToken(await ctx.validate(jwt), "revoked user JWT");
}

/** The JWKS publishes the ES256 key (by kid) that verifies access tokens with the contract's claims. */
export async function jwksVerifiesTokens(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const res = await ctx.request(PATHS.jwks);
  expect(res.status).toBe(200);
  const jwks = (await res.json()) as { keys: { kid?: string; kty?: string }[] };
  expect(jwks.keys.length).toBeGreaterThan(0);
  const token = (await ctx.accessToken(web, ctx.users.alice)).access_token;
  const header = decodeProtectedHeader(token);
  expect(header).toMatchObject({ alg: "ES256", typ: "at+jwt" });
  const jwk = jwks.keys.find((k) => k.kid === header.kid);
  expect(jwk, "the token's kid is in the JWKS").toBeDefined();
  expect(jwk).not.toHaveProperty("d");
  const key = await importJWK({ ...jwk, alg: "ES256" }, "ES256");
  const { payload } = await jwtVerify(token, key, { issuer: ctx.baseUrl, audience: web.client_id });
  expect(payload).toMatchObject({ sub: ctx.users.alice.user_id, client_id: web.client_id, token_use: "access_token" });
  expect(typeof payload.jti).toBe("string");
  const jwt = await ctx.userJwt(web, ctx.users.alice);
  const { payload: user } = await jwtVerify(jwt, key, { issuer: ctx.baseUrl });
  expect(user).toMatchObject({ sub: ctx.users.alice.user_id, client_id: web.client_id, token_use: "user_jwt" });
}

/** validate and revoke answer CORS preflights and send Access-Control-Allow-Origin: *. */
export async function bearerEndpointsAllowCors(ctx: ConformanceContext): Promise<void> {
  for (const path of [PATHS.validate, PATHS.revoke]) {
    const preflight = await ctx.request(path, {
      method: "OPTIONS",
      headers: { Origin: "https://app.conformance.test", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization" },
    });
    expect(preflight.status, `${path} preflight`).toBeGreaterThanOrEqual(200);
    expect(preflight.status, `${path} preflight`).toBeLessThan(300);
    expect(preflight.headers.get("access-control-allow-origin"), `${path} preflight`).toBe("*");
    expect((preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase()).toContain("authorization");
  }
  const token = (await ctx.accessToken(ctx.clients.web, ctx.users.bob)).access_token;
  const ok = await ctx.request(PATHS.validate, { headers: { ...ctx.bearer(token), Origin: "https://app.conformance.test" } });
  expect(ok.headers.get("access-control-allow-origin")).toBe("*");
  const denied = await ctx.request(PATHS.validate, { headers: { Origin: "https://app.conformance.test" } });
  expect(denied.status).toBe(401);
  expect(denied.headers.get("access-control-allow-origin"), "errors carry CORS too").toBe("*");
}

/** Validate / revoke checks. */
export const validateRevokeChecks: CheckGroup = {
  "access token validates with user_id, client_id, token_use and expires_at": validateAcceptsAccessToken,
  "user JWT validates as user_jwt with a 7-day lifetime": validateAcceptsUserJwt,
  "missing / malformed bearer -> 401 invalid_token with WWW-Authenticate": validateRejectsMissingOrMalformed,
  "forged (other key), alg=none and tampered tokens -> 401": validateRejectsForgedToken,
  "revoke deactivates exactly that token": revokeDeactivatesToken,
  "JWKS key verifies access tokens and user JWTs (ES256, kid, iss, aud, typ at+jwt)": jwksVerifiesTokens,
  "validate and revoke allow CORS with *": bearerEndpointsAllowCors,
  "userinfo names the token's user (sub, nickname), 401 without a token": userinfoNamesTheTokensUser,
};

/** Checks that need `operator.issueExpiredToken`. */
export const expiredTokenChecks: CheckGroup = {
  "expired (correctly signed) token -> 401 invalid_token": validateRejectsExpiredToken,
};
