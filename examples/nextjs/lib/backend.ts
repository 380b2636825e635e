import { SlotgateBackend } from "@slotgate/backend-sdk";
import type { SlotInfo } from "@slotgate/backend-sdk";
import { settings } from "./settings";

interface Shared {
  backend: SlotgateBackend;
  /** Signed-in slots by session id (the HttpOnly `sid` cookie): the slot access token never reaches the browser. */
  sessions: Map<string, SlotInfo>;
}

/**
 * One backend SDK instance per server process, on `globalThis`: `getSlotInfo` waits in this process for the
 * service's callback, so the callback route must reach the same instance (spec 4.13); route bundles may each
 * load this module, `globalThis` is shared. (With several processes, use the backend SDK's pending store.)
 */
export function shared(): Shared {
  const g = globalThis as typeof globalThis & { __slotgateExample?: Shared };
  if (!g.__slotgateExample) {
    const s = settings();
    g.__slotgateExample = {
      backend: new SlotgateBackend({ authServerUrl: s.slotgateUrl, clientId: s.clientId, clientSecret: s.clientSecret, redirectUri: s.callbackUri }),
      sessions: new Map(),
    };
  }
  return g.__slotgateExample;
}

/** The session id of this request's `sid` cookie, if any. */
export function sessionId(request: Request): string | undefined {
  return /(?:^|;\s*)sid=([A-Za-z0-9_-]{43})(?:;|$)/.exec(request.headers.get("cookie") ?? "")?.[1];
}

/** A JSON error answer: the backend SDK's stable code and message, never a stack or a token. */
export function errorAnswer(error: unknown): Response {
  const e = error as { status?: unknown; code?: unknown; message?: unknown };
  const status = typeof e.status === "number" && e.status >= 400 && e.status < 600 ? e.status : 500;
  const code = typeof e.code === "string" ? e.code : "internal_error";
  return Response.json({ error: code, message: status === 500 ? "Something went wrong." : String(e.message) }, { status });
}
