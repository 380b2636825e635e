import type { AuthorizeQuery } from "@slotgate/protocol";
import { authorizeQuerySchema, authorizeStateRequired, STATE_REQUIRED_MESSAGE } from "@slotgate/protocol/schemas";
import type { Services } from "../app/services.js";
import { SlotgateServerError } from "../http/errors.js";
import { parseInput, singleValued } from "../http/validate.js";
import type { ClientRow } from "../storage/clients.js";

/** The authorize parameters carried through the sign-in form. */
export const AUTHORIZE_PARAMS = ["client_id", "redirect_uri", "response_type", "state", "display", "code_challenge", "code_challenge_method"] as const;

/** How the result is delivered. */
export type AuthorizeMode = "page" | "popup" | "loopback";

/** A validated authorize request. */
export interface AuthorizeRequest {
  params: AuthorizeQuery;
  client: ClientRow;
  mode: AuthorizeMode;
}

/** Whether a URI is an RFC 8252 loopback redirect (`http://127.0.0.1:{port}/callback` or `[::1]`). */
export function isLoopbackUri(uri: string): boolean {
  return /^http:\/\/(127\.0\.0\.1|\[::1\]):[0-9]{1,5}\/callback$/.test(uri);
}

/**
 * Validates authorize parameters in the contract's order: ERR_MISSING_PARAMS, invalid_client,
 * redirect_uri_mismatch (never redirecting to an unregistered URI), unsupported_response_type,
 * then the remaining fields. `state` may be absent only when PKCE S256 protects a code redirect
 * (`authorizeStateRequired`, docs/decisions/oauth-trust-boundaries.md).
 */
export async function validateAuthorize(services: Services, input: unknown): Promise<AuthorizeRequest> {
  const raw = singleValued(input, AUTHORIZE_PARAMS);
  const missing: Array<{ path: string; message: string }> = (["client_id", "redirect_uri", "response_type"] as const)
    .filter((k) => !raw[k])
    .map((path) => ({ path, message: "is required" }));
  if (!raw.state && authorizeStateRequired(raw, isLoopbackUri(raw.redirect_uri ?? ""))) missing.push({ path: "state", message: STATE_REQUIRED_MESSAGE });
  if (missing.length > 0) throw new SlotgateServerError("ERR_MISSING_PARAMS", { details: missing });
  const client = raw.client_id!.length <= 128 ? await services.clients.get(raw.client_id!) : null;
  if (!client) throw new SlotgateServerError("invalid_client");
  if (!client.redirect_uris.includes(raw.redirect_uri!)) throw new SlotgateServerError("redirect_uri_mismatch");
  if (raw.response_type !== "code") throw new SlotgateServerError("unsupported_response_type");
  const clean = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "")) as Record<string, string>;
  const params = parseInput(authorizeQuerySchema, clean) as AuthorizeQuery;
  if (params.code_challenge && params.code_challenge_method !== "S256") {
    throw new SlotgateServerError("invalid_request", {
      message: "Invalid request: code_challenge_method must be S256 when code_challenge is sent",
      details: [{ path: "code_challenge_method", message: "must be S256" }],
    });
  }
  const mode: AuthorizeMode = isLoopbackUri(params.redirect_uri) ? "loopback" : params.display === "popup" ? "popup" : "page";
  return { params, client, mode };
}

/** Appends query parameters to a redirect URI (with `&` when it already has a query); absent ones (an omitted `state`) are left out. */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return uri + (uri.includes("?") ? "&" : "?") + query;
}
