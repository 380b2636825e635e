import { z } from "zod";
import { GRANT_TYPES } from "../grant-types.js";
import type {
  AuthorizeQuery,
  DeviceAuthorizationRequest,
  DeviceTokenRequest,
  RefreshTokenRequest,
  StatusCheckQuery,
  StatusUpdateRequest,
  TokenRequest,
} from "../index.js";
import { text } from "./primitives.js";

/**
 * OpenID Connect `ui_locales`: the sign-in pages' preferred languages, space-separated BCP 47 tags in order
 * (`ja en`), on `GET /oauth/authorize` and the device verification page `GET /oauth/device`.
 */
export const uiLocalesSchema = text(256)
  .regex(/^[A-Za-z0-9-]+( [A-Za-z0-9-]+)*$/, "must be language tags separated by single spaces, e.g. ja en")
  .describe("Preferred languages of the sign-in pages: space-separated BCP 47 tags (OpenID Connect ui_locales).");

/**
 * Query of `GET /oauth/authorize`, after the ERR_MISSING_PARAMS check (which applies
 * {@link authorizeStateRequired} to `state`). Unknown parameters are ignored, as RFC 6749 section 3.1 requires.
 */
export const authorizeQuerySchema = z.object({
  client_id: text(128),
  redirect_uri: text(2048),
  response_type: z.literal("code", { error: "must be code" }),
  state: text(512)
    .optional()
    .describe(
      "CSRF token, echoed back. Required unless the request carries PKCE S256 and ends in a code redirect (not popup, not the loopback JWT redirect of a confidential desktop or game client).",
    ),
  display: z.enum(["page", "popup"]).optional(),
  prompt: text(64).optional().describe("none: silent renewal (display=popup, in a hidden iframe); other OpenID Connect values (login, consent …) are ignored"),
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9\-._~]{43,128}$/, "must be a base64url S256 challenge of 43-128 characters")
    .optional(),
  code_challenge_method: z.literal("S256", { error: "only S256 is supported" }).optional(),
  ui_locales: uiLocalesSchema.optional(),
}) satisfies z.ZodType<AuthorizeQuery, unknown>;

/** The `details` message of a missing `state` (ERR_MISSING_PARAMS). */
export const STATE_REQUIRED_MESSAGE =
  "is required unless the request carries PKCE (code_challenge with code_challenge_method=S256) and ends in a code redirect";

/**
 * Whether an authorize request must carry `state`. OAuth 2.1 and RFC 9700 (sections 2.1.1 and 4.7.1)
 * let PKCE S256 stand in for `state` as the CSRF defence, because the code it protects is useless
 * without the verifier held by the client that started the flow. That holds only when the request
 * ends in a code redirect (`display=page`, a web client's redirect, or a public client's loopback redirect): the
 * popup mode and a confidential desktop or game client's loopback redirect hand over the user JWT itself, which no verifier guards, so they
 * keep requiring `state` (docs/decisions/oauth-trust-boundaries.md, docs/decisions/game-clients.md).
 *
 * @param query - the raw authorize parameters (`display`, `code_challenge`, `code_challenge_method`)
 * @param loopbackRedirect - whether the request ends in a loopback redirect that carries the user JWT
 * (`loopbackJwtRedirect`: a confidential desktop or game client's `http://127.0.0.1:{port}/callback`; a web
 * client's URI of that shape and a public client's loopback redirect carry a code)
 * @returns true when a request without `state` must be refused with ERR_MISSING_PARAMS
 *
 * @example
 * ```ts
 * authorizeStateRequired({ code_challenge: challenge, code_challenge_method: "S256" }, false); // false
 * authorizeStateRequired({ code_challenge: challenge, code_challenge_method: "plain" }, false); // true
 * authorizeStateRequired({ display: "popup", code_challenge: challenge, code_challenge_method: "S256" }, false); // true
 * ```
 */
export function authorizeStateRequired(
  query: { display?: string | undefined; code_challenge?: string | undefined; code_challenge_method?: string | undefined },
  loopbackRedirect: boolean,
): boolean {
  const pkceS256 = Boolean(query.code_challenge) && query.code_challenge_method === "S256";
  const endsInCode = !loopbackRedirect && query.display !== "popup";
  return !(pkceS256 && endsInCode);
}

/** Body of `POST /oauth/logout` (form or JSON): the client whose browser session ends (the client SDK's `logout()`). */
export const browserLogoutSchema = z.object({ client_id: text(128) });

/** Answer of `POST /oauth/logout`: always success, whether a session existed or not. */
export const browserLogoutResponseSchema = z.object({ success: z.literal(true) });

/**
 * Body of `POST /oauth/token` (JSON or form). Unknown parameters are ignored (RFC 6749 3.2).
 * `client_id` may be absent when the client authenticates with HTTP Basic.
 */
export const tokenRequestSchema = z.object({
  grant_type: z.literal("authorization_code", { error: "must be authorization_code" }),
  code: text(512),
  redirect_uri: text(2048),
  client_id: text(128).optional(),
  client_secret: text(512).optional(),
  code_verifier: z
    .string()
    .regex(/^[A-Za-z0-9\-._~]{43,128}$/, "must be 43-128 unreserved characters (RFC 7636)")
    .optional(),
}) satisfies z.ZodType<TokenRequest, unknown>;

/** Body of `POST /oauth/token` with `grant_type=refresh_token` (JSON or form). */
export const refreshTokenRequestSchema = z.object({
  grant_type: z.literal(GRANT_TYPES.refreshToken, { error: "must be refresh_token" }),
  refresh_token: text(256),
  client_id: text(128).optional(),
  client_secret: text(512).optional(),
}) satisfies z.ZodType<RefreshTokenRequest, unknown>;

/** Body of `POST /oauth/token` with the device grant (RFC 8628 section 3.4). */
export const deviceTokenRequestSchema = z.object({
  grant_type: z.literal(GRANT_TYPES.deviceCode, { error: `must be ${GRANT_TYPES.deviceCode}` }),
  device_code: text(256),
  client_id: text(128).optional(),
  client_secret: text(512).optional(),
}) satisfies z.ZodType<DeviceTokenRequest, unknown>;

/** Body of `POST /oauth/device_authorization` (RFC 8628 section 3.1); `client_id` may come from HTTP Basic. */
export const deviceAuthorizationRequestSchema = z.object({
  client_id: text(128).optional(),
  client_secret: text(512).optional(),
  scope: z.string().max(1024).optional(),
}) satisfies z.ZodType<DeviceAuthorizationRequest, unknown>;

/** A user code as typed on the verification page: 8 letters of the code alphabet, any case, dashes and spaces ignored. */
export const userCodeSchema = z
  .string()
  .max(32, "must be at most 32 characters")
  .transform((v) => v.toUpperCase().replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/, "must be the 8-letter code shown on your device, e.g. BDFH-JKLM"));

/** Body of `POST /v1/oauth/status/login` and `/logout`. */
export const statusUpdateSchema = z.strictObject({
  user_id: text(128),
  client_id: text(128),
}) satisfies z.ZodType<StatusUpdateRequest>;

/** Query of `GET /v1/oauth/status/check`: the same two fields as a status update. */
export const statusCheckQuerySchema = statusUpdateSchema satisfies z.ZodType<StatusCheckQuery>;
