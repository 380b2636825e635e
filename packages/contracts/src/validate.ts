import { getAddress, isHexString } from "ethers";
import { ContractsError } from "./errors.js";

/** @internal Checksums `value` or throws `invalid_argument` naming `what` (never echoing the value). */
export function requireAddress(value: string, what: string): string {
  try {
    return getAddress(value);
  } catch (cause) {
    throw new ContractsError("invalid_argument", `${what} is not an address`, { cause });
  }
}

/** @internal Returns `value` when it is a bigint >= 0, else throws `invalid_argument`. */
export function requireNonNegative(value: bigint, what: string): bigint {
  if (typeof value !== "bigint" || value < 0n) {
    throw new ContractsError("invalid_argument", `${what} must be a non-negative bigint`);
  }
  return value;
}

/** @internal Returns `value` (default `0x`) when it is 0x-prefixed whole bytes, else throws `invalid_argument`. */
export function requireBytes(value: string | undefined, what: string): string {
  const result = value ?? "0x";
  if (!isHexString(result) || result.length % 2 !== 0) {
    throw new ContractsError("invalid_argument", `${what} must be 0x-prefixed hex bytes`);
  }
  return result;
}
