import { base64url } from "./state.js";

/** RFC 7636 S256: `code_challenge` = BASE64URL(SHA-256(ASCII(code_verifier))). @internal */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}
