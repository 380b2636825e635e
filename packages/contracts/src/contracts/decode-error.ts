import { type ErrorDescription, Interface, isCallException } from "ethers";
import { contentTokenExchangeAbi } from "../generated/contentTokenExchange.js";
import { entryPointAbi } from "../generated/entryPoint.js";
import { slotgateAccountAbi } from "../generated/slotgateAccount.js";
import { slotgatePaymasterAbi } from "../generated/slotgatePaymaster.js";
import { xotnAbi } from "../generated/xotn.js";

/** A custom error (or a `require` message, as `Error(string)`, or a `Panic(uint256)`) decoded from revert data. */
export interface DecodedContractError {
  /** The error's name, e.g. `InsufficientBalance` or `FailedOp`. */
  name: string;
  /** Its full signature, e.g. `InsufficientBalance(address,uint256,uint256)`. */
  signature: string;
  /** Decoded arguments in order. */
  args: readonly unknown[];
}

let combined: Interface | undefined;

function errorInterface(): Interface {
  if (combined === undefined) {
    const seen = new Set<string>();
    const fragments = [xotnAbi, contentTokenExchangeAbi, slotgateAccountAbi, slotgatePaymasterAbi, entryPointAbi]
      .flat()
      .filter((entry) => entry.type === "error")
      .filter((entry) => {
        const key = `${entry.name}(${entry.inputs.map((input) => input.type).join(",")})`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    combined = new Interface(fragments);
  }
  return combined;
}

function revertDataOf(error: unknown): string | undefined {
  if (typeof error === "string") return error;
  if (isCallException(error) && typeof error.data === "string") return error.data;
  if (typeof error === "object" && error !== null) {
    const candidate = error as { data?: unknown; error?: unknown; info?: { error?: unknown } };
    if (typeof candidate.data === "string" && candidate.data.startsWith("0x")) return candidate.data;
    if (typeof candidate.data === "object" && candidate.data !== null) return revertDataOf(candidate.data);
    if (candidate.error !== undefined) return revertDataOf(candidate.error);
    if (candidate.info?.error !== undefined) return revertDataOf(candidate.info.error);
  }
  return undefined;
}

/**
 * Decodes a Slotgate or EntryPoint custom error from a thrown ethers error or from raw revert data.
 * A `require` string comes back as `{ name: "Error", args: [message] }`, a panic as `Panic`.
 * Returns `undefined` when the data is not one of these.
 *
 * @param error - an error thrown by an ethers call, or revert data as a hex string
 * @returns the decoded error, or `undefined`
 *
 * @example
 * ```ts
 * try {
 *   await exchange.increase_used(slot, "game-1", 10n);
 * } catch (error) {
 *   const decoded = decodeContractError(error);
 *   if (decoded?.name === "InsufficientBalance") console.log("balance short");
 * }
 * ```
 */
export function decodeContractError(error: unknown): DecodedContractError | undefined {
  const data = revertDataOf(error);
  if (data === undefined || data.length < 10) return undefined;
  let parsed: ErrorDescription | null;
  try {
    parsed = errorInterface().parseError(data);
  } catch {
    return undefined;
  }
  if (parsed === null) return undefined;
  return { name: parsed.name, signature: parsed.signature, args: [...parsed.args] };
}
