import type { Database } from "./database.js";

/** One versioned schema change. Versions only grow; an applied migration is never edited. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Every migration of the server's one SQL schema, oldest first.
 *
 * @example
 * ```ts
 * MIGRATIONS.map((m) => m.version); // [1, 2]
 * ```
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "identity, clients, codes, status, outbox",
    sql: `
CREATE TABLE dev_users (
  id BIGSERIAL PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE clients (
  client_id TEXT PRIMARY KEY,
  dev_user_id BIGINT NOT NULL REFERENCES dev_users(id),
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  redirect_uris JSONB NOT NULL,
  download_url TEXT NOT NULL,
  web_url TEXT NOT NULL,
  platform TEXT NOT NULL,
  blockchain BOOLEAN NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX clients_dev_user ON clients(dev_user_id);
CREATE TABLE end_users (
  id BIGSERIAL PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  nickname TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE authorization_codes (
  code_hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  client_id TEXT NOT NULL REFERENCES clients(client_id),
  user_id BIGINT NOT NULL REFERENCES end_users(id),
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ,
  token_jti TEXT,
  token_expires_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX authorization_codes_expires ON authorization_codes(expires_at);
CREATE TABLE revoked_tokens (
  seq BIGSERIAL PRIMARY KEY,
  jti TEXT NOT NULL UNIQUE,
  expires_at TIMESTAMPTZ NOT NULL,
  reason TEXT NOT NULL,
  revoked_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE login_status (
  user_id BIGINT NOT NULL REFERENCES end_users(id),
  client_id TEXT NOT NULL REFERENCES clients(client_id),
  status TEXT NOT NULL CHECK (status IN ('logged_in', 'logged_out')),
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (user_id, client_id)
);
CREATE TABLE outbox (
  id BIGSERIAL PRIMARY KEY,
  topic TEXT NOT NULL,
  target_url TEXT,
  payload JSONB NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  delivered_at TIMESTAMPTZ,
  failed_at TIMESTAMPTZ,
  last_error TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
`,
  },
  {
    version: 2,
    name: "outbox due index per topic",
    // Undelivered messages of an inactive topic (no MARKETPLACE_URL yet) must not slow the
    // worker's search for due messages of the other topics.
    sql: `
DROP INDEX IF EXISTS outbox_due;
CREATE INDEX outbox_due_by_topic ON outbox(topic, next_attempt_at, id) WHERE delivered_at IS NULL AND failed_at IS NULL;
`,
  },
];

/**
 * Applies every migration not yet applied, each in its own transaction, under an advisory
 * lock so that several instances starting at once migrate exactly once. Returns the versions applied.
 *
 * @example
 * ```ts
 * const applied = await migrate(db); // [1] on a fresh database, [] afterwards
 * ```
 */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await db.query(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
  );
  const applied: number[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(727274)");
      const rows = await tx.query("SELECT 1 FROM schema_migrations WHERE version = $1", [m.version]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}

function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
