import { getAddress } from "ethers";
import { ContractsError, DEFAULT_MAX_OPERATION_GAS, type SponsorshipPolicy } from "@slotgate/contracts";
import type { SponsorshipSettings } from "../config.js";
import { specificError } from "../chain/revert-error.js";
import { ChainServiceError } from "../errors.js";

// What the platform's paymaster sponsors, checked before it signs (docs/security.md, "Gas
// sponsorship"). Small functions so that any submission path (today's SponsoredOperations, a durable
// intent pipeline) applies the same rules.

/** The resolved sponsorship rules of a running service. */
export interface SponsorshipRules {
  /** Passed to `prepareSponsoredUserOperation`: the per-operation gas cap and the call simulation. */
  policy: Required<SponsorshipPolicy>;
  /** ERC-20 contracts an `erc20_transfer` may move (checksummed), XOTN always among them. */
  allowedTokens: ReadonlySet<string>;
}

/**
 * @internal The rules of a configuration: the gas cap (default {@link DEFAULT_MAX_OPERATION_GAS}) and
 * the token allow-list (XOTN plus `erc20AllowList`). A bad address or cap is `invalid_request`.
 */
export function sponsorshipRules(settings: SponsorshipSettings | undefined, xotn: string): SponsorshipRules {
  const maxOperationGas = settings?.maxOperationGas ?? DEFAULT_MAX_OPERATION_GAS;
  if (typeof maxOperationGas !== "bigint" || maxOperationGas <= 0n) {
    throw new ChainServiceError("invalid_request", "sponsorship.maxOperationGas must be a positive bigint");
  }
  const allowedTokens = new Set([getAddress(xotn)]);
  for (const token of settings?.erc20AllowList ?? []) {
    try {
      allowedTokens.add(getAddress(token));
    } catch (cause) {
      throw new ChainServiceError("invalid_request", "sponsorship.erc20AllowList must hold contract addresses", { cause });
    }
  }
  return { policy: { maxOperationGas, simulate: true }, allowedTokens };
}

/** @internal `erc20_transfer` of a token not on the allow-list is refused before anything is signed. */
export function requireSponsoredToken(rules: SponsorshipRules, token: string): void {
  if (!rules.allowedTokens.has(getAddress(token))) {
    throw new ChainServiceError("sponsorship_refused", "The platform does not sponsor transfers of this token (contract_address is not on the allow-list).");
  }
}

/**
 * @internal The service error of a sponsorship refusal by `@slotgate/contracts`, or undefined for any
 * other error. A call that reverts in simulation is `chain_reverted` with the custom error's name in
 * `details.reason`, or the specific code a known custom error means (`InsufficientXotn` is
 * `insufficient_balance`, as for a call that reverted on chain, without the gas); an operation above the
 * gas cap is `sponsorship_refused`.
 */
export function sponsorshipRefusal(cause: unknown): ChainServiceError | undefined {
  if (!(cause instanceof ContractsError) || cause.code !== "sponsorship_refused") return undefined;
  if (cause.reason === "gas_cap") return new ChainServiceError("sponsorship_refused", cause.message, { cause });
  const reverted = new ChainServiceError("chain_reverted", `the wallet call would revert${cause.reason ? ` (${cause.reason})` : ""}; nothing was sent`, {
    cause,
    details: { reason: cause.reason ?? "unknown" },
  });
  return specificError(reverted) as ChainServiceError;
}
