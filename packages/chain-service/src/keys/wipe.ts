/**
 * Overwrites every buffer with zeros. Call it in a `finally` on every path that held key material.
 *
 * @example
 * ```ts
 * const key = restoreKey(sharePin, shareServer, shareUser);
 * try { sign(key); } finally { wipe(key, sharePin, shareServer, shareUser); }
 * ```
 */
export function wipe(...buffers: (Uint8Array | null | undefined)[]): void {
  for (const buffer of buffers) buffer?.fill(0);
}
