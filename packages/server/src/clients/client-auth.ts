import type { GrantType } from "@slotgate/protocol";
import type { Services } from "../app/services.js";
import { SlotgateServerError } from "../http/errors.js";
import type { ClientRow } from "../storage/clients.js";

/** Client credentials as presented on a request. */
export interface PresentedCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
  method: "client_secret_basic" | "client_secret_post" | "none";
}

/**
 * Reads client credentials from HTTP Basic (RFC 6749 2.3.1, form-encoded parts) or the body.
 * Both at once is 400 invalid_request; a body client_id that differs from Basic's is invalid_request.
 */
export function presentedCredentials(authorization: string | undefined, body: Record<string, unknown>): PresentedCredentials {
  const bodyId = typeof body["client_id"] === "string" ? body["client_id"] : undefined;
  const bodySecret = typeof body["client_secret"] === "string" ? body["client_secret"] : undefined;
  const basic = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(authorization ?? "");
  if (basic) {
    if (bodySecret !== undefined) {
      throw new SlotgateServerError("invalid_request", { message: "Invalid request: send client credentials either in HTTP Basic or in the body, not both" });
    }
    const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw clientError(true);
    let id: string;
    let secret: string;
    try {
      id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
    } catch {
      throw clientError(true);
    }
    if (bodyId !== undefined && bodyId !== id) throw clientError(true);
    return { clientId: id, clientSecret: secret, method: "client_secret_basic" };
  }
  return { clientId: bodyId, clientSecret: bodySecret, method: bodySecret !== undefined ? "client_secret_post" : "none" };
}

function clientError(basic: boolean): SlotgateServerError {
  return new SlotgateServerError("invalid_client", basic ? { headers: { "WWW-Authenticate": 'Basic realm="slotgate"' } } : {});
}

/** Authenticates a confidential client; 401 invalid_client for an unknown client or wrong secret. */
export async function authenticateClient(services: Services, creds: PresentedCredentials): Promise<ClientRow> {
  const basic = creds.method === "client_secret_basic";
  if (!creds.clientId || !creds.clientSecret || creds.clientId.length > 128 || creds.clientSecret.length > 512) throw clientError(basic);
  const client = await services.clients.get(creds.clientId);
  if (!client || !secretMatches(services, client, creds.clientSecret)) throw clientError(basic);
  return client;
}

/**
 * Whether `secret` is the client's current secret or, during the overlap window after a rotation
 * (`CLIENT_SECRET_OVERLAP_SECONDS`), its previous one.
 */
export function secretMatches(services: Pick<Services, "secrets">, client: ClientRow, secret: string): boolean {
  if (services.secrets.verify(secret, client.secret_hash)) return true;
  const until = client.previous_secret_expires_at;
  return client.previous_secret_hash !== null && until !== null && new Date(until).getTime() > Date.now() && services.secrets.verify(secret, client.previous_secret_hash);
}

/**
 * Identifies the client of a device request: a confidential client when a secret is presented
 * (checked as {@link authenticateClient}), else a public client by its `client_id` alone (a console
 * cannot keep a secret, RFC 8628 section 3.1). 401 invalid_client for an unknown client.
 */
export async function identifyClient(services: Services, creds: PresentedCredentials): Promise<ClientRow> {
  if (creds.clientSecret !== undefined) return authenticateClient(services, creds);
  const client = creds.clientId && creds.clientId.length <= 128 ? await services.clients.get(creds.clientId) : null;
  if (!client) throw clientError(false);
  return client;
}

/** 400 unauthorized_client unless the client registered the grant (`grant_types`). */
export function requireGrant(client: ClientRow, grant: GrantType): void {
  if (!client.grant_types.includes(grant)) {
    throw new SlotgateServerError("unauthorized_client", { message: `This client is not registered for the ${grant} grant; register it with that grant in grant_types.` });
  }
}
