import type { Queryable } from "@slotgate/storage";

/** A developer-center account. */
export interface DevUserRow {
  id: string;
  uuid: string;
  email: string;
  password_hash: string;
}

/** Inserts a developer user; returns null when the email is taken. */
export async function insertDevUser(db: Queryable, user: { uuid: string; email: string; passwordHash: string }): Promise<DevUserRow | null> {
  const rows = await db.query<DevUserRow>(
    `INSERT INTO dev_users (uuid, email, password_hash) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO NOTHING RETURNING id::text, uuid, email, password_hash`,
    [user.uuid, user.email, user.passwordHash],
  );
  return rows[0] ?? null;
}

/** Finds a developer user by (lower-cased) email. */
export async function findDevUserByEmail(db: Queryable, email: string): Promise<DevUserRow | null> {
  const rows = await db.query<DevUserRow>("SELECT id::text, uuid, email, password_hash FROM dev_users WHERE email = $1", [email]);
  return rows[0] ?? null;
}

/** Finds a developer user by public uuid. */
export async function findDevUserByUuid(db: Queryable, uuid: string): Promise<DevUserRow | null> {
  const rows = await db.query<DevUserRow>("SELECT id::text, uuid, email, password_hash FROM dev_users WHERE uuid = $1", [uuid]);
  return rows[0] ?? null;
}
