/**
 * The OAuth 2.0 grant types the service knows, as sent in `grant_type` and listed in a client's
 * `grant_types` (RFC 7591 naming). `authorization_code` is every client's; the other two are opt-in
 * per client at registration.
 *
 * @example
 * ```ts
 * import { GRANT_TYPES } from "@slotgate/protocol";
 * body.set("grant_type", GRANT_TYPES.deviceCode);
 * ```
 */
export const GRANT_TYPES = {
  /** The code exchange (spec 4.3), every client. */
  authorizationCode: "authorization_code",
  /** Server-side refresh (spec 9, v4): confidential clients that opted in. */
  refreshToken: "refresh_token",
  /** The device authorization grant (RFC 8628) for consoles and TVs. */
  deviceCode: "urn:ietf:params:oauth:grant-type:device_code",
} as const;

/** One of {@link GRANT_TYPES}. */
export type GrantType = (typeof GRANT_TYPES)[keyof typeof GRANT_TYPES];
