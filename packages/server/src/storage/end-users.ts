import type { Queryable } from "./database.js";

/** An end user (a player / app user) who signs in on the authorize page. */
export interface EndUserRow {
  id: string;
  email: string;
  password_hash: string;
  nickname: string;
}

const COLUMNS = "id::text, email, password_hash, nickname";

/** Inserts an end user; returns null when the email is taken. */
export async function insertEndUser(db: Queryable, user: { email: string; passwordHash: string; nickname: string }): Promise<EndUserRow | null> {
  const rows = await db.query<EndUserRow>(
    `INSERT INTO end_users (email, password_hash, nickname) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING RETURNING ${COLUMNS}`,
    [user.email, user.passwordHash, user.nickname],
  );
  return rows[0] ?? null;
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
