import { Contract, type Provider, type Signer } from "ethers";
import type { SlotgateAddresses } from "../contracts/connect.js";
import { ContractsError } from "../errors.js";
import { type EntryPointContract, entryPointAbi } from "../generated/entryPoint.js";
import { requireAddress } from "../validate.js";
import { W_SALT, computeWalletAddress, encodeInitCode } from "../wallet/addresses.js";
import { sponsorUserOperation, sponsorshipWindow } from "./paymaster-data.js";
import { signUserOperation } from "./sign.js";
import { type SubmitResult, type UserOperationOutcome, submitUserOperations } from "./submit.js";
import {
  type UserOperation,
  type UserOperationGas,
  type WalletCall,
  buildUserOperation,
  encodeExecute,
  encodeExecuteBatch,
  getUserOpHash,
} from "./user-operation.js";

/** Input of {@link prepareSponsoredUserOperation}. */
export interface PrepareSponsoredUserOperationInput {
  /** The chain. */
  provider: Provider;
  /** EntryPoint, factory and paymaster of the deployed system. */
  addresses: Pick<SlotgateAddresses, "entryPoint" | "factory" | "paymaster">;
  /** The wallet owner's signer (the owner EOA, restored from its key shares). */
  owner: Signer;
  /** The platform's paymaster signer. */
  paymasterSigner: Signer;
  /**
   * The wallet. Pass the recorded address for a wallet whose owner was changed; otherwise it is
   * computed from (factory, owner, salt).
   */
  sender?: string;
  /** CREATE2 salt of the wallet, used to compute `sender` and the initCode. @default W_SALT */
  salt?: bigint;
  /** What the wallet does: one call (`execute`), several (`executeBatch`), or raw callData (e.g. `changeOwner`). */
  calls: WalletCall | readonly WalletCall[] | { callData: string };
  /** Gas limit overrides. */
  gas?: Partial<UserOperationGas>;
  /** Sponsorship window length. @default 300 */
  validForSeconds?: number;
}

/** A signed, sponsored operation ready for {@link submitUserOperations}. */
export interface PreparedUserOperation {
  userOperation: UserOperation;
  /** Its EntryPoint hash. */
  userOpHash: string;
  /** The wallet. */
  sender: string;
  /** True when `initCode` deploys the wallet (its first operation). */
  deploysWallet: boolean;
  /** Sponsorship window end (Unix seconds). */
  validUntil: number;
  /** Sponsorship window start (Unix seconds). */
  validAfter: number;
}

function callDataOf(calls: PrepareSponsoredUserOperationInput["calls"]): string {
  if ("callData" in calls) return calls.callData;
  if (Array.isArray(calls)) {
    const list = calls as readonly WalletCall[];
    return list.length === 1 && list[0] !== undefined ? encodeExecute(list[0]) : encodeExecuteBatch(list);
  }
  return encodeExecute(calls as WalletCall);
}

/**
 * Builds, sponsors and signs a UserOperation in the order ERC-4337 v0.6 needs (spec 4.11): nonce from
 * the EntryPoint, `initCode` only when the wallet has no code yet, fees from the provider, paymaster
 * signature over a window of `validForSeconds` (5 minutes), then the owner's signature of the hash.
 *
 * @param input - chain, addresses, owner and platform signers, wallet and calls
 * @returns the signed operation and its facts
 *
 * @example
 * ```ts
 * const prepared = await prepareSponsoredUserOperation({
 *   provider,
 *   addresses,
 *   owner: ownerWallet,
 *   paymasterSigner: platformSigner,
 *   calls: { to: addresses.exchange, data: exchange.interface.encodeFunctionData("buy_slot", [userWallet, 7n, "game-1"]) },
 * });
 * await submitUserOperations(bundler, addresses.entryPoint, [prepared.userOperation]);
 * ```
 */
export async function prepareSponsoredUserOperation(input: PrepareSponsoredUserOperationInput): Promise<PreparedUserOperation> {
  const { provider, addresses } = input;
  const ownerAddress = await input.owner.getAddress();
  const salt = input.salt ?? W_SALT;
  const sender = requireAddress(input.sender ?? computeWalletAddress(addresses.factory, ownerAddress, salt), "sender");
  const entryPoint = new Contract(requireAddress(addresses.entryPoint, "entryPoint"), entryPointAbi, provider) as unknown as EntryPointContract;

  let code: string;
  let nonce: bigint;
  let fees: Awaited<ReturnType<Provider["getFeeData"]>>;
  let chainId: bigint;
  try {
    [code, nonce, fees, { chainId }] = await Promise.all([
      provider.getCode(sender),
      entryPoint.getNonce(sender, 0n),
      provider.getFeeData(),
      provider.getNetwork(),
    ]);
  } catch (cause) {
    throw new ContractsError("CHAIN_ERROR", "could not read the wallet state", { cause });
  }
  const deploysWallet = code === "0x";
  let initCode = "0x";
  if (deploysWallet) {
    if (computeWalletAddress(addresses.factory, ownerAddress, salt) !== sender) {
      throw new ContractsError("INVALID_ARGUMENT", "sender is not deployed and is not the wallet of (owner, salt)");
    }
    initCode = encodeInitCode(addresses.factory, ownerAddress, salt);
  }
  const maxFeePerGas = fees.maxFeePerGas ?? fees.gasPrice;
  if (maxFeePerGas == null) throw new ContractsError("CHAIN_ERROR", "the provider reported no fee data");
  const maxPriorityFeePerGas = fees.maxPriorityFeePerGas ?? maxFeePerGas;

  const unsigned = buildUserOperation({
    sender,
    nonce,
    initCode,
    callData: callDataOf(input.calls),
    ...(input.gas === undefined ? {} : { gas: input.gas }),
    maxFeePerGas,
    maxPriorityFeePerGas,
  });
  const window = await sponsorshipWindow(provider, input.validForSeconds);
  const sponsored = await sponsorUserOperation(unsigned, {
    paymaster: addresses.paymaster,
    signer: input.paymasterSigner,
    runner: provider,
    window,
  });
  const userOperation = await signUserOperation(sponsored, input.owner, { entryPoint: addresses.entryPoint, chainId });
  return {
    userOperation,
    userOpHash: getUserOpHash(userOperation, addresses.entryPoint, chainId),
    sender,
    deploysWallet,
    validUntil: window.validUntil,
    validAfter: window.validAfter,
  };
}

/** Input of {@link sendSponsoredUserOperation}. */
export interface SendSponsoredUserOperationInput extends PrepareSponsoredUserOperationInput {
  /** Signer that submits handleOps. */
  bundler: Signer;
}

/** Result of {@link sendSponsoredUserOperation}. */
export interface SentUserOperation extends PreparedUserOperation {
  /** The handleOps transaction hash. */
  transactionHash: string;
  /** The EntryPoint's report of the operation. */
  outcome: UserOperationOutcome;
}

/**
 * Prepares one sponsored operation ({@link prepareSponsoredUserOperation}), submits it
 * ({@link submitUserOperations}) and throws `USER_OPERATION_REVERTED` when the wallet's call reverted
 * (its `reason` is the decoded custom error name when known).
 *
 * @param input - as for {@link prepareSponsoredUserOperation}, plus the bundler signer
 * @returns the prepared operation, the transaction hash and the outcome
 *
 * @example
 * ```ts
 * const sent = await sendSponsoredUserOperation({
 *   provider, addresses, owner: oldOwner, paymasterSigner, bundler,
 *   sender: userWallet,
 *   calls: { callData: account.interface.encodeFunctionData("changeOwner", [newOwner.address]) },
 * });
 * ```
 */
export async function sendSponsoredUserOperation(input: SendSponsoredUserOperationInput): Promise<SentUserOperation> {
  const prepared = await prepareSponsoredUserOperation(input);
  const submitted: SubmitResult = await submitUserOperations(input.bundler, input.addresses.entryPoint, [prepared.userOperation]);
  const outcome = submitted.operations.find((entry) => entry.userOpHash === prepared.userOpHash);
  if (outcome === undefined) throw new ContractsError("CHAIN_ERROR", "handleOps emitted no event for the operation");
  if (!outcome.success) {
    throw new ContractsError(
      "USER_OPERATION_REVERTED",
      `the wallet call reverted${outcome.revertReason === undefined ? "" : ` with ${outcome.revertReason}`}`,
      outcome.revertReason === undefined ? {} : { reason: outcome.revertReason },
    );
  }
  return { ...prepared, transactionHash: submitted.transactionHash, outcome };
}
