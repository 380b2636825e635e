import { AbiCoder, type Provider, type Signer, concat, getBytes, keccak256 } from "ethers";
import { ContractsError } from "../errors.js";
import { requireAddress, requireBytes, requireNonNegative } from "../validate.js";
import type { UserOperation } from "./user-operation.js";

/** Sponsorship validity of the spec (4.11): five minutes. */
export const DEFAULT_SPONSORSHIP_SECONDS = 300;

/**
 * How far before "now" a sponsorship window starts: a node that simulates at the latest block's time,
 * or an L2 whose block timestamps lag the wall clock, must already see the sponsorship as due
 * (otherwise the EntryPoint answers `AA32 paymaster expired or not due`).
 */
export const SPONSORSHIP_START_LEEWAY_SECONDS = 60;

const MAX_UINT48 = 2 ** 48 - 1;

/** A paymaster validity window, in Unix seconds. */
export interface SponsorshipWindow {
  /** Last second the sponsorship is valid. */
  validUntil: number;
  /** First second the sponsorship is valid. */
  validAfter: number;
}

function checkWindow(window: SponsorshipWindow): SponsorshipWindow {
  const ok = (n: number) => Number.isInteger(n) && n >= 0 && n <= MAX_UINT48;
  if (!ok(window.validUntil) || !ok(window.validAfter) || window.validUntil <= window.validAfter) {
    throw new ContractsError("invalid_argument", "validUntil and validAfter must be uint48 seconds with validUntil > validAfter");
  }
  return window;
}

/**
 * The window `validUntil = now + validForSeconds`, where now is the later of the wall clock and the
 * chain's latest block timestamp (a time-travelled chain runs ahead), and `validAfter` =
 * {@link SPONSORSHIP_START_LEEWAY_SECONDS} before the earlier of the two (an idle chain, a node that
 * estimates at the latest block, or an L2 whose timestamps lag, are behind the clock). Starting in the
 * past only makes the signature valid sooner; the end still bounds it.
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
export async function sponsorshipWindow(provider: Provider, validForSeconds: number = DEFAULT_SPONSORSHIP_SECONDS): Promise<SponsorshipWindow> {
  if (!Number.isInteger(validForSeconds) || validForSeconds <= 0) {
    throw new ContractsError("invalid_argument", "validForSeconds must be a positive integer");
  }
  let latest: number;
  try {
    const block = await provider.getBlock("latest");
    latest = block?.timestamp ?? 0;
  } catch (cause) {
    throw new ContractsError("chain_error", "could not read the latest block", { cause });
  }
  const clock = Math.floor(Date.now() / 1000);
  const now = Math.max(clock, latest);
  const validAfter = Math.max(0, Math.min(clock, latest) - SPONSORSHIP_START_LEEWAY_SECONDS);
  return checkWindow({ validAfter, validUntil: now + validForSeconds });
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

/** What the paymaster's hash of an operation covers besides the operation. */
export interface PaymasterHashInput {
  /** The SlotgatePaymaster address. */
  paymaster: string;
  /** The chain id. */
  chainId: bigint;
  /**
   * The paymaster's `senderNonce[sender]` when this operation validates: the on-chain value for a
   * wallet with nothing in flight, plus one per operation of the wallet queued before this one.
   */
  paymasterNonce: bigint;
  /** The validity window. */
  window: SponsorshipWindow;
}

/**
 * SlotgatePaymaster's `getHash(userOp, validUntil, validAfter)` computed off-chain for a given
 * paymaster nonce. The on-chain view reads the current `senderNonce[sender]`, which is wrong for an
 * operation queued behind others of the same wallet; computing the hash here lets several operations
 * of one wallet be sponsored before the first one lands, and costs no RPC call. The hash covers the
 * operation's fields (its byte fields as keccak256), not its calldata encoding:
 * keccak256(abi.encode(keccak256(abi.encode(sender, nonce, keccak256(initCode), keccak256(callData),
 * callGasLimit, verificationGasLimit, preVerificationGas, maxFeePerGas, maxPriorityFeePerGas)),
 * chainId, paymaster, paymasterNonce, validUntil, validAfter)). `paymasterAndData` and `signature`
 * are not covered.
 *
 * @param op - the operation
 * @param input - paymaster, chain id, paymaster nonce and window
 * @returns the 32-byte hash as hex
 *
 * @example
 * ```ts
 * const hash = paymasterHash(op, { paymaster: addresses.paymaster, chainId: 31337n, paymasterNonce: 0n, window });
 * ```
 */
export function paymasterHash(op: UserOperation, input: PaymasterHashInput): string {
  const { validUntil, validAfter } = checkWindow(input.window);
  const coder = AbiCoder.defaultAbiCoder();
  const fields = keccak256(
    coder.encode(
      ["address", "uint256", "bytes32", "bytes32", "uint256", "uint256", "uint256", "uint256", "uint256"],
      [
        requireAddress(op.sender, "sender"),
        op.nonce,
        keccak256(requireBytes(op.initCode, "initCode")),
        keccak256(requireBytes(op.callData, "callData")),
        op.callGasLimit,
        op.verificationGasLimit,
        op.preVerificationGas,
        op.maxFeePerGas,
        op.maxPriorityFeePerGas,
      ],
    ),
  );
  return keccak256(
    coder.encode(
      ["bytes32", "uint256", "address", "uint256", "uint48", "uint48"],
      [fields, input.chainId, requireAddress(input.paymaster, "paymaster"), requireNonNegative(input.paymasterNonce, "paymasterNonce"), validUntil, validAfter],
    ),
  );
}

/** Options of {@link sponsorUserOperation}. */
export interface SponsorOptions extends PaymasterHashInput {
  /** The platform's paymaster signer (its address is the paymaster's `verifyingSigner`). */
  signer: Signer;
}

/**
 * Sponsors a UserOperation (spec 4.11 step 2): the platform signer signs {@link paymasterHash} over
 * the operation and the validity window, and the result carries `paymasterAndData` = paymaster ‖
 * abi.encode(validUntil, validAfter) ‖ signature. Sign the operation with the owner only afterwards
 * ({@link signUserOperation}), since the owner's hash covers `paymasterAndData`. Run the platform's
 * checks first ({@link checkOperationGas}, {@link simulateWalletCall}): this function signs what it is
 * given.
 *
 * @param op - the operation to sponsor (its `signature` is ignored)
 * @param options - paymaster, platform signer, chain id, paymaster nonce and window
 * @returns a copy of `op` with `paymasterAndData` set
 *
 * @example
 * ```ts
 * const sponsored = await sponsorUserOperation(op, {
 *   paymaster: addresses.paymaster,
 *   signer: platformSigner,
 *   chainId: 31337n,
 *   paymasterNonce: await paymaster.senderNonce(op.sender),
 *   window: await sponsorshipWindow(provider),
 * });
 * ```
 */
export async function sponsorUserOperation(op: UserOperation, options: SponsorOptions): Promise<UserOperation> {
  const signature = await options.signer.signMessage(getBytes(paymasterHash(op, options)));
  return { ...op, paymasterAndData: encodePaymasterAndData(options.paymaster, options.window, signature) };
}
