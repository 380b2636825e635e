import { decodeContractError } from "@slotgate/contracts";
import { ChainServiceError, type ChainServiceErrorCode } from "../errors.js";

/** Custom errors of the exchange / XOTN and the service error each one means. */
const REVERT_CODES: Record<string, ChainServiceErrorCode> = {
  InsufficientBalance: "insufficient_balance",
  InsufficientAllowance: "insufficient_allowance",
  InsufficientPurchaseAllowance: "insufficient_allowance",
  InsufficientXotn: "insufficient_balance",
  ReleaseDisabled: "release_disabled",
  UnknownCuid: "provider_not_registered",
  CuidAlreadyRegistered: "cuid_taken",
  NotSlotOwner: "not_owner",
  SlotAlreadyOwned: "not_owner",
};

/** @internal Maps an ethers error to `chain_reverted` (with the custom error name) or `chain_unavailable`. */
export function revertError(cause: unknown): ChainServiceError {
  if (cause instanceof ChainServiceError) return cause;
  const decoded = decodeContractError(cause);
  if (decoded !== undefined) {
    return new ChainServiceError("chain_reverted", `the blockchain rejected the transaction (${decoded.name})`, {
      cause,
      details: { reason: decoded.name },
    });
  }
  const code = (cause as { code?: unknown })?.code;
  if (code === "CALL_EXCEPTION") return new ChainServiceError("chain_reverted", undefined, { cause });
  return new ChainServiceError("chain_unavailable", undefined, { cause });
}

/** @internal Maps a `chain_reverted` error with a known custom error to its specific code. */
export function specificError(error: unknown): unknown {
  if (error instanceof ChainServiceError && error.code === "chain_reverted") {
    const reason = error.details?.reason;
    const code = typeof reason === "string" ? REVERT_CODES[reason] : undefined;
    if (code) return new ChainServiceError(code, undefined, { cause: error });
  }
  return error;
}
