/**
 * Opens a popup centred over the current window. Must run synchronously inside the user's click, or the
 * browser's popup blocker refuses it. Returns null when blocked. Shared by the login and the wallet window.
 * @internal
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
