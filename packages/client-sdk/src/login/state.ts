/** Bytes as base64url without padding (RFC 4648 section 5). @internal */
export function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A CSPRNG `state` (also the PKCE `code_verifier`): 32 random bytes as base64url (43 characters). @internal */
export function randomState(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}
