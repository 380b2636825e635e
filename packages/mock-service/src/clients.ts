import type { MockContext } from "./context.js";
import { HttpError } from "./http/http-error.js";
import { safeEqual } from "./random.js";
import type { ClientRecord } from "./state.js";

/** Whether a redirect URI is an RFC 8252 loopback URI of the form `http://127.0.0.1:<port>/callback`. */
export function isLoopbackUri(uri: string): boolean {
  return /^http:\/\/127\.0\.0\.1:\d{1,5}\/callback$/.test(uri);
}

/** Whether `uri` equals one of the client's registered redirect URIs character for character. */
export function isRegisteredRedirectUri(ctx: MockContext, client: ClientRecord, uri: string): boolean {
  if (ctx.faults.looseRedirectUri) {
    const strip = (u: string) => u.replace(/\/+$/, "");
    return client.redirect_uris.some((r) => strip(r) === strip(uri));
  }
  return client.redirect_uris.includes(uri);
}

/** The client, or throws 401 invalid_client. */
export function requireClient(ctx: MockContext, clientId: string): ClientRecord {
  const client = ctx.state.clients.get(clientId);
  if (!client) throw new HttpError("invalid_client");
  return client;
}

/** Throws 401 redirect_uri_mismatch unless the URI is registered for the client. */
export function requireRegisteredRedirectUri(ctx: MockContext, client: ClientRecord, uri: string): void {
  if (!isRegisteredRedirectUri(ctx, client, uri)) throw new HttpError("redirect_uri_mismatch");
}

/** The client whose id and secret match, or throws 401 invalid_client. */
export function authenticateClient(ctx: MockContext, clientId: string, secret: string): ClientRecord {
  const client = ctx.state.clients.get(clientId);
  if (!client || !safeEqual(client.client_secret, secret)) throw new HttpError("invalid_client");
  return client;
}
