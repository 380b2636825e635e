import { GameSdkBridgeError } from "../errors.js";
import { postForm } from "../post-form.js";
import { isJwtShaped } from "./callback.js";

/** What redeeming the loopback redirect's code needs. @internal */
export interface CodeRedemption {
  fetch: typeof fetch;
  slotgateUrl: URL;
  clientId: string;
  code: string;
  /** The redirect URI of the authorize request, port included, character for character. */
  redirectUri: string;
  /** The PKCE verifier whose S256 challenge the authorize request carried. */
  verifier: string;
  signal: AbortSignal | undefined;
}

/**
 * Redeems an authorization code at `{SlotgateUrl}/oauth/token` as a public client (RFC 8252 section 8.4):
 * `client_id` and the PKCE `code_verifier`, no secret. Answers the player's JWT (`access_token`).
 * A client Slotgate does not know as public is `invalid_config`; a refused code (`invalid_grant`: expired,
 * used, or a verifier that does not match) `authorization_error`; no JWT in the answer `missing_jwt`.
 * @internal
 */
export async function redeemCode(input: CodeRedemption): Promise<string> {
  const answer = await postForm(
    input.fetch,
    new URL("oauth/token", input.slotgateUrl),
    { grant_type: "authorization_code", code: input.code, redirect_uri: input.redirectUri, client_id: input.clientId, code_verifier: input.verifier },
    input.signal,
  );
  if (answer.ok) {
    const token = answer.body["access_token"];
    if (!isJwtShaped(token)) throw new GameSdkBridgeError("missing_jwt", "The token answer carried no well-formed JWT.");
    return token;
  }
  const detail = `(${answer.error ?? "error"}): ${answer.description ?? "no description"}`;
  if (answer.error === "invalid_client" || answer.error === "unauthorized_client" || answer.error === "redirect_uri_mismatch") {
    throw new GameSdkBridgeError(
      "invalid_config",
      `Slotgate refused to redeem the sign-in code for this client ${detail}. Register the game as a public client (no secret, loopback redirect URI http://127.0.0.1/callback).`,
    );
  }
  throw new GameSdkBridgeError("authorization_error", `Slotgate refused the sign-in code ${detail}`);
}
