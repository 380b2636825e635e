import { AUTHORIZE_PATH } from "../constants.js";
import type { ResolvedOptions } from "../options.js";

/**
 * `{base}/oauth/authorize?client_id&redirect_uri&response_type=code&state` plus `extra`: `display=popup` for
 * the popup, the PKCE challenge for the redirect mode; `ui_locales` when set. @internal
 */
export function authorizeUrl(options: ResolvedOptions, state: string, extra: Record<string, string> = { display: "popup" }): string {
  const query = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: "code",
    state,
    ...extra,
  });
  if (options.uiLocales) query.set("ui_locales", options.uiLocales);
  return `${options.baseUrl}${AUTHORIZE_PATH}?${query}`;
}
