import { z } from "zod";
import { GRANT_TYPES } from "../grant-types.js";
import { isLoopbackIpRedirectUri } from "../redirect-uris.js";
import type { ClientRegistrationRequest, ClientUpdateRequest, DevUserCredentials } from "../types/dev-user.js";
import { initPermissionProviderSchema } from "./content-token.js";
import { email, httpUrl, text } from "./primitives.js";

/** Body of `POST /v1/dev-user/login_devuser` and `/signup`. */
export const devUserCredentialsSchema = z.strictObject({
  email,
  password: z.string().min(8, "must be at least 8 characters").max(256, "must be at most 256 characters"),
}) satisfies z.ZodType<DevUserCredentials>;

/** Why a public client's redirect URI is refused (registration, and an edit of its URIs). */
export const PUBLIC_REDIRECT_MESSAGE =
  "a public client (token_endpoint_auth_method none) may only register loopback IP redirect URIs such as http://127.0.0.1/callback or http://[::1]/callback (RFC 8252 section 7.3; any port is then accepted)";

/**
 * Body of `POST /v1/dev-user/clients`. `token_endpoint_auth_method: "none"` registers a public native
 * client: loopback IP redirect URIs only, no `refresh_token`.
 */
export const clientRegistrationSchema = z
  .strictObject({
    name: text(100),
    redirect_uris: z.array(httpUrl).min(1, "needs at least one redirect URI").max(20),
    download_url: httpUrl,
    web_url: httpUrl,
    platform: z.enum(["web", "desktop", "game"]),
    blockchain: z.boolean().default(false),
    grant_types: z
      .array(
        z.enum([GRANT_TYPES.authorizationCode, GRANT_TYPES.refreshToken, GRANT_TYPES.deviceCode], {
          error: "must be authorization_code, refresh_token or urn:ietf:params:oauth:grant-type:device_code",
        }),
      )
      .max(3)
      .refine((list) => new Set(list).size === list.length, "must not repeat a grant type")
      .transform((list) => [GRANT_TYPES.authorizationCode, ...list.filter((g) => g !== GRANT_TYPES.authorizationCode)])
      .default([GRANT_TYPES.authorizationCode]),
    token_endpoint_auth_method: z
      .enum(["client_secret_basic", "none"], { error: "must be client_secret_basic (confidential, the default) or none (public native client)" })
      .default("client_secret_basic"),
  })
  .superRefine((client, ctx) => {
    if (client.token_endpoint_auth_method !== "none") return;
    client.redirect_uris.forEach((uri, i) => {
      if (!isLoopbackIpRedirectUri(uri)) ctx.addIssue({ code: "custom", path: ["redirect_uris", i], message: PUBLIC_REDIRECT_MESSAGE });
    });
    if (client.grant_types.includes(GRANT_TYPES.refreshToken)) {
      ctx.addIssue({
        code: "custom",
        path: ["grant_types"],
        message: "refresh_token needs a confidential client (a secret on your backend); a public client cannot use it",
      });
    }
  }) satisfies z.ZodType<ClientRegistrationRequest, unknown>;

/** Body of `PATCH /v1/dev-user/clients/{client_id}`: one or more of the editable fields, checked as at registration. */
export const clientUpdateSchema = z
  .strictObject({
    name: clientRegistrationSchema.shape.name.optional(),
    redirect_uris: clientRegistrationSchema.shape.redirect_uris.optional(),
    download_url: httpUrl.optional(),
    web_url: httpUrl.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "needs at least one of name, redirect_uris, download_url, web_url") satisfies z.ZodType<
  ClientUpdateRequest,
  unknown
>;

/** Path parameter `client_id` of the developer center's per-client endpoints. */
export const clientIdParamSchema = z.strictObject({ client_id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "must be a client_id") });

/** Path parameters of `POST /v1/dev-user/clients/{client_id}/deliveries/{delivery_id}/retry`. */
export const deliveryParamSchema = z.strictObject({
  client_id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "must be a client_id"),
  delivery_id: z.string().regex(/^[1-9][0-9]{0,17}$/, "must be a delivery id"),
});

/** Body of `POST /v1/dev-user/clients/{client_id}/provider/cuids`: `init_permission_provider` without the client_id (it is the path's). */
export const providerCuidSchema = initPermissionProviderSchema.omit({ client_id: true });

/** Body of `POST /v1/dev-user/clients/{client_id}/provider/replay_protection`. */
export const replayProtectionSchema = z.strictObject({ enabled: z.boolean() });
