import type { Queryable } from "@slotgate/storage";

/** The account an upstream identity is linked to, if any. */
export async function findLinkedUser(db: Queryable, issuer: string, subject: string): Promise<string | null> {
  const rows = await db.query<{ user_id: string }>("SELECT user_id::text FROM identity_links WHERE issuer = $1 AND subject = $2", [issuer, subject]);
  return rows[0]?.user_id ?? null;
}

/** Links an upstream identity to an account (idempotent; an identity already linked elsewhere stays where it is). */
export async function linkIdentity(db: Queryable, link: { provider_id: string; issuer: string; subject: string; userId: string }): Promise<void> {
  await db.query("INSERT INTO identity_links (issuer, subject, provider_id, user_id) VALUES ($1, $2, $3, $4) ON CONFLICT (issuer, subject) DO NOTHING", [
    link.issuer,
    link.subject,
    link.provider_id,
    link.userId,
  ]);
}
