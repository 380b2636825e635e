import type { Queryable } from "@slotgate/storage";

/** A sign-in step waiting for the browser to come back: an identity-provider redirect, or a passkey ceremony. */
export type FlowKind = "oidc" | "oidc_email" | "passkey_login" | "passkey_register";

/** Stores a pending flow under its random id. */
export async function insertFlow(
  db: Queryable,
  flow: { id: string; kind: FlowKind; binding: string; payload: Record<string, unknown>; lifetimeSeconds: number },
): Promise<void> {
  await db.query("INSERT INTO sign_in_flows (id, kind, binding, payload, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))", [
    flow.id,
    flow.kind,
    flow.binding,
    JSON.stringify(flow.payload),
    flow.lifetimeSeconds,
  ]);
}

/** Uses up a pending, unexpired flow of this kind; null when unknown, used or expired. */
export async function takeFlow(db: Queryable, id: string, kind: FlowKind): Promise<{ binding: string; payload: Record<string, unknown> } | null> {
  const rows = await db.query<{ binding: string; payload: Record<string, unknown> }>(
    "UPDATE sign_in_flows SET consumed_at = now() WHERE id = $1 AND kind = $2 AND consumed_at IS NULL AND expires_at > now() RETURNING binding, payload",
    [id, kind],
  );
  return rows[0] ?? null;
}

/** Deletes flows that expired more than a day ago. */
export async function purgeExpiredFlows(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM sign_in_flows WHERE expires_at < now() - interval '1 day' RETURNING 1");
  return rows.length;
}
