import { getAddress, isHexString } from "ethers";
import { ContractsError } from "./errors.js";

/** @internal Checksums `value` or throws `INVALID_ARGUMENT` naming `what` (never echoing the value). */
export function requireAddress(value: string, what: string): string {
  try {
    return getAddress(value);
  } catch (cause) {
    throw new ContractsError("INVALID_ARGUMENT", `${what} is not an address`, { cause });
  }
}

/** @internal Returns `value` when it is a bigint >= 0, else throws `INVALID_ARGUMENT`. */
export function requireNonNegative(value: bigint, what: string): bigint {
  if (typeof value !== "bigint" || value < 0n) {
    throw new ContractsError("INVALID_ARGUMENT", `${what} must be a non-negative bigint`);
  }
  return value;
}

/** @internal Returns `value` (default `0x`) when it is 0x-prefixed whole bytes, else throws `INVALID_ARGUMENT`. */
export function requireBytes(value: string | undefined, what: string): string {
  const result = value ?? "0x";
  if (!isHexString(result) || result.length % 2 !== 0) {
    throw new ContractsError("INVALID_ARGUMENT", `${what} must be 0x-prefixed hex bytes`);
  }
  return result;
}
