import { GRANT_TYPES, LIMITS, type TokenResponse } from "@slotgate/protocol";
import { deviceTokenRequestSchema, refreshTokenRequestSchema, tokenRequestSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { contentSlotOf } from "./content-address.js";
import { formOrJsonBody, isPlainObject } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { rateLimit } from "../http/rate-limit.js";
import { parseInput, singleValued } from "../http/validate.js";
import type { ClientRow } from "../storage/clients.js";
import { pollDeviceToken } from "../device/device-grant.js";
import { authenticateClient, identifyClient, type PresentedCredentials, presentedCredentials, requireGrant } from "../clients/client-auth.js";
import { exchangeCode } from "./code-exchange.js";
import { redeemRefreshToken } from "./refresh-tokens.js";

const TOKEN_FIELDS = ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "code_verifier", "refresh_token", "device_code"] as const;

type TokenBody = Record<(typeof TOKEN_FIELDS)[number], string | undefined>;

/** The answer of every grant: spec 2.2, with content_address for blockchain clients. */
async function tokenAnswer(services: Services, client: ClientRow, result: { userId: string; accessToken: string; expiresIn: number; refreshToken?: string | undefined }): Promise<TokenResponse> {
  const answer: TokenResponse = { success: true, access_token: result.accessToken, token_type: "Bearer", expires_in: result.expiresIn, user_id: result.userId };
  const slot = await contentSlotOf(services, result.userId, client);
  if (slot !== undefined) answer.content_address = slot.content_address;
  if (result.refreshToken) answer.refresh_token = result.refreshToken;
  return answer;
}

async function authorizationCodeGrant(services: Services, body: TokenBody, creds: PresentedCredentials): Promise<TokenResponse> {
  const input = parseInput(tokenRequestSchema, { ...body, client_id: creds.clientId, client_secret: undefined });
  const client = await authenticateClient(services, creds);
  if (!client.redirect_uris.includes(input.redirect_uri)) throw new SlotgateServerError("redirect_uri_mismatch");
  const result = await exchangeCode(services, {
    kind: "oauth",
    code: input.code,
    clientId: client.client_id,
    redirectUri: input.redirect_uri,
    codeVerifier: input.code_verifier,
    refresh: client.grant_types.includes(GRANT_TYPES.refreshToken),
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
    rateLimit("token", services.config.rateLimit.tokenPerMinute, services.config.rateLimit.enabled, services.redis, services.config.rateLimit.redisPrefix),
    formOrJsonBody,
    async (req: Request, res: Response) => {
      if (!isPlainObject(req.body)) throw new SlotgateServerError("invalid_request", { message: "Invalid request: the body must be an object" });
      const body = singleValued(req.body, TOKEN_FIELDS);
      const creds = presentedCredentials(req.headers.authorization, body);
      if (!body.grant_type) {
        throw new SlotgateServerError("invalid_request", { message: "Invalid request: grant_type is required", details: [{ path: "grant_type", message: "is required" }] });
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
