import type { ClientApplication, GrantType, PlatformType } from "@slotgate/protocol";
import type { Queryable } from "@slotgate/storage";

/** A registered client application as stored (secret only as its keyed hash). */
export interface ClientRow {
  client_id: string;
  dev_user_id: string;
  name: string;
  secret_hash: string;
  redirect_uris: string[];
  download_url: string;
  web_url: string;
  platform: PlatformType;
  blockchain: boolean;
  /** Grants the client may use (`authorization_code` always; `refresh_token` and the device grant opt-in). */
  grant_types: GrantType[];
  created_at: Date;
  /** The secret before the last rotation, accepted until {@link ClientRow.previous_secret_expires_at}. */
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
  /** Set while the client is switched off: it can neither sign users in nor authenticate. */
  disabled_at: Date | null;
  /** Set once the client is deleted (the row stays, scrubbed, so its client_id is never reused). */
  deleted_at: Date | null;
}

const COLUMNS =
  "client_id, dev_user_id::text, name, secret_hash, redirect_uris, download_url, web_url, platform, blockchain, grant_types, created_at, " +
  "previous_secret_hash, previous_secret_expires_at, disabled_at, deleted_at";

/** The fields a developer may change after registration. */
export type ClientEdit = Partial<Pick<ClientRow, "name" | "redirect_uris" | "download_url" | "web_url">>;

/** One entry of a client's audit list. */
export interface ClientAuditRow {
  id: string;
  client_id: string;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
  created_at: Date;
}

/** Inserts a client application. */
export async function insertClient(
  db: Queryable,
  row: Omit<ClientRow, "created_at" | "previous_secret_hash" | "previous_secret_expires_at" | "disabled_at" | "deleted_at">,
): Promise<ClientRow> {
  const rows = await db.query<ClientRow>(
    `INSERT INTO clients (client_id, dev_user_id, name, secret_hash, redirect_uris, download_url, web_url, platform, blockchain, grant_types)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
    [
      row.client_id,
      row.dev_user_id,
      row.name,
      row.secret_hash,
      JSON.stringify(row.redirect_uris),
      row.download_url,
      row.web_url,
      row.platform,
      row.blockchain,
      JSON.stringify(row.grant_types),
    ],
  );
  return rows[0]!;
}

/** Finds a client by client_id. */
export async function findClient(db: Queryable, clientId: string): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM clients WHERE client_id = $1`, [clientId]);
  return rows[0] ?? null;
}

/** Lists the clients (not deleted) of one developer user (or every client when `devUserId` is null), oldest first. */
export async function listClients(db: Queryable, devUserId: string | null): Promise<ClientRow[]> {
  if (devUserId === null) return db.query<ClientRow>(`SELECT ${COLUMNS} FROM clients WHERE deleted_at IS NULL ORDER BY created_at, client_id`);
  return db.query<ClientRow>(`SELECT ${COLUMNS} FROM clients WHERE dev_user_id = $1 AND deleted_at IS NULL ORDER BY created_at, client_id`, [devUserId]);
}

/** Applies an edit and writes its audit row in one statement; null when the client is not the owner's (or deleted). */
export async function updateClient(db: Queryable, clientId: string, ownerId: string, edit: ClientEdit, audit: { actor: string; action: string; detail: Record<string, unknown> }): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(
    `WITH u AS (
       UPDATE clients SET name = COALESCE($3, name), redirect_uris = COALESCE($4::jsonb, redirect_uris),
              download_url = COALESCE($5, download_url), web_url = COALESCE($6, web_url)
       WHERE client_id = $1 AND dev_user_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}
     ), a AS (
       INSERT INTO client_audit (client_id, actor, action, detail) SELECT client_id, $7, $8, $9 FROM u RETURNING 1
     )
     SELECT * FROM u`,
    [clientId, ownerId, edit.name ?? null, edit.redirect_uris ? JSON.stringify(edit.redirect_uris) : null, edit.download_url ?? null, edit.web_url ?? null, audit.actor, audit.action, JSON.stringify(audit.detail)],
  );
  return rows[0] ?? null;
}

/**
 * Replaces the secret hash, keeping the old one valid until `overlapUntil` (null: the old secret
 * stops at once), with its audit row; null when the client is not the owner's, deleted or disabled.
 */
export async function rotateClientSecret(db: Queryable, clientId: string, ownerId: string, newHash: string, overlapUntil: Date | null, actor: string): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(
    `WITH u AS (
       UPDATE clients SET previous_secret_hash = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret_hash END,
              previous_secret_expires_at = $4::timestamptz, secret_hash = $3
       WHERE client_id = $1 AND dev_user_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}
     ), a AS (
       INSERT INTO client_audit (client_id, actor, action, detail)
       SELECT client_id, $5, 'secret.rotated', jsonb_build_object('previous_secret_valid_until', $6::text) FROM u RETURNING 1
     )
     SELECT * FROM u`,
    [clientId, ownerId, newHash, overlapUntil, actor, overlapUntil ? overlapUntil.toISOString() : null],
  );
  return rows[0] ?? null;
}

/** Disables or enables a client (with its audit row); null when the client is not the owner's or deleted. */
export async function setClientDisabled(db: Queryable, clientId: string, ownerId: string, disabled: boolean, actor: string): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(
    `WITH u AS (
       UPDATE clients SET disabled_at = CASE WHEN $3 THEN COALESCE(disabled_at, now()) ELSE NULL END
       WHERE client_id = $1 AND dev_user_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}
     ), a AS (
       INSERT INTO client_audit (client_id, actor, action, detail)
       SELECT client_id, $4, CASE WHEN $3 THEN 'client.disabled' ELSE 'client.enabled' END, '{}'::jsonb FROM u RETURNING 1
     )
     SELECT * FROM u`,
    [clientId, ownerId, disabled, actor],
  );
  return rows[0] ?? null;
}

/**
 * Deletes a client: the row stays with its secrets scrubbed and `deleted_at` set (codes, sessions and
 * audit rows refer to it, and the client_id must never be handed out again); null when not the owner's.
 */
export async function markClientDeleted(db: Queryable, clientId: string, ownerId: string, actor: string): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(
    `WITH u AS (
       UPDATE clients SET deleted_at = now(), disabled_at = COALESCE(disabled_at, now()), secret_hash = '',
              previous_secret_hash = NULL, previous_secret_expires_at = NULL
       WHERE client_id = $1 AND dev_user_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}
     ), a AS (
       INSERT INTO client_audit (client_id, actor, action, detail) SELECT client_id, $3, 'client.deleted', '{}'::jsonb FROM u RETURNING 1
     )
     SELECT * FROM u`,
    [clientId, ownerId, actor],
  );
  return rows[0] ?? null;
}

/** Records an audit entry (registration; other changes write theirs with the change). */
export async function insertClientAudit(db: Queryable, clientId: string, actor: string, action: string, detail: Record<string, unknown>): Promise<void> {
  await db.query("INSERT INTO client_audit (client_id, actor, action, detail) VALUES ($1, $2, $3, $4)", [clientId, actor, action, JSON.stringify(detail)]);
}

/** The newest `limit` audit entries of a client, newest first. */
export async function listClientAudit(db: Queryable, clientId: string, limit = 100): Promise<ClientAuditRow[]> {
  return db.query<ClientAuditRow>("SELECT id::text, client_id, actor, action, detail, created_at FROM client_audit WHERE client_id = $1 ORDER BY id DESC LIMIT $2", [clientId, limit]);
}

/** The public view of a client row (no secret hash). */
export function toClientApplication(row: ClientRow): ClientApplication {
  return {
    client_id: row.client_id,
    name: row.name,
    redirect_uris: row.redirect_uris,
    download_url: row.download_url,
    web_url: row.web_url,
    platform: row.platform,
    blockchain: row.blockchain,
    grant_types: row.grant_types,
    created_at: new Date(row.created_at).toISOString(),
    disabled: row.disabled_at !== null,
    previous_secret_valid_until: row.previous_secret_expires_at && new Date(row.previous_secret_expires_at).getTime() > Date.now() ? new Date(row.previous_secret_expires_at).toISOString() : null,
  };
}
