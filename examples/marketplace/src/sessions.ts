import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";

/** Who is signed in to this marketplace in one browser, kept on this back end only. */
export interface SignedIn {
  userId: string;
  /** The access token from `getSlotInfo`: never sent to the browser. */
  accessToken: string;
  nickname: string;
}

const COOKIE = "market_sid";

/**
 * Server-side sessions keyed by an HttpOnly, SameSite=Lax cookie (in memory: a restart signs everyone
 * out; a production marketplace keeps them in its session store).
 *
 * @example
 * ```ts
 * const sessions = new SessionStore();
 * sessions.signIn(req, res, { userId, accessToken, nickname });
 * const who = sessions.current(req); // null when signed out
 * ```
 */
export class SessionStore {
  readonly #sessions = new Map<string, SignedIn>();

  current(req: Request): SignedIn | null {
    const sid = readCookie(req.headers.cookie, COOKIE);
    return (sid && this.#sessions.get(sid)) || null;
  }

  signIn(req: Request, res: Response, who: SignedIn): void {
    const old = readCookie(req.headers.cookie, COOKIE);
    if (old) this.#sessions.delete(old);
    const sid = randomBytes(24).toString("base64url");
    this.#sessions.set(sid, who);
    res.cookie(COOKIE, sid, { httpOnly: true, sameSite: "lax", path: "/" });
  }

  signOut(req: Request, res: Response): void {
    const sid = readCookie(req.headers.cookie, COOKIE);
    if (sid) this.#sessions.delete(sid);
    res.clearCookie(COOKIE, { path: "/" });
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}
