import { PATHS } from "@slotgate/protocol";
import { statusCheckResponseSchema, statusLoginResponseSchema, statusLogoutResponseSchema, statusUpdateSchema } from "@slotgate/protocol/schemas";
import fc from "fast-check";
import { expect } from "vitest";
import { expectDetailPath, expectError, expectOk } from "../assertions.js";
import type { ConformanceContext, RegisteredClient, TestUser } from "../context.js";
import type { CheckGroup } from "./check.js";

function check(ctx: ConformanceContext, token: string, user_id: string, client_id: string): Promise<Response> {
  return ctx.request(`${PATHS.statusCheck}?${new URLSearchParams({ user_id, client_id })}`, { headers: ctx.bearer(token) });
}

function update(ctx: ConformanceContext, which: "login" | "logout", token: string, body: unknown): Promise<Response> {
  return ctx.postJson(which === "login" ? PATHS.statusLogin : PATHS.statusLogout, body, ctx.bearer(token));
}

async function freshUserToken(ctx: ConformanceContext, client: RegisteredClient): Promise<{ user: TestUser; token: string }> {
  const user = await ctx.signupUser();
  return { user, token: (await ctx.accessToken(client, user)).access_token };
}

/** never recorded -> logged_out/true/null; login -> logged_in/false; logout -> transfer_enabled true; check follows. */
export async function statusLifecycle(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { user, token } = await freshUserToken(ctx, web);
  const ids = { user_id: user.user_id, client_id: web.client_id };
  const initial = await expectOk(await check(ctx, token, ids.user_id, ids.client_id), statusCheckResponseSchema, 200, "check (never recorded)");
  expect(initial).toMatchObject({ ...ids, status: "logged_out", transfer_enabled: true, timestamp: null });

  const login = await expectOk(await update(ctx, "login", token, ids), statusLoginResponseSchema, 200, "login");
  expect(login).toMatchObject({ user_id: user.user_id, status: "logged_in" });
  const afterLogin = await expectOk(await check(ctx, token, ids.user_id, ids.client_id), statusCheckResponseSchema, 200, "check after login");
  expect(afterLogin).toMatchObject({ ...ids, status: "logged_in", transfer_enabled: false });
  expect(afterLogin.timestamp).toBe(login.timestamp);

  const logout = await expectOk(await update(ctx, "logout", token, ids), statusLogoutResponseSchema, 200, "logout");
  expect(logout).toMatchObject({ user_id: user.user_id, status: "logged_out", transfer_enabled: true });
  const afterLogout = await expectOk(await check(ctx, token, ids.user_id, ids.client_id), statusCheckResponseSchema, 200, "check after logout");
  expect(afterLogout).toMatchObject({ ...ids, status: "logged_out", transfer_enabled: true });
  expect(afterLogout.timestamp).toBe(logout.timestamp);
  expect(Date.parse(logout.timestamp)).toBeGreaterThanOrEqual(Date.parse(login.timestamp));

  await expectOk(await update(ctx, "login", token, ids), statusLoginResponseSchema, 200, "login again");
  const again = await expectOk(await check(ctx, token, ids.user_id, ids.client_id), statusCheckResponseSchema, 200, "check after second login");
  expect(again).toMatchObject({ status: "logged_in", transfer_enabled: false });
}

/** Status is per (user, client): logging in at one client leaves another client's status alone. */
export async function statusIsPerClient(ctx: ConformanceContext): Promise<void> {
  const { web, chain } = ctx.clients;
  const user = await ctx.signupUser();
  const webToken = (await ctx.accessToken(web, user)).access_token;
  const chainToken = (await ctx.accessToken(chain, user)).access_token;
  await expectOk(await update(ctx, "login", webToken, { user_id: user.user_id, client_id: web.client_id }), statusLoginResponseSchema);
  const other = await expectOk(await check(ctx, chainToken, user.user_id, chain.client_id), statusCheckResponseSchema);
  expect(other).toMatchObject({ status: "logged_out", transfer_enabled: true, timestamp: null });
}

/** Another user's token, or a token of another client: 403 token_user_mismatch on login, logout and check, and nothing changes. */
export async function statusRejectsOtherUsersToken(ctx: ConformanceContext): Promise<void> {
  const { web, chain } = ctx.clients;
  const { user: victim, token: victimToken } = await freshUserToken(ctx, web);
  const attackerToken = (await ctx.accessToken(web, ctx.users.bob)).access_token;
  const target = { user_id: victim.user_id, client_id: web.client_id };
  await expectError(await update(ctx, "login", attackerToken, target), "token_user_mismatch", "login with another user's token");
  await expectError(await update(ctx, "logout", attackerToken, target), "token_user_mismatch", "logout with another user's token");
  await expectError(await check(ctx, attackerToken, target.user_id, target.client_id), "token_user_mismatch", "check with another user's token");
  await expectError(await update(ctx, "login", victimToken, { ...target, client_id: chain.client_id }), "token_user_mismatch", "token of another client");
  const state = await expectOk(await check(ctx, victimToken, target.user_id, target.client_id), statusCheckResponseSchema);
  expect(state, "refused updates changed nothing").toMatchObject({ status: "logged_out", timestamp: null });
}

/** Status endpoints need a valid bearer token: 401 invalid_token. */
export async function statusRequiresBearer(ctx: ConformanceContext): Promise<void> {
  const body = { user_id: ctx.users.alice.user_id, client_id: ctx.clients.web.client_id };
  await expectError(await ctx.postJson(PATHS.statusLogin, body), "invalid_token", "login without token");
  await expectError(await ctx.postJson(PATHS.statusLogout, body, ctx.bearer("x.y.z")), "invalid_token", "logout with garbage token");
  await expectError(await ctx.request(`${PATHS.statusCheck}?${new URLSearchParams(body)}`), "invalid_token", "check without token");
}

/** A user JWT from the popup login is accepted by the status endpoints like an access token. */
export async function statusAcceptsUserJwt(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const user = await ctx.signupUser();
  const jwt = await ctx.userJwt(web, user);
  await expectOk(await update(ctx, "logout", jwt, { user_id: user.user_id, client_id: web.client_id }), statusLogoutResponseSchema);
}

/** Missing, extra, empty or wrong-typed fields: 400 invalid_request with field details. */
export async function statusRejectsBadBodies(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const { alice } = ctx.users;
  const token = (await ctx.accessToken(web, alice)).access_token;
  const good = { user_id: alice.user_id, client_id: web.client_id };
  const cases: [unknown, string][] = [
    [{ client_id: web.client_id }, "user_id"],
    [{ user_id: alice.user_id }, "client_id"],
    [{ ...good, extra: true }, "(body)"],
    [{ ...good, user_id: Number(alice.user_id) }, "user_id"],
    [{ ...good, client_id: "" }, "client_id"],
    [[good], "(body)"],
  ];
  for (const [body, path] of cases) {
    const error = await expectError(await update(ctx, "login", token, body), "invalid_request", JSON.stringify(body));
    expectDetailPath(error, path, JSON.stringify(body));
  }
  await expectError(await ctx.request(PATHS.statusCheck, { headers: ctx.bearer(token) }), "invalid_request", "check without query");
}

/** Property: for any JSON body, status login answers 200 (own ids), 403 (valid shape, other ids) or 400 invalid_request, never 5xx. */
export async function statusBodiesProperty(ctx: ConformanceContext): Promise<void> {
  const { web } = ctx.clients;
  const user = await ctx.signupUser();
  const token = (await ctx.accessToken(web, user)).access_token;
  const own = { user_id: user.user_id, client_id: web.client_id };
  const idLike = fc.oneof(fc.constant(user.user_id), fc.constant(web.client_id), fc.string({ maxLength: 20 }), fc.integer());
  const body = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.record({ user_id: idLike, client_id: idLike }),
    fc.record({ user_id: idLike, client_id: idLike, extra: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: ["user_id"] }),
    fc.constant(own),
  );
  await fc.assert(
    fc.asyncProperty(body, async (value) => {
      const res = await update(ctx, "login", token, value);
      const valid = statusUpdateSchema.safeParse(value);
      if (!valid.success) {
        await expectError(res, "invalid_request", `body ${JSON.stringify(value)}`);
      } else if (valid.data.user_id === own.user_id && valid.data.client_id === own.client_id) {
        await expectOk(res, statusLoginResponseSchema, 200, `body ${JSON.stringify(value)}`);
      } else {
        await expectError(res, "token_user_mismatch", `body ${JSON.stringify(value)}`);
      }
    }),
    { numRuns: 60 },
  );
}

/** Status checks. */
export const statusChecks: CheckGroup = {
  "lifecycle: never recorded -> login -> logout, transfer_enabled === logged_out": statusLifecycle,
  "status is kept per (user, client)": statusIsPerClient,
  "another user's or client's token -> 403 token_user_mismatch, nothing changes": statusRejectsOtherUsersToken,
  "no / invalid bearer -> 401 invalid_token": statusRequiresBearer,
  "user JWT accepted like an access token": statusAcceptsUserJwt,
  "missing / extra / wrong-typed fields -> 400 invalid_request with details": statusRejectsBadBodies,
  "property: any JSON body -> 200, 403 or 400, never 5xx": statusBodiesProperty,
};
