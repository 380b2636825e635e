import { randomBytes } from "node:crypto";
import { LIMITS } from "@slotgate/protocol";
import { ChainServiceError } from "../errors.js";

const SIZE = LIMITS.keyShareBytes;

function xor3(a: Uint8Array, b: Uint8Array, c: Uint8Array): Buffer {
  if (a.length !== SIZE || b.length !== SIZE || c.length !== SIZE) {
    throw new ChainServiceError("invalid_request", `key shares must be ${SIZE} bytes`);
  }
  const out = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i++) out[i] = (a[i] as number) ^ (b[i] as number) ^ (c[i] as number);
  return out;
}

/** The two stored / returned shares of a split key. */
export interface KeySplit {
  /** 32 random bytes kept by the service (`b_key`). */
  shareServer: Buffer;
  /** key XOR share_pin XOR share_server, handed to the client. */
  shareUser: Buffer;
}

/**
 * Splits an owner private key (spec 4.10 rules 1-4): `share_server` is 32 fresh random bytes and
 * `share_user = key XOR share_pin XOR share_server`. Inputs are not modified; the caller wipes them
 * and, once stored / answered, the result.
 *
 * @example
 * ```ts
 * const { shareServer, shareUser } = splitKey(privateKey, sharePin);
 * ```
 */
export function splitKey(privateKey: Uint8Array, sharePin: Uint8Array): KeySplit {
  const shareServer = randomBytes(SIZE);
  return { shareServer, shareUser: xor3(privateKey, sharePin, shareServer) };
}

/**
 * Restores the owner private key: `share_pin XOR share_server XOR share_user`. The result must be
 * wiped after signing.
 *
 * @example
 * ```ts
 * const key = restoreKey(sharePin, shareServer, shareUser);
 * try { await sign(key); } finally { wipe(key); }
 * ```
 */
export function restoreKey(sharePin: Uint8Array, shareServer: Uint8Array, shareUser: Uint8Array): Buffer {
  return xor3(sharePin, shareServer, shareUser);
}
