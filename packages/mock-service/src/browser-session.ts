import { LIMITS, SILENT_RESULT_SCRIPT } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { browserLogoutSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import type { MockContext } from "./context.js";
import { endpointUrl } from "./context.js";
import { cookieValue } from "./http/auth.js";
import { readParams, validate } from "./http/body.js";
import { guard, json } from "./http/respond.js";
import { scriptJson } from "./html/escape.js";
import { randomBase64url } from "./random.js";
import type { ClientRecord } from "./state.js";
import { issueUserJwt } from "./tokens.js";

/**
 * The simulated browser session (docs/decisions/client-sdk.md, "Sessions that outlive a JWT"; the server's
 * `oauth/authorize/browser-session.ts`): one `HttpOnly` cookie per client, set by an interactive approval of a
 * confidential client, read by silent renewal (`prompt=none`), ended by `POST /oauth/logout`. The server's cookie
 * is a stateless HMAC; the simulation keeps the session in `state.browserSessions` under a random cookie value.
 */

const IDLE_MS = LIMITS.browserSessionIdleSeconds * 1000;
const MAX_MS = LIMITS.browserSessionMaxSeconds * 1000;

function cookieName(clientId: string): string {
  return `slotgate_session_${clientId}`;
}

function attributes(ctx: MockContext, maxAgeSeconds: number): string {
  const site = ctx.baseUrl.startsWith("https:") ? "SameSite=None; Secure" : "SameSite=Lax";
  return `Path=/; HttpOnly; ${site}; Max-Age=${maxAgeSeconds}`;
}

/** Starts (or, with `authTime`, extends) the session of `userId` for `clientId`; returns the `Set-Cookie` header. */
export function startBrowserSession(ctx: MockContext, clientId: string, userId: string, authTime = ctx.now()): Record<string, string> {
  const now = ctx.now();
  const expires = Math.min(now + IDLE_MS, authTime + MAX_MS);
  const value = randomBase64url(32);
  ctx.state.browserSessions.set(value, { client_id: clientId, user_id: userId, auth_time: authTime, expires_at: expires });
  return { "Set-Cookie": `${cookieName(clientId)}=${value}; ${attributes(ctx, Math.floor((expires - now) / 1000))}` };
}

function clearCookie(ctx: MockContext, clientId: string): Record<string, string> {
  return { "Set-Cookie": `${cookieName(clientId)}=; ${attributes(ctx, 0)}` };
}

/**
 * `GET /oauth/authorize?…&display=popup&prompt=none` (validated): with a live session for this client whose user
 * still exists, a page posting a fresh user JWT to the parent (the session extended, a new cookie); otherwise
 * `login_required` (the cookie cleared when the session's user is gone). Framable by the redirect URI's origin only.
 */
export async function silentRenewal(
  ctx: MockContext,
  request: Request,
  params: { redirect_uri?: string | undefined; state?: string | undefined },
  client: ClientRecord,
): Promise<Response> {
  const value = cookieValue(request, cookieName(client.client_id));
  const session = value ? ctx.state.browserSessions.get(value) : undefined;
  const live = session && session.client_id === client.client_id && session.expires_at > ctx.now() ? session : undefined;
  const user = live ? ctx.state.endUsers.get(live.user_id) : undefined;
  let headers: Record<string, string> = {};
  let message = { from: "slotgate", type: "fail", data: "login_required", state: params.state ?? "" };
  if (live && user) {
    ctx.state.browserSessions.delete(value!);
    headers = startBrowserSession(ctx, client.client_id, user.user_id, live.auth_time);
    message = { ...message, type: "success", data: await issueUserJwt(ctx, user.user_id, client.client_id) };
  } else if (live) {
    // As the server: a live session whose user is gone is ended; an unknown or expired cookie is left alone.
    ctx.state.browserSessions.delete(value!);
    headers = clearCookie(ctx, client.client_id);
  }
  const origin = new URL(params.redirect_uri!).origin;
  const nonce = randomBase64url(16);
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Signing in</title></head>
<body>
<script type="application/json" id="slotgate-result">${scriptJson({ targetOrigin: origin, message })}</script>
<script nonce="${nonce}">${SILENT_RESULT_SCRIPT}</script>
</body>
</html>`;
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; script-src 'nonce-${nonce}'; frame-ancestors ${origin}; base-uri 'none'`,
      ...headers,
    },
  });
}

/** `POST /oauth/logout` (form or JSON, `client_id`): ends this browser's session for the client, whether one existed or not. */
export function browserLogoutHandler(ctx: MockContext) {
  return http.post(endpointUrl(ctx, ENDPOINTS.browserLogout), ({ request }) =>
    guard(async () => {
      await ctx.ready();
      const body = await readParams(request, ctx.bodyLimit);
      const { client_id } = validate(browserLogoutSchema, { client_id: body["client_id"] });
      const value = cookieValue(request, cookieName(client_id));
      if (value && ctx.state.browserSessions.get(value)?.client_id === client_id) ctx.state.browserSessions.delete(value);
      return json({ success: true }, 200, clearCookie(ctx, client_id));
    }),
  );
}
