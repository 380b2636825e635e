import { randomBytes } from "node:crypto";
import { errorAnswer, sessionId, shared } from "../../../lib/backend";

export const dynamic = "force-dynamic";

/**
 * `POST /api/slot` with `{ jwt }` (the user JWT from the browser login): slot info through the backend SDK
 * (`getSlotInfo`), then "logged in" recorded with the service (`statusLogin`, status sync) and read back
 * (`statusCheck`). The slot's access token stays in this server's session; the browser gets the public fields.
 */
export async function POST(request: Request): Promise<Response> {
  const { backend, sessions } = shared();
  try {
    const body = (await request.json().catch(() => null)) as { jwt?: unknown } | null;
    const jwt = typeof body?.jwt === "string" ? body.jwt : "";
    const slot = await backend.getSlotInfo(jwt, { signal: request.signal });
    const login = await backend.statusLogin({ accessToken: slot.access_token, userId: slot.id });
    if (!login.ok) throw login.error;
    const check = await backend.statusCheck({ accessToken: slot.access_token, userId: slot.id });
    const sid = sessionId(request) ?? randomBytes(32).toString("base64url");
    sessions.set(sid, slot);
    return Response.json(
      { slot: { id: slot.id, content_address: slot.content_address, tr_cnt: slot.tr_cnt }, status: check },
      { headers: { "set-cookie": `sid=${sid}; Path=/api; HttpOnly; SameSite=Lax`, "cache-control": "no-store" } },
    );
  } catch (error) {
    return errorAnswer(error);
  }
}
