/** Runtime settings from the environment (read per request, so one build runs against any service). */
export function settings() {
  const need = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set (see examples/nextjs/README.md)`);
    return value;
  };
  const appUrl = need("APP_URL").replace(/\/+$/, "");
  return {
    slotgateUrl: need("SLOTGATE_URL"),
    clientId: need("SLOTGATE_CLIENT_ID"),
    clientSecret: need("SLOTGATE_CLIENT_SECRET"),
    appUrl,
    /** The browser's redirect URI (popup COOP fallback and redirect login); register it for the client. */
    browserRedirectUri: `${appUrl}/auth/callback`,
    /** Where the service POSTs the backend SDK's callback; register it for the client too. */
    callbackUri: `${appUrl}/api/slotgate/callback`,
  };
}
