import type { EndpointName } from "@slotgate/protocol/endpoints";

/**
 * The service under test. The suite talks to it over HTTP only, except for the platform-operator
 * actions that have no public HTTP API.
 */
export interface ConformanceTarget {
  /** Shown in the suite's `describe` title, e.g. `"simulated service"` or `"reference server (PGlite)"`. */
  name: string;
  /** Base URL of the service without trailing slash; resolved lazily (a server may start in `beforeAll`). */
  baseUrl: () => string;
  /**
   * `fetch` the suite uses for every request to the service.
   * @default globalThis.fetch (looked up at call time, so MSW interception applies)
   */
  fetch?: typeof fetch;
  /** Platform-operator actions. */
  operator: ConformanceOperator;
  /**
   * The names of the endpoint table's rows the target serves. The table-driven checks call each of
   * them, and the target's `/openapi.json` must list exactly these.
   * @default every row of `ENDPOINTS` not served on the development chain only
   */
  endpoints?: readonly EndpointName[];
  /**
   * Credentials the suite cannot get through the public API. Without the marketplace secret, the rows
   * the marketplace calls are checked for a refused missing secret only.
   * @default none
   */
  credentials?: {
    /** The `MARKETPLACE_SECRET` the service was started with (the bearer key of `listing_allowed`). */
    marketplaceSecret?: string;
  };
  /**
   * The player's mailbox: the one-time code of the newest mail the service sent to `email` (sign-up
   * proves the mailbox with it). Waits for a mail sent after the last code read for that address.
   */
  readMailedCode(email: string): Promise<string>;
  /** Optional feature groups. */
  features?: {
    /**
     * Run the content-token checks (`/v1/development-api`) and the slot checks (`/v1/slots`, the listing lock on `exchange_token_owner`).
     * @default true
     */
    contentTokens?: boolean;
    /**
     * Run the wallet window's confirmation checks (`/v1/wallet/confirmations`; they also need the content-token
     * rows, for a client's cuid).
     * @default true
     */
    walletWindow?: boolean;
  };
}

/** Platform-operator actions that have no public HTTP API. */
export interface ConformanceOperator {
  /** Enables release settlement (`_cuid_releaseTokenEnabled[cuid] = true`) for a cuid. */
  enableRelease(cuid: string): Promise<void>;
  /**
   * Gives the user's slot wallet for the client XOTN (wei integer string) and the user's consent that the
   * client's `cuid` buys with that much of it, when the target needs it.
   */
  fundSlot?(args: { client_id: string; user_id: string; xotn: string; cuid: string }): Promise<void>;
  /**
   * A correctly signed access token for the user and client whose `exp` lies more than the clock-skew
   * tolerance in the past. When given, the suite checks that expired tokens get 401.
   */
  issueExpiredToken?(args: { user_id: string; client_id: string }): Promise<string>;
  /**
   * Makes the device authorization with this user code (as shown, e.g. `BDFH-JKLM`) expire now. When
   * given, the suite checks that polling an expired device code gets `expired_token`.
   */
  expireDeviceAuthorization?(userCode: string): Promise<void>;
  /**
   * Makes sure the user has a wallet (a PIN registered), when the target needs it: a wallet confirmation is
   * refused 404 `wallet_not_found` for a player without one. The suite calls it before the wallet-window checks.
   */
  ensureWallet?(args: { user_id: string }): Promise<void>;
}
