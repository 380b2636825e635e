import { randomBytes } from "node:crypto";
import { CALLBACK_PATH, LOOPBACK_HOST } from "./config.js";

/**
 * A fresh CSRF `state`: 32 bytes from the operating system's CSPRNG, base64url (43 characters).
 * @internal
 */
export function createState(): string {
  return randomBytes(32).toString("base64url");
}

/** The redirect URI for a bound port, in the one form Slotgate registers. @internal */
export function loopbackRedirectUri(port: number): string {
  return `http://${LOOPBACK_HOST}:${port}${CALLBACK_PATH}`;
}

/**
 * `{SlotgateUrl}/oauth/authorize?client_id&redirect_uri&response_type=code&state` (spec 4.2).
 * @internal
 */
export function buildAuthorizeUrl(input: {
  slotgateUrl: URL;
  clientId: string;
  redirectUri: string;
  state: string;
}): string {
  const url = new URL("oauth/authorize", input.slotgateUrl);
  url.searchParams.set("client_id", input.clientId);
  url.searchParams.set("redirect_uri", input.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", input.state);
  return url.href;
}
