import { pbkdf2 } from "node:crypto";
import { availableParallelism } from "node:os";
import { LIMITS } from "@slotgate/protocol";
import { ChainServiceError } from "../errors.js";

/**
 * The fixed, service-wide PBKDF2 salt string of `share_pin` (spec 4.10 rule 2). Configurable through
 * `ChainServiceConfig.pinPbkdf2Salt`; changing it invalidates every stored key split.
 */
export const DEFAULT_PIN_PBKDF2_SALT = "slotgate/share_pin/v1";

/** Options of {@link deriveSharePin}. */
export interface SharePinOptions {
  /** @default {@link DEFAULT_PIN_PBKDF2_SALT} */
  salt?: string;
  /** @default 100000 (`LIMITS.pbkdf2Iterations`) */
  iterations?: number;
}

const HEX_32 = /^[0-9a-fA-F]{64}$/;

/**
 * Derives `share_pin` = PBKDF2-SHA256(pin_hash, salt, 100000 iterations, 32 bytes). The password is the
 * 32 raw bytes of the hex `pin_hash` (case-insensitive). Runs on libuv's thread pool (async
 * `node:crypto.pbkdf2`), so it never blocks the event loop, and at most (cores - 1, at least 1)
 * derivations run at once, so it never starves it either. The caller owns the result and must
 * zero-fill it (`fill(0)`) when done.
 *
 * @param pinHashHex - SHA-256 of the PIN and its salt, 64 hex characters
 * @param options - salt string and iteration count
 * @returns 32 bytes
 *
 * @example
 * ```ts
 * const sharePin = await deriveSharePin(pin_hash);
 * try { use(sharePin); } finally { wipe(sharePin); }
 * ```
 */
export async function deriveSharePin(pinHashHex: string, options: SharePinOptions = {}): Promise<Buffer> {
  if (typeof pinHashHex !== "string" || !HEX_32.test(pinHashHex)) {
    throw new ChainServiceError("invalid_request", "pin_hash must be 64 hex characters");
  }
  await derivationSlot();
  const password = Buffer.from(pinHashHex, "hex");
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      pbkdf2(
        password,
        options.salt ?? DEFAULT_PIN_PBKDF2_SALT,
        options.iterations ?? LIMITS.pbkdf2Iterations,
        LIMITS.keyShareBytes,
        LIMITS.pbkdf2Digest,
        (error, key) => (error ? reject(error) : resolve(key)),
      );
    });
  } finally {
    password.fill(0);
    releaseDerivationSlot();
  }
}

/**
 * At most this many PBKDF2 derivations run at once in the process: one core is left to the event loop.
 * libuv's pool has 4 threads; four 100,000-iteration derivations on a 2-core machine otherwise take the
 * CPU from the event loop and every other request of the server waits behind them.
 */
const MAX_DERIVATIONS = Math.max(1, availableParallelism() - 1);
let derivations = 0;
const waiting: Array<() => void> = [];

function derivationSlot(): Promise<void> {
  if (derivations < MAX_DERIVATIONS) {
    derivations += 1;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function releaseDerivationSlot(): void {
  const next = waiting.shift();
  if (next)
    next(); // the slot passes on directly
  else derivations -= 1;
}

/** @internal PBKDF2 derivations waiting for a slot in this process (the `/metrics` queue length). */
export function pendingDerivations(): number {
  return waiting.length;
}
