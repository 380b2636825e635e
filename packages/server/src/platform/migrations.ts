import { type Database, type MigrationSet, migrate } from "@slotgate/storage";

/**
 * The server's tables (identity, clients, codes, login status, outbox), applied by the one migration
 * runner of `@slotgate/storage`. The chain service owns and migrates its own (`cs_`) tables.
 *
 * @example
 * ```ts
 * SERVER_MIGRATIONS.migrations.map((m) => m.version); // [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
 * ```
 */
export const SERVER_MIGRATIONS: MigrationSet = {
  table: "schema_migrations",
  lockKey: 727274,
  migrations: [
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
    {
      version: 3,
      name: "slot-exchange states move to the chain service",
      // Created on demand by earlier versions when a chain was configured; the chain service keeps the
      // states of slot exchanges in its own cs_slot_exchange_states now.
      sql: "DROP TABLE IF EXISTS slot_exchange_states",
    },
    {
      version: 4,
      name: "client grant types, refresh-token families, device authorizations",
      sql: `
ALTER TABLE clients ADD COLUMN grant_types JSONB NOT NULL DEFAULT '["authorization_code"]';
CREATE TABLE refresh_families (
  family_id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients(client_id),
  user_id BIGINT NOT NULL REFERENCES end_users(id),
  first_jti TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  ended_at TIMESTAMPTZ,
  ended_reason TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX refresh_families_first_jti ON refresh_families(first_jti);
CREATE INDEX refresh_families_expires ON refresh_families(expires_at);
CREATE TABLE refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL REFERENCES refresh_families(family_id) ON DELETE CASCADE,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
CREATE TABLE device_authorizations (
  device_code_hash TEXT PRIMARY KEY,
  user_code TEXT NOT NULL UNIQUE,
  client_id TEXT NOT NULL REFERENCES clients(client_id),
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'redeemed')),
  user_id BIGINT REFERENCES end_users(id),
  interval_seconds INTEGER NOT NULL,
  last_polled_at TIMESTAMPTZ,
  expires_at TIMESTAMPTZ NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX device_authorizations_expires ON device_authorizations(expires_at);
`,
    },
    {
      version: 5,
      name: "verified mailboxes, identity-provider links, passkeys, sign-in flows",
      // Accounts created before this migration have no verified mailbox (email_verified_at NULL): their
      // next sign-in asks for the emailed code first (docs/decisions/identity.md).
      sql: `
ALTER TABLE end_users ALTER COLUMN password_hash DROP NOT NULL;
ALTER TABLE end_users ADD COLUMN email_verified_at TIMESTAMPTZ;
CREATE TABLE mailbox_challenges (
  id TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('signup', 'verify', 'link', 'recover')),
  email TEXT NOT NULL,
  user_id BIGINT REFERENCES end_users(id),
  binding TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  payload JSONB NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  expires_at TIMESTAMPTZ NOT NULL,
  consumed_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX mailbox_challenges_recent ON mailbox_challenges(email, purpose, created_at);
CREATE INDEX mailbox_challenges_expires ON mailbox_challenges(expires_at);
CREATE TABLE identity_links (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  provider_id TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES end_users(id),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX identity_links_user ON identity_links(user_id);
CREATE TABLE passkeys (
  credential_id TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES end_users(id),
  public_key TEXT NOT NULL,
  sign_count BIGINT NOT NULL DEFAULT 0,
  transports JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_used_at TIMESTAMPTZ
);
CREATE INDEX passkeys_user ON passkeys(user_id);
CREATE TABLE sign_in_flows (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  binding TEXT NOT NULL,
  payload JSONB NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  consumed_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_flows_expires ON sign_in_flows(expires_at);
`,
    },
    {
      version: 6,
      name: "developer center: client edits, secret rotation, disable/delete, audit, deliveries per client",
      // Client rows become mutable (docs/decisions/developer-center.md): the previous secret keeps working
      // until previous_secret_expires_at; disabled_at and deleted_at switch a client off (deleted rows stay,
      // scrubbed, so the client_id is never reused). Every change is a client_audit row. Outbox rows are
      // listed per client by payload->>'client_id'.
      sql: `
ALTER TABLE clients ADD COLUMN previous_secret_hash TEXT;
ALTER TABLE clients ADD COLUMN previous_secret_expires_at TIMESTAMPTZ;
ALTER TABLE clients ADD COLUMN disabled_at TIMESTAMPTZ;
ALTER TABLE clients ADD COLUMN deleted_at TIMESTAMPTZ;
CREATE TABLE client_audit (
  id BIGSERIAL PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients(client_id),
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  detail JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX client_audit_client ON client_audit(client_id, id);
CREATE INDEX outbox_by_client ON outbox((payload->>'client_id'), id);
`,
    },
    {
      version: 7,
      name: "outbox rows carry the request id that enqueued them",
      sql: `ALTER TABLE outbox ADD COLUMN request_id TEXT;`,
    },
    {
      version: 8,
      name: "per-account backoff of password sign-in",
      // docs/decisions/brute-force.md: one row per (realm, account) with failed or in-flight password
      // attempts; account is the SHA-256 of the normalised email, so unknown addresses leave no readable trace.
      // blocked_until is when the next attempt may start; a right password deletes the row.
      sql: `
CREATE TABLE sign_in_attempts (
  realm TEXT NOT NULL,
  account TEXT NOT NULL,
  failures INTEGER NOT NULL,
  blocked_until TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (realm, account)
);
CREATE INDEX sign_in_attempts_updated ON sign_in_attempts(updated_at);
`,
    },
    {
      version: 9,
      name: "outbox secrets sealed at rest",
      // A callback's one-time code moves out of target_url into sealed_query (AES-256-GCM under a key
      // derived from CLIENT_SECRET_PEPPER), dropped on delivery. Finished callbacks written before this
      // lose the code they kept in clear; pending ones keep it until delivered, as before.
      sql: `
ALTER TABLE outbox ADD COLUMN sealed_query TEXT;
UPDATE outbox SET target_url = regexp_replace(target_url, '([?&])code=[^&#]*&?', '\\1')
  WHERE topic = 'oauth_meta.callback' AND (delivered_at IS NOT NULL OR failed_at IS NOT NULL) AND target_url ~ '[?&]code=';
`,
    },
    {
      version: 10,
      name: "transfer hold on the login-status row (the listing lock)",
      // docs/decisions/marketplace.md: while a sale of the user's slot is being written to the chain the
      // row carries a hold (until when, and which sale: "hold:<uuid>" or "write:<write_id>"); a status
      // login of that (user, client) is refused while it stands. On the row itself, not another table:
      // PostgreSQL READ COMMITTED re-checks a conflicting UPDATE's WHERE against this row's newest version.
      sql: `
ALTER TABLE login_status ADD COLUMN transfer_hold_until TIMESTAMPTZ;
ALTER TABLE login_status ADD COLUMN transfer_hold_ref TEXT;
`,
    },
    {
      version: 11,
      name: "public native clients (token_endpoint_auth_method none)",
      // docs/decisions/game-clients.md: a public client has no secret (secret_hash stays ''), registers
      // loopback IP redirect URIs only and redeems its codes with PKCE S256. Existing clients are confidential.
      sql: `ALTER TABLE clients ADD COLUMN token_endpoint_auth_method TEXT NOT NULL DEFAULT 'client_secret_basic';`,
    },
    {
      version: 12,
      name: "a client's brand on the sign-in pages (display name, accent colour, logo)",
      // docs/decisions/client-brand.md: the brand's small fields on the client row (read with it, cached with
      // it); the logo's bytes in their own table, read only when the logo is served, named by their SHA-256.
      sql: `
ALTER TABLE clients ADD COLUMN brand_display_name TEXT;
ALTER TABLE clients ADD COLUMN brand_accent TEXT;
ALTER TABLE clients ADD COLUMN brand_logo_sha256 TEXT;
CREATE TABLE client_logos (
  client_id TEXT PRIMARY KEY REFERENCES clients(client_id),
  content_type TEXT NOT NULL,
  bytes BYTEA NOT NULL,
  sha256 TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
`,
    },
    {
      version: 13,
      name: "wallet window confirmations",
      // docs/decisions/wallet-window.md: a client's backend asks, the player confirms once in the window.
      // 'signing' is the state between taking it and the chain call's outcome (a wrong PIN puts it back).
      sql: `
CREATE TABLE wallet_confirmations (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES clients(client_id),
  user_id BIGINT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('approve_purchases', 'token_transfer', 'slot_hand_over')),
  params JSONB NOT NULL,
  redirect_uri TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'signing', 'approved', 'denied', 'failed')),
  tx_hash TEXT,
  write_id TEXT,
  error JSONB,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL,
  closed_at TIMESTAMPTZ
);
CREATE INDEX wallet_confirmations_expires ON wallet_confirmations(expires_at);
`,
    },
  ],
};

/**
 * Applies the server's migrations not yet applied ({@link SERVER_MIGRATIONS}); answers the versions applied now.
 *
 * @example
 * ```ts
 * await migrateServer(db); // [1, 2, …, 13] on a fresh database, [] afterwards
 * ```
 */
export function migrateServer(db: Database): Promise<number[]> {
  return migrate(db, SERVER_MIGRATIONS);
}
