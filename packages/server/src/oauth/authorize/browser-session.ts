import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import type { Request, Response } from "express";
import type { Services } from "../../platform/app/services.js";
import { readCookie } from "./csrf.js";

/**
 * The service's browser session for one client (docs/decisions/client-sdk.md, "Sessions that outlive a JWT"):
 * set when the user approves that client interactively, read by `prompt=none` (silent renewal), ended by
 * `POST /oauth/logout`. One cookie per client, so a silent answer never grants a client the user has not
 * approved in this browser. Stateless: `{userId}.{authTime}.{expires}.{mac}`, HMAC-SHA256 under a key derived
 * from `CLIENT_SECRET_PEPPER`, `HttpOnly`, path `/` (the sign-in under `/oauth` and the wallet window under
 * `/wallet` read it: docs/decisions/wallet-window.md), `SameSite=None; Secure` on https (the renewal runs in
 * a cross-site iframe) and `SameSite=Lax` on plain-http development issuers.
 */

const PREFIX = "slotgate_session_";

function cookieName(clientId: string): string {
  return PREFIX + createHash("sha256").update(clientId).digest("base64url").slice(0, 22);
}

function mac(services: Services, clientId: string, body: string): string {
  const key = createHmac("sha256", services.config.clientSecretPepper ?? "")
    .update("slotgate.browser-session")
    .digest();
  return createHmac("sha256", key).update(`${clientId}.${body}`).digest("base64url");
}

function attributes(services: Services, maxAge: number, path = "/"): string {
  const site = services.issuer.startsWith("https:") ? "SameSite=None; Secure" : "SameSite=Lax";
  return `Path=${path}; HttpOnly; ${site}; Max-Age=${maxAge}`;
}

/** Starts (`authTime` now) or extends (the session's own `authTime`) the browser session of `userId` for `clientId`. */
export function setBrowserSession(services: Services, res: Response, clientId: string, userId: string, authTime = Math.floor(Date.now() / 1000)): void {
  const now = Math.floor(Date.now() / 1000);
  const expires = Math.min(now + LIMITS.browserSessionIdleSeconds, authTime + LIMITS.browserSessionMaxSeconds);
  if (expires <= now) return;
  const body = `${userId}.${authTime}.${expires}`;
  res.append("Set-Cookie", `${cookieName(clientId)}=${body}.${mac(services, clientId, body)}; ${attributes(services, expires - now)}`);
}

/** The live browser session for `clientId` on this request, or null (absent, forged, expired). */
export function readBrowserSession(services: Services, req: Request, clientId: string): { userId: string; authTime: number } | null {
  const parts = readCookie(req, cookieName(clientId))?.split(".") ?? [];
  if (parts.length !== 4) return null;
  const [userId, authTime, expires, given] = parts as [string, string, string, string];
  const expected = Buffer.from(mac(services, clientId, `${userId}.${authTime}.${expires}`));
  const presented = Buffer.from(given);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return null;
  if (Number(expires) <= Date.now() / 1000) return null;
  return { userId, authTime: Number(authTime) };
}

/** Ends the browser session for `clientId`. */
export function clearBrowserSession(services: Services, res: Response, clientId: string): void {
  res.append("Set-Cookie", `${cookieName(clientId)}=; ${attributes(services, 0)}`);
  // A session set before the path was widened (Path=/oauth) ends too.
  res.append("Set-Cookie", `${cookieName(clientId)}=; ${attributes(services, 0, "/oauth")}`);
}
