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

/**
 * Opens the popup centred over the current window. Must run synchronously inside the user's click, or the
 * browser's popup blocker refuses it. Returns null when blocked. @internal
 */
export function openPopup(url: string, width: number, height: number): Window | null {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  try {
    const popup = window.open(url, "_blank", `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
    return popup && !popup.closed ? popup : null;
  } catch {
    return null; // e.g. a sandboxed iframe without allow-popups
  }
}
