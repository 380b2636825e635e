import type { ClientApplication, TokenEndpointAuthMethod } from "@slotgate/protocol";
import type { Queryable } from "@slotgate/storage";

/** A registered client application as stored (secret only as its keyed hash). */
export interface ClientRow
  extends Pick<ClientApplication, "client_id" | "name" | "redirect_uris" | "download_url" | "web_url" | "platform" | "blockchain" | "grant_types"> {
  dev_user_id: string;
  /** Keyed hash of the secret; `''` for a public client (none) and a deleted one. */
  secret_hash: string;
  /** `none`: a public native client (no secret, loopback redirects with any port, PKCE required). */
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  created_at: Date;
  /** The secret before the last rotation, accepted until {@link ClientRow.previous_secret_expires_at}. */
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
  /** Set while the client is switched off: it can neither sign users in nor authenticate. */
  disabled_at: Date | null;
  /** Set once the client is deleted (the row stays, scrubbed, so its client_id is never reused). */
  deleted_at: Date | null;
  /** The brand the sign-in pages show (docs/decisions/client-brand.md); each null when not set. */
  brand_display_name: string | null;
  /** `#rrggbb`, checked for white text on it. */
  brand_accent: string | null;
  /** SHA-256 (hex) of the logo in `client_logos`: names its version in the logo's URL. */
  brand_logo_sha256: string | null;
}

const COLUMNS =
  "client_id, dev_user_id::text, name, secret_hash, redirect_uris, download_url, web_url, platform, blockchain, grant_types, token_endpoint_auth_method, created_at, " +
  "previous_secret_hash, previous_secret_expires_at, disabled_at, deleted_at, brand_display_name, brand_accent, brand_logo_sha256";

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
  row: Omit<
    ClientRow,
    | "created_at"
    | "previous_secret_hash"
    | "previous_secret_expires_at"
    | "disabled_at"
    | "deleted_at"
    | "brand_display_name"
    | "brand_accent"
    | "brand_logo_sha256"
  >,
): Promise<ClientRow> {
  const rows = await db.query<ClientRow>(
    `INSERT INTO clients (client_id, dev_user_id, name, secret_hash, redirect_uris, download_url, web_url, platform, blockchain, grant_types, token_endpoint_auth_method)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
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
      row.token_endpoint_auth_method,
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

/** A brand change: each field absent is kept, null clears it. */
export interface ClientBrandChange {
  displayName?: string | null;
  accent?: string | null;
  logo?: { contentType: string; bytes: Uint8Array; sha256: string } | null;
}

/**
 * Sets a client's brand, its logo's bytes and the audit row in one statement; null when the client is not
 * the owner's (or deleted).
 */
export async function setClientBrand(
  db: Queryable,
  clientId: string,
  ownerId: string,
  change: ClientBrandChange,
  audit: { actor: string; detail: Record<string, unknown> },
): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(
    `WITH u AS (
       UPDATE clients SET brand_display_name = CASE WHEN $3 THEN $4 ELSE brand_display_name END,
              brand_accent = CASE WHEN $5 THEN $6 ELSE brand_accent END,
              brand_logo_sha256 = CASE WHEN $7 THEN $10 ELSE brand_logo_sha256 END
       WHERE client_id = $1 AND dev_user_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}
     ), cleared AS (
       DELETE FROM client_logos WHERE $7 AND $8::text IS NULL AND client_id IN (SELECT client_id FROM u) RETURNING 1
     ), stored AS (
       INSERT INTO client_logos (client_id, content_type, bytes, sha256) SELECT client_id, $8, $9, $10 FROM u WHERE $7 AND $8::text IS NOT NULL
       ON CONFLICT (client_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256, updated_at = now()
       RETURNING 1
     ), a AS (
       INSERT INTO client_audit (client_id, actor, action, detail) SELECT client_id, $11, 'client.brand_updated', $12 FROM u RETURNING 1
     )
     SELECT * FROM u`,
    [
      clientId,
      ownerId,
      change.displayName !== undefined,
      change.displayName ?? null,
      change.accent !== undefined,
      change.accent ?? null,
      change.logo !== undefined,
      change.logo?.contentType ?? null,
      change.logo ? Buffer.from(change.logo.bytes) : null,
      change.logo?.sha256 ?? null,
      audit.actor,
      JSON.stringify(audit.detail),
    ],
  );
  return rows[0] ?? null;
}

/** A client's logo (not of a deleted client), or null when it has none. */
export async function findClientLogo(db: Queryable, clientId: string): Promise<{ content_type: string; bytes: Uint8Array; sha256: string } | null> {
  const rows = await db.query<{ content_type: string; bytes: Uint8Array; sha256: string }>(
    "SELECT l.content_type, l.bytes, l.sha256 FROM client_logos AS l JOIN clients AS c USING (client_id) WHERE l.client_id = $1 AND c.deleted_at IS NULL",
    [clientId],
  );
  return rows[0] ?? null;
}

/** Applies an edit and writes its audit row in one statement; null when the client is not the owner's (or deleted). */
export async function updateClient(
  db: Queryable,
  clientId: string,
  ownerId: string,
  edit: ClientEdit,
  audit: { actor: string; action: string; detail: Record<string, unknown> },
): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(
    `WITH u AS (
       UPDATE clients SET name = COALESCE($3, name), redirect_uris = COALESCE($4::jsonb, redirect_uris),
              download_url = COALESCE($5, download_url), web_url = COALESCE($6, web_url)
       WHERE client_id = $1 AND dev_user_id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}
     ), a AS (
       INSERT INTO client_audit (client_id, actor, action, detail) SELECT client_id, $7, $8, $9 FROM u RETURNING 1
     )
     SELECT * FROM u`,
    [
      clientId,
      ownerId,
      edit.name ?? null,
      edit.redirect_uris ? JSON.stringify(edit.redirect_uris) : null,
      edit.download_url ?? null,
      edit.web_url ?? null,
      audit.actor,
      audit.action,
      JSON.stringify(audit.detail),
    ],
  );
  return rows[0] ?? null;
}

/**
 * Replaces the secret hash, keeping the old one valid until `overlapUntil` (null: the old secret
 * stops at once), with its audit row; null when the client is not the owner's, deleted or disabled.
 */
export async function rotateClientSecret(
  db: Queryable,
  clientId: string,
  ownerId: string,
  newHash: string,
  overlapUntil: Date | null,
  actor: string,
): Promise<ClientRow | null> {
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
  return db.query<ClientAuditRow>(
    "SELECT id::text, client_id, actor, action, detail, created_at FROM client_audit WHERE client_id = $1 ORDER BY id DESC LIMIT $2",
    [clientId, limit],
  );
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
    token_endpoint_auth_method: row.token_endpoint_auth_method,
    created_at: new Date(row.created_at).toISOString(),
    disabled: row.disabled_at !== null,
    previous_secret_valid_until:
      row.previous_secret_expires_at && new Date(row.previous_secret_expires_at).getTime() > Date.now()
        ? new Date(row.previous_secret_expires_at).toISOString()
        : null,
  };
}
