import { AbiCoder, type Signer, dataSlice, getBytes, keccak256, toNumber } from "ethers";
import { type SponsorshipWindow, type UserOperation, encodePaymasterAndData } from "@slotgate/contracts";

const USER_OPERATION_TUPLE =
  "tuple(address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)";
const coder = AbiCoder.defaultAbiCoder();
const PLACEHOLDER_SIGNATURE = `0x${"00".repeat(65)}`;

/**
 * SlotgatePaymaster's `getHash(userOp, validUntil, validAfter)` computed off-chain for a given
 * paymaster `senderNonce`. The on-chain view reads the current `senderNonce[sender]`, which is wrong
 * for an operation queued behind others of the same wallet; computing it here lets several operations
 * of one wallet be sponsored before the first one lands. `_pack` is the operation's ABI encoding up to
 * the length word of `paymasterAndData`, which must already have its final length.
 *
 * @example
 * ```ts
 * const hash = paymasterHash(op, 31337n, paymaster, 0n, { validUntil, validAfter });
 * ```
 */
export function paymasterHash(
  op: UserOperation,
  chainId: bigint,
  paymaster: string,
  senderNonce: bigint,
  window: SponsorshipWindow,
): string {
  const tuple = dataSlice(coder.encode([USER_OPERATION_TUPLE], [[
    op.sender,
    op.nonce,
    op.initCode,
    op.callData,
    op.callGasLimit,
    op.verificationGasLimit,
    op.preVerificationGas,
    op.maxFeePerGas,
    op.maxPriorityFeePerGas,
    op.paymasterAndData,
    op.signature,
  ]]), 32);
  const paymasterAndDataOffset = toNumber(dataSlice(tuple, 9 * 32, 10 * 32));
  const packed = dataSlice(tuple, 0, paymasterAndDataOffset);
  return keccak256(
    coder.encode(
      ["bytes", "uint256", "address", "uint256", "uint48", "uint48"],
      [packed, chainId, paymaster, senderNonce, window.validUntil, window.validAfter],
    ),
  );
}

/** Input of {@link sponsorOffChain}. */
export interface OffChainSponsorInput {
  paymaster: string;
  paymasterSigner: Signer;
  chainId: bigint;
  /** The paymaster's `senderNonce[sender]` at the time this operation validates. */
  paymasterNonce: bigint;
  window: SponsorshipWindow;
}

/**
 * Spec 4.11 step 2: sets `paymasterAndData` = paymaster ‖ abi.encode(validUntil, validAfter) ‖
 * signature, the platform signer's EIP-191 signature of {@link paymasterHash}.
 *
 * @example
 * ```ts
 * const sponsored = await sponsorOffChain(op, { paymaster, paymasterSigner, chainId, paymasterNonce, window });
 * ```
 */
export async function sponsorOffChain(op: UserOperation, input: OffChainSponsorInput): Promise<UserOperation> {
  const placeholder = {
    ...op,
    paymasterAndData: encodePaymasterAndData(input.paymaster, input.window, PLACEHOLDER_SIGNATURE),
  };
  const hash = paymasterHash(placeholder, input.chainId, input.paymaster, input.paymasterNonce, input.window);
  const signature = await input.paymasterSigner.signMessage(getBytes(hash));
  return { ...op, paymasterAndData: encodePaymasterAndData(input.paymaster, input.window, signature) };
}
