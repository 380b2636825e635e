import type { SqlDatabase } from "./database.js";

/**
 * The chain service's schema, in order. Tables carry the `cs_` prefix so they can share one
 * database with the HTTP server's tables. Applied once each by {@link migrate}.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: "wallets, keys, pin attempts",
    sql: `
CREATE TABLE cs_wallets (
  user_uuid        BIGINT PRIMARY KEY,
  account_idx      INTEGER NOT NULL DEFAULT 0,
  address          TEXT NOT NULL UNIQUE,
  content_address  TEXT NOT NULL UNIQUE,
  owner_eoa        TEXT NOT NULL,
  initial_owner    TEXT NOT NULL,
  wallet_type      TEXT NOT NULL DEFAULT 'AA' CHECK (wallet_type = 'AA'),
  pin_salt         TEXT,
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE cs_keys (
  key_id      TEXT PRIMARY KEY,
  user_uuid   BIGINT NOT NULL REFERENCES cs_wallets(user_uuid) ON DELETE CASCADE,
  b_key       TEXT NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX cs_keys_user ON cs_keys(user_uuid);
CREATE TABLE cs_pin_attempts (
  user_uuid     BIGINT PRIMARY KEY,
  failures      INTEGER NOT NULL DEFAULT 0,
  locked_until  TIMESTAMPTZ,
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE cs_pending_rotations (
  user_uuid      BIGINT NOT NULL REFERENCES cs_wallets(user_uuid) ON DELETE CASCADE,
  new_owner_eoa  TEXT NOT NULL,
  mnemonic_enc   TEXT NOT NULL,
  created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (user_uuid, new_owner_eoa)
);
`,
  },
  {
    version: 2,
    name: "providers, spend nonces",
    sql: `
CREATE TABLE cs_providers (
  client_id     TEXT PRIMARY KEY,
  aes_key_enc   TEXT NOT NULL,
  aes_iv        TEXT NOT NULL,
  replay_protection BOOLEAN NOT NULL DEFAULT FALSE,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE cs_provider_cuids (
  cuid        TEXT PRIMARY KEY,
  client_id   TEXT NOT NULL REFERENCES cs_providers(client_id),
  tx_hash     TEXT NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE cs_spend_nonces (
  client_id   TEXT NOT NULL,
  nonce       TEXT NOT NULL,
  accepted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, nonce)
);
CREATE TABLE cs_slot_last_cuid (
  slot        TEXT PRIMARY KEY,
  cuid        TEXT NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 3,
    name: "spend nonce expiry index",
    sql: "CREATE INDEX cs_spend_nonces_accepted ON cs_spend_nonces(accepted_at)",
  },
];

/** Advisory-lock key of the chain service's migrations ("cs_m" in ASCII). */
const MIGRATION_LOCK = 0x63735f6d;

/**
 * Applies every migration not yet applied, each in its own transaction under a transaction-scoped
 * advisory lock, so several processes starting at once apply each migration exactly once. Safe to call
 * at every start; answers the versions it applied.
 *
 * @example
 * ```ts
 * await migrate(db);
 * ```
 */
export async function migrate(db: SqlDatabase): Promise<number[]> {
  const done: number[] = [];
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      "CREATE TABLE IF NOT EXISTS cs_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    );
  });
  for (const migration of MIGRATIONS) {
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const applied = await tx.query("SELECT 1 FROM cs_schema_migrations WHERE version = $1", [migration.version]);
      if (applied.rows.length > 0) return;
      for (const statement of migration.sql.split(";").map((part) => part.trim()).filter(Boolean)) {
        await tx.query(statement);
      }
      await tx.query("INSERT INTO cs_schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
      done.push(migration.version);
    });
  }
  return done;
}
