import type { PlatformType } from "./types/dev-user.js";

/**
 * How a client authenticates at the token endpoint (RFC 7591 `token_endpoint_auth_method`), chosen at
 * registration. `client_secret_basic` (the default) is a confidential client: it holds a secret and sends
 * it with HTTP Basic or in the body (`client_secret_post`), as Slotgate has always accepted. `none` is a
 * public native client (a game or desktop build, RFC 8252): it has no secret, redirects only to the
 * loopback interface, and proves each code with PKCE S256 (RFC 7636).
 *
 * @example
 * ```ts
 * import type { TokenEndpointAuthMethod } from "@slotgate/protocol";
 * const method: TokenEndpointAuthMethod = "none";
 * ```
 */
export type TokenEndpointAuthMethod = "client_secret_basic" | "none";

/** `http://127.0.0.1` or `http://[::1]`, an optional port, then the path and query (no fragment). */
const LOOPBACK_IP_URI = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::([0-9]{1,5}))?([/?][^#]*)?$/;

/** A loopback IP redirect URI split at its port: host, port (absent when none is written) and the rest. */
interface LoopbackParts {
  host: string;
  port: number | undefined;
  rest: string;
}

function loopbackParts(uri: string): LoopbackParts | null {
  const match = LOOPBACK_IP_URI.exec(uri);
  if (!match) return null;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return null;
  return { host: match[1]!, port, rest: match[3] ?? "" };
}

/**
 * Whether `uri` is a loopback IP redirect URI of RFC 8252 section 7.3: `http`, the IP literal
 * `127.0.0.1` or `[::1]` (never `localhost`, section 8.3), an optional port from 1 to 65535, any path
 * and query, no user info and no fragment. The only redirect URIs a public client may register.
 *
 * @example
 * ```ts
 * import { isLoopbackIpRedirectUri } from "@slotgate/protocol";
 * isLoopbackIpRedirectUri("http://127.0.0.1/callback"); // true
 * isLoopbackIpRedirectUri("http://[::1]:53682/callback"); // true
 * isLoopbackIpRedirectUri("http://localhost/callback"); // false
 * ```
 */
export function isLoopbackIpRedirectUri(uri: string): boolean {
  return loopbackParts(uri) !== null;
}

/**
 * Whether a client may use `requested` as its redirect URI. Every client's registered URIs match
 * character for character (spec 5.2). A public client's (`token_endpoint_auth_method: "none"`) loopback IP
 * URIs also match the same URI with any port (RFC 8252 section 7.3): the game listens on the port the
 * operating system gives it and names that port in the request; PKCE, not the port, protects its code.
 * Confidential clients never get the port rule.
 *
 * @param client - the registered `redirect_uris` and `token_endpoint_auth_method` (absent: confidential)
 * @param requested - the `redirect_uri` of the request
 * @example
 * ```ts
 * import { redirectUriAllowed } from "@slotgate/protocol";
 * const game = { redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" as const };
 * redirectUriAllowed(game, "http://127.0.0.1:53682/callback"); // true
 * redirectUriAllowed(game, "http://127.0.0.1:53682/other"); // false
 * redirectUriAllowed({ redirect_uris: ["http://127.0.0.1:7777/callback"] }, "http://127.0.0.1:7778/callback"); // false
 * ```
 */
export function redirectUriAllowed(
  client: { redirect_uris: readonly string[]; token_endpoint_auth_method?: TokenEndpointAuthMethod | undefined },
  requested: string,
): boolean {
  if (client.redirect_uris.includes(requested)) return true;
  if (client.token_endpoint_auth_method !== "none") return false;
  const wanted = loopbackParts(requested);
  if (wanted === null) return false;
  return client.redirect_uris.some((uri) => {
    const registered = loopbackParts(uri);
    return registered !== null && registered.host === wanted.host && registered.rest === wanted.rest;
  });
}

/** The loopback redirect of the native login of spec 4.14: `http://127.0.0.1:{port}/callback` or `http://[::1]:{port}/callback`. */
const NATIVE_LOOPBACK_URI = /^http:\/\/(127\.0\.0\.1|\[::1\]):[0-9]{1,5}\/callback$/;

/**
 * Whether an approved authorize request redirects to `redirectUri` with the user JWT in the query (`jwt`,
 * `state`): the loopback login of a native desktop or game build (spec 4.14, RFC 8252). Only a confidential
 * client registered with `platform` `desktop` or `game` gets it, and only on a redirect URI of the form
 * `http://127.0.0.1:{port}/callback` (or `[::1]`). A `web` client's URI of that shape (a web app run locally) is
 * an ordinary redirect URI: a code, or the popup result, as for any web client; a public client
 * (`token_endpoint_auth_method: "none"`) always gets a code bound to its PKCE challenge
 * (docs/decisions/oauth-trust-boundaries.md, docs/decisions/game-clients.md).
 *
 * @param client - the registered `platform` and `token_endpoint_auth_method` (absent: confidential)
 * @param redirectUri - the `redirect_uri` of the request
 * @example
 * ```ts
 * import { loopbackJwtRedirect } from "@slotgate/protocol";
 * loopbackJwtRedirect({ platform: "game" }, "http://127.0.0.1:7777/callback"); // true
 * loopbackJwtRedirect({ platform: "web" }, "http://127.0.0.1:3000/callback"); // false: a code or the popup result
 * loopbackJwtRedirect({ platform: "game", token_endpoint_auth_method: "none" }, "http://127.0.0.1:7777/callback"); // false: a code
 * ```
 */
export function loopbackJwtRedirect(
  client: { platform: PlatformType; token_endpoint_auth_method?: TokenEndpointAuthMethod | undefined },
  redirectUri: string,
): boolean {
  if (client.platform !== "desktop" && client.platform !== "game") return false;
  return client.token_endpoint_auth_method !== "none" && NATIVE_LOOPBACK_URI.test(redirectUri);
}
