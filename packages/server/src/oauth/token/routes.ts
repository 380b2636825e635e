import { GRANT_TYPES, LIMITS, redirectUriAllowed, type TokenResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { deviceTokenRequestSchema, refreshTokenRequestSchema, tokenRequestSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { contentSlotOf } from "./content-address.js";
import { formOrJsonBody, isPlainObject } from "../../platform/http/input.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { corsOf } from "../../platform/http/mount-endpoint.js";
import { serviceRateLimit } from "../../platform/http/rate-limit.js";
import { parseInput, singleValued } from "../../platform/http/input.js";
import type { ClientRow } from "../clients/clients-store.js";
import { pollDeviceToken } from "../device/device-grant.js";
import {
  authenticateClient,
  codeExchangeClient,
  identifyClient,
  isPublicClient,
  type PresentedCredentials,
  presentedCredentials,
  requireGrant,
} from "../clients/client-auth.js";
import { exchangeCode } from "./authorization-code.js";
import { redeemRefreshToken } from "./refresh-tokens.js";

const TOKEN_FIELDS = ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "code_verifier", "refresh_token", "device_code"] as const;

type TokenBody = Record<(typeof TOKEN_FIELDS)[number], string | undefined>;

/** The answer of every grant: spec 2.2, with content_address for blockchain clients. */
async function tokenAnswer(
  services: Services,
  client: ClientRow,
  result: { userId: string; accessToken: string; expiresIn: number; refreshToken?: string | undefined },
): Promise<TokenResponse> {
  const answer: TokenResponse = { success: true, access_token: result.accessToken, token_type: "Bearer", expires_in: result.expiresIn, user_id: result.userId };
  // Only a blockchain client's answer names a wallet: the others never enter the chain API.
  const slot = client.blockchain ? await contentSlotOf(services, result.userId, client) : undefined;
  if (slot !== undefined) answer.content_address = slot.content_address;
  if (result.refreshToken) answer.refresh_token = result.refreshToken;
  return answer;
}

/**
 * The code exchange: a confidential client with its secret, a public client with its PKCE `code_verifier`
 * alone, or the browser SDK's redirect mode: a confidential client's code issued with a PKCE challenge,
 * redeemed with the verifier and no secret, yields the player's user JWT exactly as the popup mode hands it
 * to the page, and never a refresh token (docs/decisions/client-sdk.md, "Redirect mode").
 */
async function authorizationCodeGrant(services: Services, body: TokenBody, creds: PresentedCredentials): Promise<TokenResponse> {
  const input = parseInput(tokenRequestSchema, { ...body, client_id: creds.clientId, client_secret: undefined });
  const browserPkce = creds.method === "none" && input.code_verifier !== undefined;
  const client = browserPkce ? await identifyClient(services, creds) : await codeExchangeClient(services, creds);
  if (!redirectUriAllowed(client, input.redirect_uri)) throw new SlotgateServerError("redirect_uri_mismatch");
  const publicClient = isPublicClient(client) || browserPkce;
  if (publicClient && !input.code_verifier) {
    throw new SlotgateServerError("invalid_request", {
      message:
        "Invalid request: code_verifier is required: this client is public (no secret), so it proves the code with the PKCE verifier it made the code_challenge from (RFC 7636)",
      details: [{ path: "code_verifier", message: "is required for a public client" }],
    });
  }
  const result = await exchangeCode(services, {
    kind: "oauth",
    code: input.code,
    clientId: client.client_id,
    redirectUri: input.redirect_uri,
    codeVerifier: input.code_verifier,
    refresh: !publicClient && client.grant_types.includes(GRANT_TYPES.refreshToken),
    publicClient,
  });
  return tokenAnswer(services, client, result);
}

async function refreshTokenGrant(services: Services, body: TokenBody, creds: PresentedCredentials): Promise<TokenResponse> {
  const input = parseInput(refreshTokenRequestSchema, { ...body, client_id: creds.clientId, client_secret: undefined });
  const client = await authenticateClient(services, creds);
  requireGrant(client, GRANT_TYPES.refreshToken);
  return tokenAnswer(services, client, await redeemRefreshToken(services, { refreshToken: input.refresh_token, clientId: client.client_id }));
}

async function deviceCodeGrant(services: Services, body: TokenBody, creds: PresentedCredentials): Promise<TokenResponse> {
  const input = parseInput(deviceTokenRequestSchema, { ...body, client_id: creds.clientId, client_secret: undefined });
  const client = await identifyClient(services, creds);
  requireGrant(client, GRANT_TYPES.deviceCode);
  const { userId, jwt } = await pollDeviceToken(services, { deviceCode: input.device_code, clientId: client.client_id });
  return tokenAnswer(services, client, { userId, accessToken: jwt.token, expiresIn: LIMITS.userJwtLifetimeSeconds });
}

const GRANTS: Record<string, (services: Services, body: TokenBody, creds: PresentedCredentials) => Promise<TokenResponse>> = {
  [GRANT_TYPES.authorizationCode]: authorizationCodeGrant,
  [GRANT_TYPES.refreshToken]: refreshTokenGrant,
  [GRANT_TYPES.deviceCode]: deviceCodeGrant,
};

/**
 * `POST /oauth/token`: the authorization-code exchange (spec 4.3, RFC 6749 4.1.3), the refresh grant
 * (RFC 6749 section 6, rotating) and the device grant's poll (RFC 8628 section 3.4).
 */
export function tokenRoutes(services: Services): Router {
  const router = Router();
  router.post(
    "/oauth/token",
    // cors: the browser SDK's redirect mode posts its code and verifier as a form (no preflight) and reads the answer.
    ...corsOf(ENDPOINTS.token),
    serviceRateLimit(services, "token", services.config.rateLimit.tokenPerMinute),
    formOrJsonBody,
    async (req: Request, res: Response) => {
      if (!isPlainObject(req.body)) throw new SlotgateServerError("invalid_request", { message: "Invalid request: the body must be an object" });
      const body = singleValued(req.body, TOKEN_FIELDS);
      const creds = presentedCredentials(req.headers.authorization, body);
      if (!body.grant_type) {
        throw new SlotgateServerError("invalid_request", {
          message: "Invalid request: grant_type is required",
          details: [{ path: "grant_type", message: "is required" }],
        });
      }
      const grant = Object.hasOwn(GRANTS, body.grant_type) ? GRANTS[body.grant_type] : undefined;
      if (!grant) throw new SlotgateServerError("unsupported_grant_type");
      const answer = await grant(services, body as TokenBody, creds);
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Pragma", "no-cache");
      res.json(answer);
    },
  );
  return router;
}
