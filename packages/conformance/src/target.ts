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
  /** Optional feature groups. */
  features?: {
    /**
     * Run the content-token checks (`/v1/development-api`).
     * @default true
     */
    contentTokens?: boolean;
  };
}

/** Platform-operator actions that have no public HTTP API. */
export interface ConformanceOperator {
  /** Enables release settlement (`_cuid_releaseTokenEnabled[cuid] = true`) for a cuid. */
  enableRelease(cuid: string): Promise<void>;
  /** Gives the user's slot wallet for the client XOTN (wei integer string) and allowance, when the target needs it. */
  fundSlot?(args: { client_id: string; user_id: string; xotn: string }): Promise<void>;
  /**
   * A correctly signed access token for the user and client whose `exp` lies more than the clock-skew
   * tolerance in the past. When given, the suite checks that expired tokens get 401.
   */
  issueExpiredToken?(args: { user_id: string; client_id: string }): Promise<string>;
}
