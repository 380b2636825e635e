import type { Request } from "express";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import type { ClientRow } from "./clients-store.js";
import { authenticateClient, presentedCredentials } from "./client-auth.js";

/**
 * The development-api client: HTTP Basic `client_id:client_secret` only (no bearer token, no secret in
 * the body). Missing or wrong credentials are 401 invalid_client.
 */
export async function basicClient(services: Services, req: Request): Promise<ClientRow> {
  if (!/^Basic /i.test(req.headers.authorization ?? "")) {
    throw new SlotgateServerError("invalid_client", {
      message: "Authenticate with HTTP Basic client credentials (client_id:client_secret).",
      headers: { "WWW-Authenticate": 'Basic realm="slotgate"' },
    });
  }
  return authenticateClient(services, presentedCredentials(req.headers.authorization, {}));
}

/** A body `client_id` other than the authenticated client's is 403 token_user_mismatch. */
export function requireSameClient(client: ClientRow, bodyClientId: string): void {
  if (bodyClientId !== client.client_id) {
    throw new SlotgateServerError("token_user_mismatch", { message: "client_id in the body differs from the authenticated client." });
  }
}
