import type { ChainHandle } from "../chain/start-chain.js";
import type { ServerConfig } from "../config/config.js";
import type { Logger } from "../config/logger.js";
import type { ClientSecrets } from "../clients/client-secrets.js";
import type { IdentityProviders } from "../identity-providers/upstream.js";
import type { KeyStore } from "../keys/key-store.js";
import type { CallerAssertions } from "../chain/caller-assertions.js";
import type { Passkeys } from "../passkeys/webauthn.js";
import type { Mailer } from "../mail/mailer.js";
import type { MailboxChallenges } from "../mailbox-proof/challenges.js";
import type { RevocationList } from "../keys/revocation-list.js";
import type { TokenService } from "../keys/tokens.js";
import type { OutboxSeal } from "../outbox/seal.js";
import type { OutboxWorker } from "../outbox/worker.js";
import type { Database } from "@slotgate/storage";
import type { ScryptParams } from "../users/passwords.js";
import type { CodeBatcher } from "../token/code-batcher.js";
import type { ClientCache } from "../clients/client-cache.js";
import type { Redis } from "ioredis";
import type { ServerMetrics } from "../observability/metrics.js";

/** Everything a route handler needs, built once by `createApp`. */
export interface Services {
  config: ServerConfig;
  /** Base URL and token issuer, no trailing slash. */
  issuer: string;
  db: Database;
  keys: KeyStore;
  tokens: TokenService;
  revocations: RevocationList;
  secrets: ClientSecrets;
  clients: ClientCache;
  codes: CodeBatcher;
  /** The chain service, or null when the server runs with `CHAIN=off`. */
  chain: ChainHandle | null;
  /** Signs caller assertions for the chain service (recovery after the mailbox proof). */
  assertCaller: CallerAssertions;
  outbox: OutboxWorker;
  /** Seals the secret query parameters of outbox messages (callback codes) at rest. */
  outboxSeal: OutboxSeal;
  log: Logger;
  scrypt: ScryptParams;
  /** Outgoing mail: SMTP, or the development mailbox. */
  mailer: Mailer;
  /** Emailed one-time codes (sign-up, linking, recovery). */
  mailbox: MailboxChallenges;
  /** Passkeys (WebAuthn) of the sign-in page. */
  passkeys: Passkeys;
  /** Upstream OpenID Connect providers (`IDENTITY_PROVIDERS`). */
  identityProviders: IdentityProviders;
  /** Prometheus metrics (`GET /metrics`). */
  metrics: ServerMetrics;
  /** The Redis connection (`REDIS_URL`) sharing rate-limit counters between instances, or null. */
  redis: Redis | null;
}
