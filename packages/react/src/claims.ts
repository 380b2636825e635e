/**
 * The signed-in user as the browser may know them: the user JWT's claims, read without verifying the signature
 * (your backend and the service verify it on every call).
 *
 * @example
 * ```tsx
 * const { user } = useSlotgate();
 * return user ? <p>Player {user.id}</p> : null;
 * ```
 */
export interface SlotgateUser {
  /** The player's user id (the JWT's `sub`). */
  id: string;
  /** When the JWT expires, in seconds since the epoch (`exp`). */
  expiresAt: number;
}

/** The user of a compact JWT, or null when its payload has no string `sub` and numeric `exp`. @internal */
export function userOf(jwt: string | null): SlotgateUser | null {
  const payload = jwt?.split(".")[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(base64 + "===".slice((base64.length + 3) % 4))) as { sub?: unknown; exp?: unknown };
    return typeof claims.sub === "string" && typeof claims.exp === "number" ? { id: claims.sub, expiresAt: claims.exp } : null;
  } catch {
    return null;
  }
}
