import { LIMITS, PATHS } from "@slotgate/protocol";
import { expect } from "vitest";
import { expectDetailPath, expectError } from "../assertions.js";
import type { ConformanceContext } from "../context.js";
import type { CheckGroup } from "./check.js";

function raw(ctx: ConformanceContext, path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return ctx.request(path, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
}

/** Malformed JSON on JSON endpoints: 400 malformed_json. */
export async function rejectsMalformedJson(ctx: ConformanceContext): Promise<void> {
  const token = (await ctx.accessToken(ctx.clients.web, ctx.users.alice)).access_token;
  const targets: [string, Record<string, string>][] = [
    [PATHS.devUserSignup, {}],
    [PATHS.devUserLogin, {}],
    [PATHS.clients, ctx.bearer(ctx.developer.token)],
    [PATHS.statusLogin, ctx.bearer(token)],
    [PATHS.statusLogout, ctx.bearer(token)],
    [PATHS.metaGetToken, {}],
  ];
  for (const [path, headers] of targets) {
    for (const body of ['{"email":', "{'a':1}", "not json", '{"a":1}}']) {
      await expectError(await raw(ctx, path, body, headers), "malformed_json", `${path} ${body}`);
    }
  }
}

/** A body over 64 KiB: 413 payload_too_large, and nothing happens. */
export async function rejectsOversizedBody(ctx: ConformanceContext): Promise<void> {
  const email = `${ctx.unique("big")}@conformance.test`;
  const big = JSON.stringify({ email, password: "p".repeat(LIMITS.maxJsonBodyBytes + 1024) });
  await expectError(await raw(ctx, PATHS.devUserSignup, big), "payload_too_large", "signup");
  const login = await ctx.postJson(PATHS.devUserLogin, { email, password: "p".repeat(16) });
  expect(login.status, "the oversized signup created no account").toBe(401);
  const token = (await ctx.accessToken(ctx.clients.web, ctx.users.alice)).access_token;
  const status = JSON.stringify({ user_id: ctx.users.alice.user_id, client_id: ctx.clients.web.client_id, pad: "x".repeat(70 * 1024) });
  await expectError(await raw(ctx, PATHS.statusLogin, status, ctx.bearer(token)), "payload_too_large", "status login");
}

/** Unknown fields on JSON APIs: 400 invalid_request naming them. */
export async function rejectsUnknownFields(ctx: ConformanceContext): Promise<void> {
  const login = await expectError(
    await ctx.postJson(PATHS.devUserLogin, { email: ctx.developer.email, password: ctx.developer.password, remember: true }),
    "invalid_request",
    "login_devuser with an extra field",
  );
  expect(JSON.stringify(login.details)).toContain("remember");
  const { backend } = ctx.clients;
  await expectError(
    await ctx.postJson(PATHS.metaGetToken, {
      client_id: backend.client_id,
      client_secret: backend.client_secret,
      code: "x",
      redirect_uri: backend.redirect_uri,
      scope: "all",
    }),
    "invalid_request",
    "get_token with an extra field",
  );
}

/** Wrong-typed or missing fields: 400 invalid_request with the field's path; secrets never echoed. */
export async function rejectsWrongTypes(ctx: ConformanceContext): Promise<void> {
  const cases: [unknown, string][] = [
    [{ email: ctx.developer.email, password: 12345678 }, "password"],
    [{ email: 42, password: "password-1" }, "email"],
    [{ email: "not-an-email", password: "password-1" }, "email"],
    [{ email: ctx.developer.email }, "password"],
    [null, "(body)"],
    ["a string", "(body)"],
  ];
  for (const [body, path] of cases) {
    const res = await ctx.postJson(PATHS.devUserLogin, body);
    const error = await expectError(res, "invalid_request", JSON.stringify(body));
    expectDetailPath(error, path, JSON.stringify(body));
  }
  const secret = `secret-${ctx.unique("pw")}`;
  const res = await ctx.postJson(PATHS.devUserSignup, { email: "bad-email", password: secret });
  expect(await res.text(), "the password is not echoed in the error").not.toContain(secret);
}

/** OAuth endpoints ignore unknown parameters (RFC 6749). */
export async function oauthEndpointsIgnoreUnknownParams(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const page = await ctx.openAuthorize({
    client_id: web.client_id,
    redirect_uri: web.redirect_uri,
    response_type: "code",
    state: ctx.unique("s"),
    prompt: "login",
    foo: "bar",
  });
  expect(page.response.status).toBe(200);
  const { code } = await ctx.authorizeCode(web, ctx.users.alice);
  const res = await ctx.postJson(PATHS.token, {
    grant_type: "authorization_code",
    code,
    redirect_uri: web.redirect_uri,
    client_id: web.client_id,
    client_secret: web.client_secret,
    scope: "openid",
  });
  expect(res.status).toBe(200);
}

/** An unknown route: 404 not_found with the error shape. */
export async function unknownRouteIs404(ctx: ConformanceContext): Promise<void> {
  await expectError(await ctx.request("/v1/does-not-exist"), "not_found", "GET unknown");
  await expectError(await ctx.postJson("/v1/oauth/status/unknown", {}), "not_found", "POST unknown");
}

/** Bad-input checks. */
export const badInputChecks: CheckGroup = {
  "malformed JSON -> 400 malformed_json": rejectsMalformedJson,
  "body over 64 KiB -> 413 payload_too_large, nothing changes": rejectsOversizedBody,
  "unknown fields on JSON APIs -> 400 invalid_request": rejectsUnknownFields,
  "wrong-typed / missing fields -> 400 invalid_request with paths, no echo of secrets": rejectsWrongTypes,
  "OAuth endpoints ignore unknown parameters": oauthEndpointsIgnoreUnknownParams,
  "unknown route -> 404 not_found": unknownRouteIs404,
};
