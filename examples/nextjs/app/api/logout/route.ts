import { errorAnswer, sessionId, shared } from "../../../lib/backend";

export const dynamic = "force-dynamic";

/** `POST /api/logout`: records "logged out" with the service (`statusLogout`, status sync) and ends the session. */
export async function POST(request: Request): Promise<Response> {
  const { backend, sessions } = shared();
  const sid = sessionId(request);
  const slot = sid ? sessions.get(sid) : undefined;
  if (!sid || !slot) return Response.json({ error: "no_session", message: "Log in first." }, { status: 401 });
  try {
    const logout = await backend.statusLogout({ accessToken: slot.access_token, userId: slot.id });
    if (!logout.ok) throw logout.error;
    const check = await backend.statusCheck({ accessToken: slot.access_token, userId: slot.id });
    sessions.delete(sid);
    return Response.json({ status: check }, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorAnswer(error);
  }
}
