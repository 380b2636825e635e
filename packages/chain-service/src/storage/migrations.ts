import { type Database, type MigrationSet, migrate } from "@slotgate/storage";

/**
 * The chain service's tables, in order. They carry the `cs_` prefix so they can share one database
 * with the HTTP server's tables; the chain service applies them itself when it starts
 * ({@link migrateChainService}), with the one migration runner of `@slotgate/storage`.
 *
 * @example
 * ```ts
 * CHAIN_SERVICE_MIGRATIONS.table; // "cs_schema_migrations"
 * ```
 */
export const CHAIN_SERVICE_MIGRATIONS: MigrationSet = {
  table: "cs_schema_migrations",
  // "cs_m" in ASCII.
  lockKey: 0x63735f6d,
  migrations: [
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
    {
      version: 4,
      name: "slot-exchange states",
      // One-time session state tokens of exchange_token_owner (spec 4.9), accepted once per owner.
      sql: `
CREATE TABLE cs_slot_exchange_states (
  from_uuid   BIGINT NOT NULL,
  state_hash  TEXT NOT NULL,
  tx_hash     TEXT,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (from_uuid, state_hash)
)`,
    },
    {
      version: 5,
      name: "chain cursor, provider registration parameters",
      // What start-up compares with the chain (docs/decisions/persisted-chain.md): the deployment this
      // database belongs to and the last block a confirmed write landed in; and what a lost provider
      // registration needs to be made again.
      sql: `
CREATE TABLE cs_chain_state (
  id               INTEGER PRIMARY KEY CHECK (id = 1),
  chain_id         TEXT NOT NULL,
  exchange         TEXT NOT NULL,
  last_block       BIGINT NOT NULL DEFAULT 0,
  last_block_hash  TEXT,
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
ALTER TABLE cs_provider_cuids ADD COLUMN release_per INTEGER;
ALTER TABLE cs_provider_cuids ADD COLUMN owner_addr TEXT;
ALTER TABLE cs_provider_cuids ADD COLUMN release_enabled BOOLEAN NOT NULL DEFAULT FALSE;
`,
    },
    {
      version: 6,
      name: "durable chain writes: signers, transactions, writes, wallet nonces, sponsorship usage",
      // docs/decisions/exactly-once.md: every chain write is an intent recorded with the request; the
      // instance that holds a signer's lease gives nonces from cs_signers, keeps each signed transaction
      // before it is sent, and settles the writes from the receipts.
      sql: `
CREATE TABLE cs_signers (
  address       TEXT PRIMARY KEY,
  next_nonce    BIGINT,
  lease_holder  TEXT,
  lease_until   TIMESTAMPTZ,
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE cs_transactions (
  signer        TEXT NOT NULL,
  nonce         BIGINT NOT NULL,
  tx_hash       TEXT NOT NULL,
  raw           TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('signed', 'mined', 'reverted', 'replaced')),
  block_number  BIGINT,
  block_hash    TEXT,
  gas_used      TEXT,
  sent_at       TIMESTAMPTZ,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  settled_at    TIMESTAMPTZ,
  PRIMARY KEY (signer, nonce)
);
CREATE INDEX cs_transactions_open ON cs_transactions(signer, nonce) WHERE status = 'signed';
CREATE TABLE cs_writes (
  id               BIGSERIAL PRIMARY KEY,
  kind             TEXT NOT NULL CHECK (kind IN ('call', 'spend', 'user_operation')),
  signer           TEXT NOT NULL,
  scope            TEXT NOT NULL,
  idempotency_key  TEXT,
  request_hash     TEXT NOT NULL,
  payload          JSONB NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('pending', 'submitted', 'confirmed', 'failed')),
  tx_signer        TEXT,
  tx_nonce         BIGINT,
  attempts         INTEGER NOT NULL DEFAULT 0,
  solo             BOOLEAN NOT NULL DEFAULT FALSE,
  valid_until      TIMESTAMPTZ,
  result           JSON,
  error            JSON,
  request_id       TEXT,
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX cs_writes_idempotency ON cs_writes(scope, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX cs_writes_pending ON cs_writes(signer, id) WHERE status = 'pending';
CREATE INDEX cs_writes_tx ON cs_writes(tx_signer, tx_nonce) WHERE tx_signer IS NOT NULL;
CREATE TABLE cs_wallet_nonces (
  sender            TEXT PRIMARY KEY,
  next_nonce        BIGINT NOT NULL,
  paymaster_offset  BIGINT NOT NULL,
  updated_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE cs_sponsorship_usage (
  scope       TEXT NOT NULL,
  day         DATE NOT NULL,
  wei         NUMERIC(78, 0) NOT NULL DEFAULT 0,
  operations  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (scope, day)
);
`,
    },
    {
      version: 7,
      name: "recovery-key sealing of stored mnemonics, PIN-only backups",
      // docs/security.md: stored mnemonics move from the key-encryption key to the recovery key (the rows
      // are re-sealed at start-up, where both keys are known: SQL cannot decrypt); wallets registered
      // before handed out a backup sealed under the PIN alone, re-sealed at their next PIN verification.
      sql: `
ALTER TABLE cs_keys ADD COLUMN sealed_with TEXT NOT NULL DEFAULT 'kek' CHECK (sealed_with IN ('kek', 'recovery'));
ALTER TABLE cs_pending_rotations ADD COLUMN sealed_with TEXT NOT NULL DEFAULT 'kek' CHECK (sealed_with IN ('kek', 'recovery'));
ALTER TABLE cs_wallets ADD COLUMN backup_pin_only BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE cs_wallets SET backup_pin_only = TRUE WHERE pin_salt IS NOT NULL;
`,
    },
    {
      version: 8,
      name: "provider AES key rotation with an overlap window",
      // The key and IV before the last rotation still decrypt spend messages until previous_valid_until
      // (docs/decisions/developer-center.md); sealed under the key-encryption key like the current one.
      sql: `
ALTER TABLE cs_providers ADD COLUMN previous_aes_key_enc TEXT;
ALTER TABLE cs_providers ADD COLUMN previous_aes_iv TEXT;
ALTER TABLE cs_providers ADD COLUMN previous_valid_until TIMESTAMPTZ;
ALTER TABLE cs_providers ADD COLUMN key_rotated_at TIMESTAMPTZ;
`,
    },
    {
      version: 9,
      name: "spent caller assertions",
      // docs/decisions/chain-link.md: a caller assertion (recover, user calls over gRPC) is accepted once; its
      // jti is kept until shortly after it expires, when a later check deletes it.
      sql: `
CREATE TABLE cs_caller_assertions (
  jti         TEXT PRIMARY KEY,
  user_uuid   BIGINT NOT NULL,
  purpose     TEXT NOT NULL,
  expires_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX cs_caller_assertions_expiry ON cs_caller_assertions (expires_at);
`,
    },
    {
      version: 10,
      name: "slots: one wallet per (cuid, meta_idx), one active slot per user and cuid",
      // docs/decisions/marketplace.md: a slot is (cuid, meta_idx) with one slot wallet for all its life;
      // meta_idx is allocated per cuid from cs_slot_counters; the records' owner (user_uuid) follows a sale
      // when it lands. Existing users' C_SALT wallets that bought content tokens become their first slot
      // of the cuid they last bought under (active), registered on chain (buy_slot) at the next start.
      sql: `
CREATE TABLE cs_slots (
  cuid                 TEXT NOT NULL,
  meta_idx             BIGINT NOT NULL,
  wallet               TEXT NOT NULL UNIQUE,
  salt                 TEXT NOT NULL,
  opening_owner        TEXT NOT NULL,
  user_uuid            BIGINT NOT NULL,
  active               BOOLEAN NOT NULL DEFAULT FALSE,
  registration_queued  BOOLEAN NOT NULL DEFAULT FALSE,
  created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (cuid, meta_idx)
);
CREATE UNIQUE INDEX cs_slots_one_active ON cs_slots (user_uuid, cuid) WHERE active;
CREATE INDEX cs_slots_user ON cs_slots (user_uuid, cuid, meta_idx);
CREATE TABLE cs_slot_counters (
  cuid      TEXT PRIMARY KEY,
  next_idx  BIGINT NOT NULL
);
INSERT INTO cs_slots (cuid, meta_idx, wallet, salt, opening_owner, user_uuid, active)
  SELECT l.cuid, row_number() OVER (PARTITION BY l.cuid ORDER BY w.created_at, w.user_uuid) - 1,
         w.content_address, '1', w.initial_owner, w.user_uuid, TRUE
  FROM cs_wallets w JOIN cs_slot_last_cuid l ON l.slot = lower(w.content_address);
INSERT INTO cs_slot_counters (cuid, next_idx) SELECT cuid, max(meta_idx) + 1 FROM cs_slots GROUP BY cuid;
`,
    },
    {
      version: 12,
      name: "settled-write purge index, provider key shown once",
      // docs/decisions/exactly-once.md: settled writes are deleted once their retention has passed (the
      // index finds them without reading pending ones). docs/decisions/developer-center.md: a provider's
      // first key is shown once, by the first answer of its issuing registration; keys of providers that
      // exist now count as shown, unless their issuing registration is still in flight.
      sql: `
CREATE INDEX cs_writes_settled ON cs_writes (updated_at) WHERE status IN ('confirmed', 'failed');
ALTER TABLE cs_providers ADD COLUMN key_shown_at TIMESTAMPTZ;
UPDATE cs_providers p SET key_shown_at = now()
  WHERE NOT EXISTS (SELECT 1 FROM cs_writes w WHERE w.scope = 'client:' || p.client_id AND w.status IN ('pending', 'submitted') AND w.payload->'answer'->>'kind' = 'provider');
`,
    },
    {
      version: 13,
      name: "chain rebuild: each landed transaction's place and outcome, the writes a rebuild could not restore",
      // docs/decisions/chain-rebuild.md: a chain that lost blocks the database recorded gets the kept signed
      // transactions again, in their order (block, index in it), and each receipt is compared with the
      // outcome recorded when it first landed (status and events, see chain/receipt-outcome.ts). What cannot
      // be rebuilt is kept here, by write id, never silently dropped.
      sql: `
ALTER TABLE cs_transactions ADD COLUMN tx_index INTEGER;
ALTER TABLE cs_transactions ADD COLUMN outcome TEXT;
CREATE INDEX cs_transactions_landed ON cs_transactions (block_number) WHERE status IN ('mined', 'reverted');
CREATE TABLE cs_chain_losses (
  id           BIGSERIAL PRIMARY KEY,
  write_id     BIGINT,
  tx_signer    TEXT NOT NULL,
  tx_nonce     BIGINT,
  tx_hash      TEXT NOT NULL,
  reason       TEXT NOT NULL CHECK (reason IN ('refused', 'outcome_changed', 'not_mined', 'nonce_gap', 'external_bundler')),
  message      TEXT NOT NULL,
  recorded_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX cs_chain_losses_write ON cs_chain_losses (write_id);
`,
    },
  ],
};

/**
 * Applies the chain service's migrations not yet applied; answers the versions applied now.
 * {@link createChainService} calls it at start.
 *
 * @example
 * ```ts
 * await migrateChainService(db); // [1, 2, ..., 10, 12, 13] on a fresh database
 * ```
 */
export function migrateChainService(db: Database): Promise<number[]> {
  return migrate(db, CHAIN_SERVICE_MIGRATIONS);
}
