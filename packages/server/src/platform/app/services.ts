import type { ChainHandle } from "../../chain-api/chain/start-chain.js";
import type { ServerConfig } from "../config/config.js";
import type { Logger } from "../config/logger.js";
import type { ClientSecrets } from "../../oauth/clients/client-auth.js";
import type { IdentityProviders } from "../../identity/identity-providers/upstream.js";
import type { KeyStore } from "../../oauth/keys/key-store.js";
import type { CallerAssertions } from "../../chain-api/chain/caller-assertions.js";
import type { Passkeys } from "../../identity/passkeys/webauthn.js";
import type { Mailer } from "../../identity/mail/mailer.js";
import type { MailboxChallenges } from "../../identity/mailbox-proof/challenges.js";
import type { RevocationList } from "../../oauth/keys/revocation-list.js";
import type { TokenService } from "../../oauth/keys/tokens.js";
import type { OutboxSeal } from "../../status/outbox/seal.js";
import type { OutboxWorker } from "../../status/outbox/worker.js";
import type { Database } from "@slotgate/storage";
import type { ScryptParams } from "../../identity/users/passwords.js";
import type { AuthorizationCodes } from "../../oauth/token/authorization-code.js";
import type { ClientCache } from "../../oauth/clients/client-auth.js";
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
  codes: AuthorizationCodes;
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
