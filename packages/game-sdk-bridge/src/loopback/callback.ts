import { timingSafeEqual } from "node:crypto";
import { GameSdkBridgeError } from "../errors.js";

/** How one redirect to `/callback` ended the login: the player's JWT, or the failure to report. @internal */
export type CallbackOutcome = { ok: true; jwt: string } | { ok: false; error: GameSdkBridgeError };

/**
 * What the redirect's query says: an authorization code to redeem with the PKCE verifier (a public
 * client), the JWT itself (a confidential client's loopback redirect, spec 4.14), or a failure. @internal
 */
export type RedirectAnswer = CallbackOutcome | { ok: true; code: string };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_JWT_LENGTH = 16_384;
/** An authorization code as Slotgate issues it (base64url), with room for any unreserved characters. */
const CODE_SHAPE = /^[A-Za-z0-9._~-]{1,512}$/;

/** Whether a value looks like a compact JWT (three base64url segments, at most 16 KiB); the game backend verifies it. */
export function isJwtShaped(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_JWT_LENGTH && JWT_SHAPE.test(value);
}

function sameState(received: string, expected: string): boolean {
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Keeps server-provided text printable and short before it reaches a page or a message. */
function clean(text: string | null, max: number): string {
  if (text === null) return "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const printable = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trim();
  return printable.length > max ? `${printable.slice(0, max)}...` : printable;
}

function fail(code: GameSdkBridgeError["code"], message: string): CallbackOutcome {
  return { ok: false, error: new GameSdkBridgeError(code, message) };
}

/**
 * Interprets the query of a redirect to the loopback `/callback`. The state is
 * checked first, in constant time, so nothing else in an unsolicited request is trusted;
 * then an OAuth error; then exactly one `code` (or, from a confidential client's redirect, one `jwt`).
 * @internal
 */
export function interpretCallback(query: URLSearchParams, expectedState: string): RedirectAnswer {
  const states = query.getAll("state");
  if (states.length !== 1 || !sameState(states[0] ?? "", expectedState)) {
    return fail(
      "state_mismatch",
      "The sign-in response does not belong to this login attempt (missing or wrong state), so it was refused to " +
        "prevent cross-site request forgery. Start the login again.",
    );
  }
  const error = query.get("error");
  if (error !== null) {
    const code = clean(error, 64) || "unknown_error";
    const description = clean(query.get("error_description"), 300);
    const detail = description === "" ? code : `${code}: ${description}`;
    if (code === "access_denied") {
      return fail("access_denied", `Sign-in was declined (${detail}).`);
    }
    return fail("authorization_error", `Slotgate reported an error during sign-in (${detail}).`);
  }
  const codes = query.getAll("code");
  const jwts = query.getAll("jwt");
  if (codes.length > 0 && jwts.length > 0) {
    return fail("missing_jwt", "The sign-in response carried both a code and a jwt; it was refused.");
  }
  if (codes.length > 0) {
    const code = codes[0] ?? "";
    if (codes.length > 1 || !CODE_SHAPE.test(code)) {
      return fail("missing_jwt", "The sign-in response did not carry exactly one well-formed code.");
    }
    return { ok: true, code };
  }
  if (jwts.length === 0 || jwts[0] === "") {
    return fail("missing_jwt", "The sign-in response carried neither a code nor a jwt.");
  }
  const jwt = jwts[0] ?? "";
  if (jwts.length > 1 || !isJwtShaped(jwt)) {
    return fail("missing_jwt", "The sign-in response did not carry exactly one well-formed jwt.");
  }
  return { ok: true, jwt };
}
