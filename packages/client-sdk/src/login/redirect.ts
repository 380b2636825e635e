import { STORAGE_PREFIX, TOKEN_PATH } from "../constants.js";
import { SlotgateError } from "../errors.js";
import type { ResolvedOptions } from "../options.js";
import { cleanReason } from "./message.js";
import { pkceChallenge } from "./pkce.js";
import { authorizeUrl } from "./popup.js";
import { randomState } from "./state.js";

/** sessionStorage key of the redirect in flight: `{ state, verifier }`, this tab only, removed when read. @internal */
export const PENDING_REDIRECT_KEY = `${STORAGE_PREFIX}redirect`;

/** The query parameters the service's redirect adds, removed from the address bar once read. @internal */
export const REDIRECT_PARAMS = ["code", "state", "error", "error_description"] as const;

function tabStore(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Makes a PKCE S256 verifier, keeps it with the `state` in this tab's sessionStorage and returns the authorize
 * URL to navigate to. @internal
 */
export async function startRedirect(options: ResolvedOptions, state: string): Promise<string> {
  const verifier = randomState();
  const store = tabStore();
  if (!store) throw new SlotgateError("invalid_options", "the redirect mode needs sessionStorage; use login() (the popup) here");
  store.setItem(PENDING_REDIRECT_KEY, JSON.stringify({ state, verifier }));
  return authorizeUrl(options, state, { code_challenge: await pkceChallenge(verifier), code_challenge_method: "S256" });
}

/**
 * Reads the service's redirect on `url`: null when it carries no `code` or `error`; else checks `state` against
 * the redirect this tab started (once: the pending entry is removed), then redeems the code with the verifier
 * at `POST /oauth/token` (form-encoded, so no CORS preflight) and returns the user JWT. Every failure is
 * `login_failed` with a reason: `state_mismatch`, the service's `error` (e.g. `access_denied`), the token
 * endpoint's error code (e.g. `invalid_grant`) or `network_error`. @internal
 */
export async function finishRedirect(options: ResolvedOptions, url: URL): Promise<string | null> {
  const query = url.searchParams;
  const code = query.get("code");
  const error = query.get("error");
  if (!code && !error) return null;
  const store = tabStore();
  const raw = store?.getItem(PENDING_REDIRECT_KEY);
  store?.removeItem(PENDING_REDIRECT_KEY);
  let pending: { state?: unknown; verifier?: unknown } | undefined;
  try {
    pending = raw ? JSON.parse(raw) : undefined;
  } catch {}
  if (typeof pending?.verifier !== "string" || pending.state !== query.get("state")) throw new SlotgateError("login_failed", "state_mismatch");
  if (error || !code) throw new SlotgateError("login_failed", cleanReason(error ?? ""));
  let answer: { access_token?: unknown; error?: unknown } = {};
  let status = 0;
  try {
    const res = await (options.fetch ?? globalThis.fetch)(options.baseUrl + TOKEN_PATH, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: options.redirectUri,
        client_id: options.clientId,
        code_verifier: pending.verifier,
      }),
    });
    status = res.status;
    answer = await res.json();
  } catch {}
  if (typeof answer.access_token === "string" && status === 200) return answer.access_token;
  throw new SlotgateError("login_failed", status === 0 ? "network_error" : cleanReason(String(answer.error ?? `http_${status}`)));
}
