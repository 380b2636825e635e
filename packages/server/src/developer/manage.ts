import { type ClientAuditEntry, type ClientUpdateRequest, type Delivery, isLoopbackIpRedirectUri } from "@slotgate/protocol";
import { PUBLIC_REDIRECT_MESSAGE } from "@slotgate/protocol/schemas";
import type { Queryable } from "@slotgate/storage";
import type { ClientSecrets } from "../oauth/clients/client-auth.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { recordClientRevocation } from "../oauth/keys/revocation-list.js";
import { META_CALLBACK_TOPIC } from "../oauth/backend-flow/callback-delivery.js";
import {
  type ClientRow,
  findClient,
  listClientAudit,
  markClientDeleted,
  rotateClientSecret,
  setClientDisabled,
  updateClient,
} from "../oauth/clients/clients-store.js";
import { type DeliveryRow, findClientDelivery, listClientDeliveries, retryClientDelivery } from "../status/outbox/outbox-store.js";
import { endClientFamilies } from "../oauth/token/refresh-tokens-store.js";

/**
 * What managing a client needs: the database, the secret hasher, the rotation overlap, and hooks the
 * running server fills (drop its cached registration, revoke tokens in memory, run the outbox now).
 * The CLI passes none of the hooks: the servers see its changes through the database.
 */
export interface ManageDeps {
  db: Queryable;
  secrets: ClientSecrets;
  /** `CLIENT_SECRET_OVERLAP_SECONDS`. */
  overlapSeconds: number;
  /** Called after a registration changed. */
  changed?(clientId: string): void;
  /** Revokes the client's tokens issued up to `at` (default: stored, loaded by the servers' revocation sync). */
  revokeClient?(clientId: string, at: Date): Promise<void>;
  /** Runs a delivery pass now. */
  kickOutbox?(): void;
}

/** Who acts: the developer's id (ownership) and the name recorded in the audit list. */
export interface Actor {
  devUserId: string;
  label: string;
}

/** The client if it belongs to the actor and is not deleted; else 404 client_not_found (another developer's looks unknown). */
export async function ownedClient(deps: Pick<ManageDeps, "db">, actor: Actor, clientId: string): Promise<ClientRow> {
  const row = await findClient(deps.db, clientId);
  if (!row || row.dev_user_id !== actor.devUserId || row.deleted_at !== null) throw new SlotgateServerError("client_not_found");
  return row;
}

/**
 * Changes name, redirect URIs (the whole list, de-duplicated) or URLs; the audit entry lists each
 * changed field with its old and new value.
 *
 * @example
 * ```ts
 * await editClient(deps, actor, "sg_…", { redirect_uris: ["https://app.example/cb2"] });
 * ```
 */
export async function editClient(deps: ManageDeps, actor: Actor, clientId: string, edit: ClientUpdateRequest): Promise<ClientRow> {
  const before = await ownedClient(deps, actor, clientId);
  if (before.token_endpoint_auth_method === "none" && edit.redirect_uris) {
    const details = edit.redirect_uris.flatMap((uri, i) =>
      isLoopbackIpRedirectUri(uri) ? [] : [{ path: `redirect_uris.${i}`, message: PUBLIC_REDIRECT_MESSAGE }],
    );
    if (details.length > 0) throw new SlotgateServerError("invalid_request", { message: `Invalid request: ${PUBLIC_REDIRECT_MESSAGE}`, details });
  }
  const next = { ...edit, ...(edit.redirect_uris ? { redirect_uris: [...new Set(edit.redirect_uris)] } : {}) };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of ["name", "redirect_uris", "download_url", "web_url"] as const) {
    const to = next[key];
    if (to !== undefined && JSON.stringify(to) !== JSON.stringify(before[key])) changes[key] = { from: before[key], to };
  }
  if (Object.keys(changes).length === 0) return before;
  const row = await updateClient(deps.db, clientId, actor.devUserId, next, { actor: actor.label, action: "client.updated", detail: { changes } });
  if (!row) throw new SlotgateServerError("client_not_found");
  deps.changed?.(clientId);
  return row;
}

/**
 * Issues a new client secret (returned once). The previous one keeps working for `overlapSeconds`,
 * then only the new one does; rotating again inside the window ends the older secret at once.
 * A public client has no secret: 400 invalid_request, nothing changed.
 */
export async function rotateSecret(deps: ManageDeps, actor: Actor, clientId: string): Promise<{ row: ClientRow; secret: string }> {
  const before = await ownedClient(deps, actor, clientId);
  if (before.token_endpoint_auth_method === "none") {
    throw new SlotgateServerError("invalid_request", {
      message: "Invalid request: this client is public (token_endpoint_auth_method none): it has no secret to rotate; its codes are proven with PKCE",
    });
  }
  const secret = deps.secrets.generate();
  const until = deps.overlapSeconds > 0 ? new Date(Date.now() + deps.overlapSeconds * 1000) : null;
  const row = await rotateClientSecret(deps.db, clientId, actor.devUserId, deps.secrets.hash(secret), until, actor.label);
  if (!row) throw new SlotgateServerError("client_not_found");
  deps.changed?.(clientId);
  return { row, secret };
}

/**
 * Disables (or enables again) a client. Disabling refuses new sign-ins, code exchanges, refreshes and
 * client authentication (invalid_client), revokes every access token and user JWT issued so far and
 * ends its refresh-token sessions; enabling lets new sign-ins in but revives none of those.
 */
export async function setDisabled(deps: ManageDeps, actor: Actor, clientId: string, disabled: boolean): Promise<ClientRow> {
  const before = await ownedClient(deps, actor, clientId);
  if ((before.disabled_at !== null) === disabled) return before;
  const row = await setClientDisabled(deps.db, clientId, actor.devUserId, disabled, actor.label);
  if (!row) throw new SlotgateServerError("client_not_found");
  if (disabled) await endSessions(deps, clientId, new Date(row.disabled_at!), "client_disabled");
  deps.changed?.(clientId);
  return row;
}

/**
 * Deletes a client: as disabled, for good; its secrets are erased, it leaves the lists, and its
 * client_id is never reused. The audit list stays.
 */
export async function deleteClient(deps: ManageDeps, actor: Actor, clientId: string): Promise<void> {
  await ownedClient(deps, actor, clientId);
  const row = await markClientDeleted(deps.db, clientId, actor.devUserId, actor.label);
  if (!row) throw new SlotgateServerError("client_not_found");
  await endSessions(deps, clientId, new Date(), "client_deleted");
  deps.changed?.(clientId);
}

async function endSessions(deps: ManageDeps, clientId: string, at: Date, reason: string): Promise<void> {
  if (deps.revokeClient) await deps.revokeClient(clientId, at);
  else await recordClientRevocation(deps.db, clientId, at);
  await endClientFamilies(deps.db, clientId, reason);
}

/** The client's audit list, newest first. */
export async function clientAudit(deps: Pick<ManageDeps, "db">, actor: Actor, clientId: string): Promise<ClientAuditEntry[]> {
  await ownedClient(deps, actor, clientId);
  return (await listClientAudit(deps.db, clientId)).map((r) => ({
    actor: r.actor,
    action: r.action,
    detail: r.detail,
    at: new Date(r.created_at).toISOString(),
  }));
}

/** The recent authorize callbacks and marketplace webhooks sent on the client's behalf, newest first. */
export async function clientDeliveries(deps: Pick<ManageDeps, "db">, actor: Actor, clientId: string): Promise<Delivery[]> {
  await ownedClient(deps, actor, clientId);
  return (await listClientDeliveries(deps.db, clientId)).map(toDelivery);
}

/**
 * Makes a pending or failed delivery due now (a given-up one gets one more attempt); 404
 * delivery_not_found when it is not this client's, 409 delivery_not_retryable when it was delivered.
 */
export async function retryDelivery(deps: ManageDeps, actor: Actor, clientId: string, deliveryId: string): Promise<Delivery> {
  await ownedClient(deps, actor, clientId);
  const row = await retryClientDelivery(deps.db, clientId, deliveryId);
  if (!row) {
    const existing = await findClientDelivery(deps.db, clientId, deliveryId);
    throw new SlotgateServerError(existing ? "delivery_not_retryable" : "delivery_not_found");
  }
  deps.kickOutbox?.();
  return toDelivery(row);
}

/** The public view of an outbox row: the target without its query (a callback's query carries the one-time code). */
function toDelivery(row: DeliveryRow): Delivery {
  let target: string | null = null;
  if (row.target_url) {
    const url = new URL(row.target_url);
    target = `${url.origin}${url.pathname}`;
  }
  const status = row.delivered_at ? "delivered" : row.failed_at ? "failed" : "pending";
  return {
    id: row.id,
    kind: row.topic === META_CALLBACK_TOPIC ? "authorize_callback" : "marketplace_webhook",
    target,
    status,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    last_error: row.last_error,
    next_attempt_at: status === "pending" ? new Date(row.next_attempt_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}
