import { AbiCoder, Contract, type ContractRunner, type Provider, type Signer, concat, getBytes } from "ethers";
import { ContractsError } from "../errors.js";
import type { SlotgatePaymasterContract } from "../generated/slotgatePaymaster.js";
import { slotgatePaymasterAbi } from "../generated/slotgatePaymaster.js";
import { requireAddress, requireBytes } from "../validate.js";
import type { UserOperation } from "./user-operation.js";

/** Sponsorship validity of the spec (4.11): five minutes. */
export const DEFAULT_SPONSORSHIP_SECONDS = 300;

const PLACEHOLDER_SIGNATURE = `0x${"00".repeat(65)}`;
const MAX_UINT48 = 2 ** 48 - 1;

/** A paymaster validity window, in Unix seconds. */
export interface SponsorshipWindow {
  /** Last second the sponsorship is valid. */
  validUntil: number;
  /** First second the sponsorship is valid. */
  validAfter: number;
}

/** Options of {@link sponsorUserOperation}. */
export interface SponsorOptions {
  /** The SlotgatePaymaster address. */
  paymaster: string;
  /** The platform's paymaster signer (its address is the paymaster's `verifyingSigner`). */
  signer: Signer;
  /** Provider used to read the paymaster's hash (`getHash` depends on the paymaster's per-sender nonce). */
  runner: ContractRunner;
  /** The window; when omitted, {@link sponsorshipWindow} with `validForSeconds` is used. */
  window?: SponsorshipWindow;
  /** @default 300 (spec: validUntil = now + 5 minutes) */
  validForSeconds?: number;
}

function checkWindow(window: SponsorshipWindow): SponsorshipWindow {
  const ok = (n: number) => Number.isInteger(n) && n >= 0 && n <= MAX_UINT48;
  if (!ok(window.validUntil) || !ok(window.validAfter) || window.validUntil <= window.validAfter) {
    throw new ContractsError("INVALID_ARGUMENT", "validUntil and validAfter must be uint48 seconds with validUntil > validAfter");
  }
  return window;
}

/**
 * The window `validAfter = now`, `validUntil = now + validForSeconds`, where now is the later of the
 * wall clock and the chain's latest block timestamp (an idle development chain lags behind the clock;
 * a time-travelled one runs ahead).
 *
 * @param provider - the chain
 * @param validForSeconds - window length @default 300
 * @returns the window
 *
 * @example
 * ```ts
 * const { validUntil, validAfter } = await sponsorshipWindow(provider);
 * ```
 */
export async function sponsorshipWindow(
  provider: Provider,
  validForSeconds: number = DEFAULT_SPONSORSHIP_SECONDS,
): Promise<SponsorshipWindow> {
  if (!Number.isInteger(validForSeconds) || validForSeconds <= 0) {
    throw new ContractsError("INVALID_ARGUMENT", "validForSeconds must be a positive integer");
  }
  let latest: number;
  try {
    const block = await provider.getBlock("latest");
    latest = block?.timestamp ?? 0;
  } catch (cause) {
    throw new ContractsError("CHAIN_ERROR", "could not read the latest block", { cause });
  }
  const now = Math.max(Math.floor(Date.now() / 1000), latest);
  return checkWindow({ validAfter: now, validUntil: now + validForSeconds });
}

/**
 * `paymasterAndData` = paymaster address ++ abi.encode(uint48 validUntil, uint48 validAfter) ++ signature.
 *
 * @param paymaster - the paymaster address
 * @param window - validity window
 * @param signature - 65-byte signature (or the placeholder while hashing)
 * @returns hex paymasterAndData
 *
 * @example
 * ```ts
 * const data = encodePaymasterAndData(addresses.paymaster, { validUntil, validAfter }, signature);
 * ```
 */
export function encodePaymasterAndData(paymaster: string, window: SponsorshipWindow, signature: string): string {
  const { validUntil, validAfter } = checkWindow(window);
  const encodedWindow = AbiCoder.defaultAbiCoder().encode(["uint48", "uint48"], [validUntil, validAfter]);
  return concat([requireAddress(paymaster, "paymaster"), encodedWindow, requireBytes(signature, "signature")]);
}

/**
 * Sponsors a UserOperation: the platform signer signs the paymaster hash over the operation and a
 * validity window, and the result carries `paymasterAndData`. The hash is read from the paymaster
 * while `paymasterAndData` already has its final length (a 65-byte placeholder signature), then the
 * real signature replaces the placeholder. Sign the operation with the owner only afterwards
 * ({@link signUserOperation}), since the owner's hash covers `paymasterAndData`.
 *
 * @param op - the operation to sponsor (its `signature` is ignored)
 * @param options - paymaster, platform signer, provider and window
 * @returns a copy of `op` with `paymasterAndData` set
 *
 * @example
 * ```ts
 * const sponsored = await sponsorUserOperation(op, {
 *   paymaster: addresses.paymaster,
 *   signer: platformSigner,
 *   runner: provider,
 * });
 * ```
 */
export async function sponsorUserOperation(op: UserOperation, options: SponsorOptions): Promise<UserOperation> {
  const provider = options.runner.provider;
  if (options.window === undefined && provider == null) {
    throw new ContractsError("INVALID_ARGUMENT", "runner has no provider to read the block time from");
  }
  const window =
    options.window === undefined
      ? await sponsorshipWindow(provider as Provider, options.validForSeconds)
      : checkWindow(options.window);
  const placeholder = { ...op, paymasterAndData: encodePaymasterAndData(options.paymaster, window, PLACEHOLDER_SIGNATURE) };
  const paymaster = new Contract(options.paymaster, slotgatePaymasterAbi, options.runner) as unknown as SlotgatePaymasterContract;
  let hash: string;
  try {
    hash = await paymaster.getHash(placeholder, window.validUntil, window.validAfter);
  } catch (cause) {
    throw new ContractsError("CHAIN_ERROR", "could not read the paymaster hash", { cause });
  }
  const signature = await options.signer.signMessage(getBytes(hash));
  return { ...op, paymasterAndData: encodePaymasterAndData(options.paymaster, window, signature) };
}
