import type { FixtureOptions } from "./fixtures.js";
import type { WalletDecision } from "./handlers/wallet-window.js";

/**
 * Deliberate contract violations, for proving that the conformance suite catches them.
 * Never enable one outside such a test. Every switch defaults to `false`.
 */
export interface MockFaults {
  /** Accept an authorization code more than once (and never revoke its tokens). */
  reuseCodes?: boolean;
  /** Compare redirect URIs ignoring a trailing slash, instead of exactly. */
  looseRedirectUri?: boolean;
  /** Skip the double-submit CSRF check of `POST /oauth/authorize`. */
  skipCsrfCheck?: boolean;
  /** `POST /v1/oauth/revoke` answers 200 but the token stays valid. */
  ignoreRevocation?: boolean;
  /** The actor rules on the bearer token's user and client go unchecked: status, oauth-meta authorize and exchange_token_owner accept a token of any user or client. */
  skipTokenUserCheck?: boolean;
  /** Purchases split 10% / 90% instead of 15% / 85%. */
  wrongFeeSplit?: boolean;
  /** Slot activation and `exchange_token_owner` ignore the listing lock (accepted while the user is logged in). */
  skipListingLock?: boolean;
  /** Logout answers `transfer_enabled: false`. */
  logoutKeepsTransferDisabled?: boolean;
  /** Bodies above 64 KiB are accepted instead of answering 413. */
  noBodyLimit?: boolean;
  /** The popup result page posts to any origin (`"*"`) instead of the redirect URI's origin. */
  popupWildcardOrigin?: boolean;
  /** PKCE code_verifier is not checked. */
  skipPkce?: boolean;
  /** A client-secret rotation ends the previous secret at once (no overlap window). */
  rotationWithoutOverlap?: boolean;
  /** A disabled client still authenticates. */
  disabledClientStillWorks?: boolean;
  /** Wallet confirmations skip the cuid check (any client may ask about any cuid) and any client reads any confirmation. */
  walletAnyClient?: boolean;
}

/** Options of {@link createMockService}. */
export interface MockServiceOptions extends FixtureOptions {
  /**
   * Base URL the handlers answer on; also the JWT issuer. No trailing slash.
   * @default "http://slotgate.test"
   */
  baseUrl?: string;
  /**
   * Seed the {@link MockFixtures} (developer, clients, end user, provider, slot).
   * @default true
   */
  seed?: boolean;
  /**
   * Clock in epoch milliseconds, for codes, JWT `iat`/`exp` and expiry checks.
   * @default Date.now
   */
  now?: () => number;
  /**
   * `fetch` used for the server-to-server authorize callback. Looked up at call time,
   * so MSW's interception of `globalThis.fetch` applies.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Attempts for each authorize callback (retried on network error or 5xx).
   * @default 3
   */
  callbackAttempts?: number;
  /**
   * Delay before the first callback attempt and base of the backoff between attempts, in ms.
   * @default 10
   */
  callbackDelayMs?: number;
  /**
   * Seconds the previous client secret keeps working after a rotation in the developer center.
   * @default 86400
   */
  clientSecretOverlapSeconds?: number;
  /**
   * How the simulated player answers every wallet window (`/wallet/confirm/{id}`, `/wallet/{action}`) for which
   * no decision was queued with `mock.wallet.nextDecision`: `approve`, `deny`, or `fail` (the service reports
   * `chain_unavailable`).
   * @default "approve"
   */
  walletDecision?: WalletDecision;
  /** Deliberate contract violations (see {@link MockFaults}). */
  faults?: MockFaults;
}
