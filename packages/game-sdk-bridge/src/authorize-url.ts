import { createHash, randomBytes } from "node:crypto";
import { CALLBACK_PATH, LOOPBACK_HOST } from "./config.js";

/**
 * A fresh CSRF `state`: 32 bytes from the operating system's CSPRNG, base64url (43 characters).
 * @internal
 */
export function createState(): string {
  return randomBytes(32).toString("base64url");
}

/** A PKCE pair (RFC 7636): the secret `verifier` the game keeps, and the `challenge` it sends. @internal */
export interface Pkce {
  /** 32 CSPRNG bytes, base64url: 43 characters of the unreserved set (section 4.1). */
  verifier: string;
  /** BASE64URL(SHA-256(verifier)), sent with `code_challenge_method=S256` (section 4.2). */
  challenge: string;
}

/** A fresh PKCE S256 pair for one login. @internal */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The redirect URI for a bound port, in the one form Slotgate registers. @internal */
export function loopbackRedirectUri(port: number): string {
  return `http://${LOOPBACK_HOST}:${port}${CALLBACK_PATH}`;
}

/**
 * `{SlotgateUrl}/oauth/authorize?client_id&redirect_uri&response_type=code&state&code_challenge&code_challenge_method=S256`
 * (spec 4.2, RFC 7636).
 * @internal
 */
export function buildAuthorizeUrl(input: { slotgateUrl: URL; clientId: string; redirectUri: string; state: string; codeChallenge: string }): string {
  const url = new URL("oauth/authorize", input.slotgateUrl);
  url.searchParams.set("client_id", input.clientId);
  url.searchParams.set("redirect_uri", input.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", input.state);
  url.searchParams.set("code_challenge", input.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.href;
}
