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
  if (!client || !services.secrets.verify(creds.clientSecret, client.secret_hash)) throw clientError(basic);
  return client;
}
