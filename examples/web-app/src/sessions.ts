import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import type { SlotInfo } from "@slotgate/backend-sdk";

/** One browser's demo session, kept on this back end only. */
export interface DemoSession {
  /** The slot info from `getSlotInfo` (holds the access token: never sent to the browser). */
  slot: SlotInfo | null;
  /** Whether the user is currently logged in to the game (false after logout; the slot stays for release). */
  loggedIn: boolean;
}

const COOKIE = "demo_sid";

/**
 * A small in-memory session store keyed by an HttpOnly cookie. A production app would use its own
 * session middleware; what matters is that the access token stays server side.
 *
 * @example
 * ```ts
 * const sessions = new SessionStore();
 * const session = sessions.get(req, res); // creates one and sets the cookie when missing
 * ```
 */
export class SessionStore {
  readonly #sessions = new Map<string, DemoSession>();

  get(req: Request, res: Response): DemoSession {
    const sid = readCookie(req.headers.cookie, COOKIE);
    const found = sid ? this.#sessions.get(sid) : undefined;
    if (found) return found;
    const id = randomBytes(24).toString("base64url");
    const session: DemoSession = { slot: null, loggedIn: false };
    this.#sessions.set(id, session);
    res.cookie(COOKIE, id, { httpOnly: true, sameSite: "lax", path: "/" });
    return session;
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}
