import type { TransactionReceipt } from "ethers";
import type { ServiceContext } from "../context.js";
import { ChainServiceError, type ChainServiceErrorCode } from "../errors.js";

/** Custom errors of the exchange / XOTN and the service error each one means. */
const REVERT_CODES: Record<string, ChainServiceErrorCode> = {
  InsufficientBalance: "insufficient_balance",
  InsufficientAllowance: "insufficient_allowance",
  InsufficientXotn: "insufficient_balance",
  ReleaseDisabled: "release_disabled",
  UnknownCuid: "provider_not_registered",
  CuidAlreadyRegistered: "cuid_taken",
  NotSlotOwner: "not_owner",
  SlotAlreadyOwned: "not_owner",
};

/** @internal Maps a `chain_reverted` error with a known custom error to its specific code. */
export function specificError(error: unknown): unknown {
  if (error instanceof ChainServiceError && error.code === "chain_reverted") {
    const reason = error.details?.reason;
    const code = typeof reason === "string" ? REVERT_CODES[reason] : undefined;
    if (code) return new ChainServiceError(code, undefined, { cause: error });
  }
  return error;
}

/** @internal Sends an operator transaction to `to` with `data` through the operator's serial queue. */
export async function operatorCall(ctx: ServiceContext, to: string, data: string): Promise<TransactionReceipt> {
  try {
    return await ctx.operator.sendAndWait({ to, data });
  } catch (error) {
    throw specificError(error);
  }
}
