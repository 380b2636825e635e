import type { Queryable } from "@slotgate/storage";

/** A registered passkey (WebAuthn credential) of an account. */
export interface PasskeyRow {
  credential_id: string;
  user_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  sign_count: number;
  transports: string[];
}

const COLUMNS = "credential_id, user_id::text, public_key, sign_count::int AS sign_count, transports";

/** Stores a new passkey; false when the credential id is registered already. */
export async function insertPasskey(db: Queryable, p: Omit<PasskeyRow, "sign_count"> & { sign_count: number }): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO passkeys (credential_id, user_id, public_key, sign_count, transports) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (credential_id) DO NOTHING RETURNING 1`,
    [p.credential_id, p.user_id, p.public_key, p.sign_count, JSON.stringify(p.transports)],
  );
  return rows.length > 0;
}

/** The passkey with this credential id. */
export async function findPasskey(db: Queryable, credentialId: string): Promise<PasskeyRow | null> {
  const rows = await db.query<PasskeyRow>(`SELECT ${COLUMNS} FROM passkeys WHERE credential_id = $1`, [credentialId]);
  return rows[0] ?? null;
}

/** The passkeys of an account (to exclude them from a new registration). */
export async function listPasskeys(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  return db.query<PasskeyRow>(`SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY created_at`, [userId]);
}

/** Records a use: the authenticator's new signature counter. */
export async function touchPasskey(db: Queryable, credentialId: string, signCount: number): Promise<void> {
  await db.query("UPDATE passkeys SET sign_count = $2, last_used_at = now() WHERE credential_id = $1", [credentialId, signCount]);
}
