import { z } from "zod";
import type { AuthorizeQuery, StatusCheckQuery, StatusUpdateRequest, TokenRequest } from "../index.js";
import { text } from "./primitives.js";

/**
 * Query of `GET /oauth/authorize`, after the ERR_MISSING_PARAMS check.
 * Unknown parameters are ignored, as RFC 6749 section 3.1 requires.
 */
export const authorizeQuerySchema = z.object({
  client_id: text(128),
  redirect_uri: text(2048),
  response_type: z.literal("code", { error: "must be code" }),
  state: text(512),
  display: z.enum(["page", "popup"]).optional(),
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9\-._~]{43,128}$/, "must be a base64url S256 challenge of 43-128 characters")
    .optional(),
  code_challenge_method: z.literal("S256", { error: "only S256 is supported" }).optional(),
}) satisfies z.ZodType<AuthorizeQuery, unknown>;

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

/** Body of `POST /v1/oauth/status/login` and `/logout`. */
export const statusUpdateSchema = z.strictObject({
  user_id: text(128),
  client_id: text(128),
}) satisfies z.ZodType<StatusUpdateRequest>;

/** Query of `GET /v1/oauth/status/check`. */
export const statusCheckQuerySchema = z.strictObject({
  user_id: text(128),
  client_id: text(128),
}) satisfies z.ZodType<StatusCheckQuery>;
