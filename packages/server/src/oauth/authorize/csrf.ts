import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";

/** Name of the double-submit CSRF cookie. */
export const CSRF_COOKIE = "slotgate_csrf";

/** Reads one cookie from the Cookie header. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

/**
 * The CSRF token of this browser (reused when its cookie is well-formed), set as cookie for `path`: the sign-in
 * pages' `/oauth`, or the wallet window's `/wallet` (a cookie of its own path: docs/decisions/wallet-window.md).
 */
export function issueCsrfToken(req: Request, res: Response, secure: boolean, path: "/oauth" | "/wallet" = "/oauth"): string {
  const existing = readCookie(req, CSRF_COOKIE);
  const token = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomBytes(32).toString("base64url");
  res.append("Set-Cookie", `${CSRF_COOKIE}=${token}; Path=${path}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`);
  return token;
}

/** Whether the form's csrf_token equals the cookie (constant time). */
export function csrfMatches(req: Request, formToken: unknown): boolean {
  const cookie = readCookie(req, CSRF_COOKIE);
  if (!cookie || typeof formToken !== "string" || formToken.length === 0) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(formToken);
  return a.length === b.length && timingSafeEqual(a, b);
}
