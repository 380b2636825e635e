import { timingSafeEqual } from "node:crypto";
import { GameSdkBridgeError } from "../errors.js";

/** What one redirect to `/callback` means for the login. @internal */
export type CallbackOutcome = { ok: true; jwt: string } | { ok: false; error: GameSdkBridgeError };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_JWT_LENGTH = 16_384;

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
 * checked first, in constant time, so nothing else in an unsolicited request is trusted.
 * @internal
 */
export function interpretCallback(query: URLSearchParams, expectedState: string): CallbackOutcome {
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
  const jwts = query.getAll("jwt");
  if (jwts.length === 0 || jwts[0] === "") {
    if (query.has("code")) {
      return fail(
        "missing_jwt",
        "The sign-in response carried an authorization code instead of a jwt. Register the redirect URI as a loopback " +
          "URI (http://127.0.0.1:<port>/callback) for this client; a game build never exchanges codes, it has no secret.",
      );
    }
    return fail("missing_jwt", "The sign-in response carried no jwt.");
  }
  const jwt = jwts[0] ?? "";
  if (jwts.length > 1 || !isJwtShaped(jwt)) {
    return fail("missing_jwt", "The sign-in response did not carry exactly one well-formed jwt.");
  }
  return { ok: true, jwt };
}
