import { type GrantType, redirectUriAllowed } from "@slotgate/protocol";
import type { MockContext } from "./context.js";
import { basicCredentials } from "./http/auth.js";
import { HttpError } from "./http/http-error.js";
import { safeEqual } from "./random.js";
import type { ClientRecord } from "./state.js";

/** Whether `uri` equals one of the client's registered redirect URIs character for character. */
export function isRegisteredRedirectUri(ctx: MockContext, client: ClientRecord, uri: string): boolean {
  if (ctx.faults.looseRedirectUri) {
    const strip = (u: string) => u.replace(/\/+$/, "");
    return client.redirect_uris.some((r) => strip(r) === strip(uri));
  }
  return redirectUriAllowed(client, uri);
}

/** The client unless it is unknown, disabled or deleted (such a client neither signs users in nor authenticates). */
export function activeClient(ctx: MockContext, clientId: string): ClientRecord | undefined {
  const client = ctx.state.clients.get(clientId);
  return client && (!client.disabled || ctx.faults.disabledClientStillWorks) && !client.deleted ? client : undefined;
}

/** The client, or throws 401 invalid_client. */
export function requireClient(ctx: MockContext, clientId: string): ClientRecord {
  const client = activeClient(ctx, clientId);
  if (!client) throw new HttpError("invalid_client");
  return client;
}

/** Throws 401 redirect_uri_mismatch unless the URI is registered for the client. */
export function requireRegisteredRedirectUri(ctx: MockContext, client: ClientRecord, uri: string): void {
  if (!isRegisteredRedirectUri(ctx, client, uri)) throw new HttpError("redirect_uri_mismatch");
}

/** Whether a client is public (`token_endpoint_auth_method: "none"`): no secret, PKCE S256 on every code. */
export function isPublicClient(client: ClientRecord): boolean {
  return client.token_endpoint_auth_method === "none";
}

/** The client whose id and secret match, or throws 401 invalid_client (always for a public client: it has no secret). */
export function authenticateClient(ctx: MockContext, clientId: string, secret: string): ClientRecord {
  const client = activeClient(ctx, clientId);
  const previous = client?.previous_secret;
  const ok =
    client &&
    !isPublicClient(client) &&
    (safeEqual(client.client_secret, secret) || (previous !== undefined && previous.until > ctx.now() && safeEqual(previous.secret, secret)));
  if (!client || !ok) throw new HttpError("invalid_client");
  return client;
}

/** Throws 400 unauthorized_client unless the client registered the grant. */
export function requireGrant(client: ClientRecord, grant: GrantType): void {
  if (!client.grant_types.includes(grant)) {
    throw new HttpError("unauthorized_client", {
      message: `This client is not registered for the ${grant} grant; register it with that grant in grant_types.`,
    });
  }
}

/**
 * The client of a device request: authenticated when a secret is given, else a public client by
 * `client_id` alone (RFC 8628 3.1). 401 invalid_client otherwise.
 */
export function identifyClient(ctx: MockContext, clientId: string | undefined, secret: string | undefined): ClientRecord {
  if (clientId === undefined) throw new HttpError("invalid_client");
  return secret === undefined ? requireClient(ctx, clientId) : authenticateClient(ctx, clientId, secret);
}

/** The client of a request's HTTP Basic credentials (the provider backends), or throws 401 invalid_client. */
export function basicClient(ctx: MockContext, request: Request): ClientRecord {
  const basic = basicCredentials(request);
  if (!basic) {
    throw new HttpError("invalid_client", {
      message: "Authenticate with HTTP Basic client credentials (client_id:client_secret).",
      headers: { "WWW-Authenticate": 'Basic realm="slotgate"' },
    });
  }
  return authenticateClient(ctx, basic.id, basic.secret);
}
