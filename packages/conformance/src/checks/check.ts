import type { ConformanceContext } from "../context.js";

/** One conformance check: throws (an assertion error) when the target breaks the contract. */
export type Check = (ctx: ConformanceContext) => Promise<void>;

/** A named list of checks of one feature; the key is the test title. */
export type CheckGroup = Record<string, Check>;

/** A random PKCE verifier (RFC 7636, 43+ unreserved characters). */
export function pkceVerifier(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString("base64url");
}

/** The S256 challenge of a verifier. */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString("base64url");
}

/** Waits a little, for negative checks of asynchronous effects (no callback arrives). */
export function settle(ms = 300): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Query parameters of a redirect's Location. */
export function locationParams(response: Response): URLSearchParams {
  const location = response.headers.get("location");
  if (!location) throw new Error(`expected a Location header (status ${response.status})`);
  return new URL(location).searchParams;
}
