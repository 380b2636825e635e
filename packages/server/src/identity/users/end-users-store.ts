import type { Queryable } from "@slotgate/storage";

/** An end user (a player / app user) who signs in on the authorize page. */
export interface EndUserRow {
  id: string;
  email: string;
  /** Null for an account that signs in only through an identity provider or a passkey. */
  password_hash: string | null;
  nickname: string;
  /** When the mailbox was proven (emailed code, or an identity provider's verified email); null: not yet. */
  email_verified_at: Date | null;
}

const COLUMNS = "id::text, email, password_hash, nickname, email_verified_at";

/** The nickname of a new account: the email's local part, at most 64 characters. */
function nicknameOf(email: string): string {
  return email.split("@")[0]!.slice(0, 64);
}

/**
 * Creates an account whose mailbox is proven (`email_verified_at = now()`), or completes an existing
 * account that was never verified (a sign-up started before, or an account from before mailbox
 * verification): the proven mailbox owner's password replaces whatever it had. Returns null when a
 * verified account already holds the email.
 */
export async function upsertVerifiedEndUser(db: Queryable, user: { email: string; passwordHash: string | null }): Promise<EndUserRow | null> {
  const rows = await db.query<EndUserRow>(
    `INSERT INTO end_users (email, password_hash, nickname, email_verified_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash, email_verified_at = now()
       WHERE end_users.email_verified_at IS NULL
     RETURNING ${COLUMNS}`,
    [user.email, user.passwordHash, nicknameOf(user.email)],
  );
  return rows[0] ?? null;
}

/** Marks an account's mailbox as proven. */
export async function markEmailVerified(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE end_users SET email_verified_at = COALESCE(email_verified_at, now()) WHERE id = $1", [id]);
}

/** Finds an end user by (lower-cased) email. */
export async function findEndUserByEmail(db: Queryable, email: string): Promise<EndUserRow | null> {
  const rows = await db.query<EndUserRow>(`SELECT ${COLUMNS} FROM end_users WHERE email = $1`, [email]);
  return rows[0] ?? null;
}

/** Finds an end user by id (decimal string). */
export async function findEndUserById(db: Queryable, id: string): Promise<EndUserRow | null> {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) return null;
  const rows = await db.query<EndUserRow>(`SELECT ${COLUMNS} FROM end_users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}
