import { type AuthorizeQuery, redirectUriAllowed } from "@slotgate/protocol";
import { authorizeQuerySchema, authorizeStateRequired, STATE_REQUIRED_MESSAGE } from "@slotgate/protocol/schemas";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { parseInput, singleValued } from "../../platform/http/input.js";
import type { ClientRow } from "../clients/clients-store.js";
import { isPublicClient } from "../clients/client-auth.js";

/** The authorize parameters carried through the sign-in form. */
const AUTHORIZE_PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "display",
  "prompt",
  "code_challenge",
  "code_challenge_method",
  "ui_locales",
] as const;

/**
 * How the result is delivered: `page` redirects with a code (web backends, and a public client's loopback
 * redirect), `loopback` redirects a confidential client's loopback URI with the user JWT, `popup` posts
 * the user JWT to the opener.
 */
export type AuthorizeMode = "page" | "popup" | "loopback";

/** A validated authorize request. */
export interface AuthorizeRequest {
  params: AuthorizeQuery;
  client: ClientRow;
  mode: AuthorizeMode;
}

/** Whether a URI is an RFC 8252 loopback redirect (`http://127.0.0.1:{port}/callback` or `[::1]`). */
function isLoopbackUri(uri: string): boolean {
  return /^http:\/\/(127\.0\.0\.1|\[::1\]):[0-9]{1,5}\/callback$/.test(uri);
}

/**
 * Validates authorize parameters in the contract's order: ERR_MISSING_PARAMS, invalid_client,
 * redirect_uri_mismatch (never redirecting to an unregistered URI), unsupported_response_type,
 * then the remaining fields. `state` may be absent only when PKCE S256 protects a code redirect
 * (`authorizeStateRequired`, docs/decisions/oauth-trust-boundaries.md).
 *
 * A public client (`token_endpoint_auth_method: "none"`, docs/decisions/game-clients.md) may name any port
 * on its registered loopback IP URIs (RFC 8252 section 7.3), must send PKCE S256, and always gets a code
 * redirect, whatever `display` says.
 */
export async function validateAuthorize(services: Services, input: unknown): Promise<AuthorizeRequest> {
  const raw = singleValued(input, AUTHORIZE_PARAMS);
  const missing: Array<{ path: string; message: string }> = (["client_id", "redirect_uri", "response_type"] as const)
    .filter((k) => !raw[k])
    .map((path) => ({ path, message: "is required" }));
  const client = raw.client_id && raw.client_id.length <= 128 ? await services.clients.get(raw.client_id) : null;
  const publicClient = client !== null && isPublicClient(client);
  const jwtRedirect = isLoopbackUri(raw.redirect_uri ?? "") && !publicClient;
  if (!raw.state && authorizeStateRequired(raw, jwtRedirect)) missing.push({ path: "state", message: STATE_REQUIRED_MESSAGE });
  if (missing.length > 0) throw new SlotgateServerError("ERR_MISSING_PARAMS", { details: missing });
  if (!client) throw new SlotgateServerError("invalid_client");
  if (!redirectUriAllowed(client, raw.redirect_uri!)) throw new SlotgateServerError("redirect_uri_mismatch");
  if (raw.response_type !== "code") throw new SlotgateServerError("unsupported_response_type");
  const clean = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "")) as Record<string, string>;
  const params = parseInput(authorizeQuerySchema, clean) as AuthorizeQuery;
  if (params.code_challenge && params.code_challenge_method !== "S256") {
    throw new SlotgateServerError("invalid_request", {
      message: "Invalid request: code_challenge_method must be S256 when code_challenge is sent",
      details: [{ path: "code_challenge_method", message: "must be S256" }],
    });
  }
  if (publicClient && !params.code_challenge) {
    throw new SlotgateServerError("invalid_request", {
      message:
        "Invalid request: this client is public (no secret), so it must send PKCE: code_challenge = BASE64URL(SHA-256(code_verifier)) with code_challenge_method=S256 (RFC 7636), and the code_verifier when it redeems the code",
      details: [{ path: "code_challenge", message: "is required for a public client (PKCE S256)" }],
    });
  }
  if (params.prompt === "none" && (publicClient || params.display !== "popup" || isLoopbackUri(params.redirect_uri))) {
    throw new SlotgateServerError("invalid_request", {
      message: "Invalid request: prompt=none (silent renewal) needs display=popup and a web client's redirect URI; the result is posted to the parent window",
      details: [{ path: "prompt", message: "needs display=popup and a non-loopback redirect URI of a confidential client" }],
    });
  }
  const mode: AuthorizeMode = publicClient ? "page" : isLoopbackUri(params.redirect_uri) ? "loopback" : params.display === "popup" ? "popup" : "page";
  return { params, client, mode };
}

/** Appends query parameters to a redirect URI (with `&` when it already has a query); absent ones (an omitted `state`) are left out. */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return uri + (uri.includes("?") ? "&" : "?") + query;
}
