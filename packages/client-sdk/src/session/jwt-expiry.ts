/**
 * Reads the `exp` claim (seconds) of a compact JWT without verifying it: the browser only decides whether
 * to show the user as logged in; the service verifies the signature on every call. @internal
 */
export function readExpiry(jwt: string): number | undefined {
  const payload = jwt.split(".")[1];
  if (!payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const exp: unknown = JSON.parse(atob(base64 + "===".slice((base64.length + 3) % 4))).exp;
    return typeof exp === "number" && Number.isFinite(exp) ? exp : undefined;
  } catch {
    return undefined;
  }
}
