import { type AuthorizeQuery, loopbackJwtRedirect, redirectUriAllowed } from "@slotgate/protocol";
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
 * How the result is delivered: `page` redirects with a code (web clients, a public client's loopback
 * redirect), `loopback` redirects a confidential desktop or game client's loopback URI with the user JWT
 * (`loopbackJwtRedirect`), `popup` posts the user JWT to the opener.
 */
export type AuthorizeMode = "page" | "popup" | "loopback";

/** A validated authorize request. */
export interface AuthorizeRequest {
  params: AuthorizeQuery;
  client: ClientRow;
  mode: AuthorizeMode;
}

/**
 * Validates authorize parameters in the contract's order: ERR_MISSING_PARAMS, invalid_client,
 * redirect_uri_mismatch (never redirecting to an unregistered URI), unsupported_response_type,
 * then the remaining fields. `state` may be absent only when PKCE S256 protects a code redirect
 * (`authorizeStateRequired`, docs/decisions/oauth-trust-boundaries.md).
 *
 * A public client (`token_endpoint_auth_method: "none"`, docs/decisions/game-clients.md) may name any port
 * on its registered loopback IP URIs (RFC 8252 section 7.3), must send PKCE S256, and always gets a code
 * redirect, whatever `display` says. Only a confidential client registered as `desktop` or `game` gets the
 * loopback JWT redirect on its `http://127.0.0.1:{port}/callback` (spec 4.14); a `web` client's URI of that shape
 * is an ordinary redirect URI (a code, or the popup result), since a JWT in a web app's URL would land in browser
 * history, logs and Referer headers (docs/decisions/oauth-trust-boundaries.md).
 */
export async function validateAuthorize(services: Services, input: unknown): Promise<AuthorizeRequest> {
  const raw = singleValued(input, AUTHORIZE_PARAMS);
  const missing: Array<{ path: string; message: string }> = (["client_id", "redirect_uri", "response_type"] as const)
    .filter((k) => !raw[k])
    .map((path) => ({ path, message: "is required" }));
  const client = raw.client_id && raw.client_id.length <= 128 ? await services.clients.get(raw.client_id) : null;
  const publicClient = client !== null && isPublicClient(client);
  const jwtRedirect = client !== null && loopbackJwtRedirect(client, raw.redirect_uri ?? "");
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
  if (params.prompt === "none" && (publicClient || params.display !== "popup" || jwtRedirect)) {
    throw new SlotgateServerError("invalid_request", {
      message: "Invalid request: prompt=none (silent renewal) needs display=popup and a web client's redirect URI; the result is posted to the parent window",
      details: [{ path: "prompt", message: "needs display=popup and a confidential client's redirect URI other than a desktop or game loopback URI" }],
    });
  }
  const mode: AuthorizeMode = publicClient ? "page" : jwtRedirect ? "loopback" : params.display === "popup" ? "popup" : "page";
  return { params, client, mode };
}

/** Appends query parameters to a redirect URI (with `&` when it already has a query); absent ones (an omitted `state`) are left out. */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return uri + (uri.includes("?") ? "&" : "?") + query;
}
