import { type FeeData, type FunctionFragment, Interface, type Provider, type Signer } from "ethers";
import type { SlotgateAddresses } from "../contracts/connect.js";
import { ContractsError } from "../errors.js";
import { entryPointAbi } from "../generated/entryPoint.js";
import { slotgatePaymasterAbi } from "../generated/slotgatePaymaster.js";
import { requireAddress } from "../validate.js";
import { W_SALT, computeWalletAddress, encodeInitCode } from "../wallet/addresses.js";
import { DEFAULT_MAX_OPERATION_GAS, type SponsorshipPolicy, checkOperationGas, simulateWalletCall } from "./policy.js";
import { signedWithHash } from "./sign.js";
import { type SponsorshipWindow, sponsorUserOperation, sponsorshipWindow } from "./sponsor.js";
import { type SubmitResult, type UserOperationOutcome, submitUserOperations } from "./submit.js";
import { type UserOperation, type UserOperationCalls, type UserOperationGas, buildUserOperation, encodeCalls } from "./user-operation.js";

// Parsed once: a Contract built from an ABI parses the whole ABI again (the EntryPoint's is large).
const entryPointInterface = new Interface(entryPointAbi);
const paymasterInterface = new Interface(slotgatePaymasterAbi);
const GET_NONCE = functionOf(entryPointInterface, "getNonce");
const SENDER_NONCE = functionOf(paymasterInterface, "senderNonce");

function functionOf(abi: Interface, name: string): FunctionFragment {
  const fragment = abi.getFunction(name);
  if (fragment === null) throw new Error(`the ABI has no ${name} function`);
  return fragment;
}

/** The nonces the next operation of a wallet must carry. */
export interface OperationNonces {
  /** EntryPoint nonce (key 0). */
  nonce: bigint;
  /** The paymaster's `senderNonce[sender]` the operation validates with. */
  paymasterNonce: bigint;
}

/**
 * Reads a wallet's next nonces from the chain: `EntryPoint.getNonce(sender, 0)` and the paymaster's
 * `senderNonce(sender)`. A caller that queues several operations of one wallet reads them once and
 * counts on from there.
 *
 * @param provider - the chain
 * @param addresses - EntryPoint and paymaster
 * @param sender - the wallet
 * @returns both nonces
 *
 * @example
 * ```ts
 * const { nonce, paymasterNonce } = await readOperationNonces(provider, addresses, userWallet);
 * ```
 */
export async function readOperationNonces(
  provider: Provider,
  addresses: Pick<SlotgateAddresses, "entryPoint" | "paymaster">,
  sender: string,
): Promise<OperationNonces> {
  const entryPoint = requireAddress(addresses.entryPoint, "entryPoint");
  const paymaster = requireAddress(addresses.paymaster, "paymaster");
  const wallet = requireAddress(sender, "sender");
  try {
    const [nonce, paymasterNonce] = await Promise.all([
      provider.call({ to: entryPoint, data: entryPointInterface.encodeFunctionData(GET_NONCE, [wallet, 0n]) }),
      provider.call({ to: paymaster, data: paymasterInterface.encodeFunctionData(SENDER_NONCE, [wallet]) }),
    ]);
    return {
      nonce: entryPointInterface.decodeFunctionResult(GET_NONCE, nonce)[0] as bigint,
      paymasterNonce: paymasterInterface.decodeFunctionResult(SENDER_NONCE, paymasterNonce)[0] as bigint,
    };
  } catch (cause) {
    throw new ContractsError("chain_error", "could not read the wallet's nonces", { cause });
  }
}

/** The fee fields of ethers' `FeeData` a UserOperation needs. */
export type UserOperationFees = Pick<FeeData, "maxFeePerGas" | "maxPriorityFeePerGas" | "gasPrice">;

/**
 * Input of {@link prepareSponsoredUserOperation}. The chain facts (`chainId`, `nonce`,
 * `paymasterNonce`, `fees`, `window`) are read from the chain when omitted; a service that tracks
 * nonces per wallet and batches operations passes them in.
 */
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
   * computed from (factory, initialOwner, salt).
   */
  sender?: string;
  /** The owner the wallet's address was computed from, for its deploying initCode. @default the owner's address */
  initialOwner?: string;
  /** CREATE2 salt of the wallet, used to compute `sender` and the initCode. @default W_SALT */
  salt?: bigint;
  /** What the wallet does: one call (`execute`), several (`executeBatch`), or raw callData (e.g. `changeOwner`). */
  calls: UserOperationCalls;
  /** Gas limit overrides. */
  gas?: Partial<UserOperationGas>;
  /** Sponsorship window length, when `window` is not given. @default 300 */
  validForSeconds?: number;
  /** The chain id. @default read from the provider */
  chainId?: bigint;
  /**
   * EntryPoint nonce of the operation. @default read from the EntryPoint. When it is above 0 the
   * wallet is taken as deployed (an earlier operation deployed it, or will before this one runs).
   */
  nonce?: bigint;
  /** The paymaster's `senderNonce` the operation validates with. @default read from the paymaster */
  paymasterNonce?: bigint;
  /** Fee data. @default `provider.getFeeData()` */
  fees?: UserOperationFees;
  /** Sponsorship window. @default {@link sponsorshipWindow} of `validForSeconds` */
  window?: SponsorshipWindow;
  /**
   * The platform's checks before the paymaster signs: the per-operation gas cap and the simulation of
   * the call. `false` skips both (a test that needs an operation whose call reverts on chain).
   * @default { maxOperationGas: DEFAULT_MAX_OPERATION_GAS, simulate: true }
   */
  policy?: SponsorshipPolicy | false;
}

/** A signed, sponsored operation ready for {@link submitUserOperations} or a bundler. */
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

interface ChainFacts {
  chainId: bigint;
  nonces: OperationNonces;
  fees: UserOperationFees;
  window: SponsorshipWindow;
  /** The wallet's code, read only for nonce 0. */
  code: string | undefined;
}

/** Reads, in parallel, what the caller did not pass. */
async function chainFacts(input: PrepareSponsoredUserOperationInput, sender: string): Promise<ChainFacts> {
  const { provider } = input;
  const given = <T>(value: T | undefined, read: () => Promise<T>): Promise<T> => (value === undefined ? read() : Promise.resolve(value));
  try {
    const [chainId, nonces, fees, window, code] = await Promise.all([
      given(input.chainId, async () => (await provider.getNetwork()).chainId),
      input.nonce !== undefined && input.paymasterNonce !== undefined
        ? Promise.resolve({ nonce: input.nonce, paymasterNonce: input.paymasterNonce })
        : readOperationNonces(provider, input.addresses, sender).then((read) => ({
            nonce: input.nonce ?? read.nonce,
            paymasterNonce: input.paymasterNonce ?? read.paymasterNonce,
          })),
      given<UserOperationFees>(input.fees, () => provider.getFeeData()),
      given(input.window, () => sponsorshipWindow(provider, input.validForSeconds)),
      input.nonce !== undefined && input.nonce > 0n ? Promise.resolve(undefined) : provider.getCode(sender),
    ]);
    return { chainId, nonces, fees, window, code };
  } catch (cause) {
    if (cause instanceof ContractsError) throw cause;
    throw new ContractsError("chain_error", "could not read the wallet state", { cause });
  }
}

/**
 * Input of {@link assembleSponsoredUserOperation}: every chain fact known, so that nothing is read from
 * the node (a service reads them, and simulates the call, before it takes a wallet's nonce in a database
 * transaction, and assembles the operation inside it).
 */
export interface AssembleSponsoredUserOperationInput {
  /** EntryPoint, factory and paymaster of the deployed system. */
  addresses: Pick<SlotgateAddresses, "entryPoint" | "factory" | "paymaster">;
  /** The wallet owner's signer (signs locally: no call to the node). */
  owner: Signer;
  /** The platform's paymaster signer (signs locally). */
  paymasterSigner: Signer;
  /** The wallet. */
  sender: string;
  /** The owner the wallet's address was computed from, for its deploying initCode. */
  initialOwner: string;
  /** CREATE2 salt of the wallet. */
  salt: bigint;
  /** What the wallet does. */
  calls: UserOperationCalls;
  /** Gas limit overrides. */
  gas?: Partial<UserOperationGas>;
  chainId: bigint;
  /** EntryPoint nonce of the operation. */
  nonce: bigint;
  /** The paymaster's `senderNonce` the operation validates with. */
  paymasterNonce: bigint;
  fees: UserOperationFees;
  window: SponsorshipWindow;
  /** Whether the wallet has code on chain; an operation of nonce 0 of a wallet without code deploys it. */
  walletDeployed: boolean;
  /** The per-operation gas cap ({@link checkOperationGas}), or false for none. @default DEFAULT_MAX_OPERATION_GAS */
  maxOperationGas?: bigint | false;
}

/** The unsigned operation of known chain facts, checked (sender, fees, gas cap): no call to the node. */
function unsignedOperation(input: AssembleSponsoredUserOperationInput): { unsigned: UserOperation; deploysWallet: boolean } {
  const { addresses, initialOwner, salt } = input;
  const sender = requireAddress(input.sender, "sender");
  const deploysWallet = input.nonce === 0n && !input.walletDeployed;
  if (deploysWallet && computeWalletAddress(addresses.factory, initialOwner, salt) !== sender) {
    throw new ContractsError("invalid_argument", "sender is not deployed and is not the wallet of (owner, salt)");
  }
  const maxFeePerGas = input.fees.maxFeePerGas ?? input.fees.gasPrice;
  if (maxFeePerGas == null) throw new ContractsError("chain_error", "the provider reported no fee data");
  const unsigned = buildUserOperation({
    sender,
    nonce: input.nonce,
    initCode: deploysWallet ? encodeInitCode(addresses.factory, initialOwner, salt) : "0x",
    callData: encodeCalls(input.calls),
    ...(input.gas === undefined ? {} : { gas: input.gas }),
    maxFeePerGas,
    maxPriorityFeePerGas: input.fees.maxPriorityFeePerGas ?? maxFeePerGas,
  });
  if (input.maxOperationGas !== false) checkOperationGas(unsigned, input.maxOperationGas ?? DEFAULT_MAX_OPERATION_GAS);
  return { unsigned, deploysWallet };
}

/** The paymaster's signature, then the owner's: the operation ready to submit. */
async function signSponsored(
  unsigned: UserOperation,
  deploysWallet: boolean,
  input: Pick<AssembleSponsoredUserOperationInput, "addresses" | "owner" | "paymasterSigner" | "chainId" | "paymasterNonce" | "window">,
): Promise<PreparedUserOperation> {
  const { addresses, chainId, window } = input;
  const sponsored = await sponsorUserOperation(unsigned, {
    paymaster: addresses.paymaster,
    signer: input.paymasterSigner,
    chainId,
    paymasterNonce: input.paymasterNonce,
    window,
  });
  const { userOperation, userOpHash } = await signedWithHash(sponsored, input.owner, { entryPoint: addresses.entryPoint, chainId });
  return {
    userOperation,
    userOpHash,
    sender: userOperation.sender,
    deploysWallet,
    validUntil: window.validUntil,
    validAfter: window.validAfter,
  };
}

/**
 * Builds, checks (the gas cap), sponsors and signs a UserOperation from chain facts the caller read
 * before: no call to the node, so it may run inside a database transaction that holds the wallet's
 * nonce. The call's simulation ({@link simulateWalletCall}) is the caller's, before.
 * {@link prepareSponsoredUserOperation} is the same with the facts read and the call simulated.
 *
 * @param input - the signers, the wallet, the calls and every chain fact
 * @returns the signed operation and its facts
 *
 * @example
 * ```ts
 * const prepared = await assembleSponsoredUserOperation({
 *   addresses, owner, paymasterSigner, sender, initialOwner, salt: W_SALT, calls,
 *   chainId, nonce, paymasterNonce, fees, window, walletDeployed: (await provider.getCode(sender)) !== "0x",
 * });
 * ```
 */
export async function assembleSponsoredUserOperation(input: AssembleSponsoredUserOperationInput): Promise<PreparedUserOperation> {
  const { unsigned, deploysWallet } = unsignedOperation(input);
  return signSponsored(unsigned, deploysWallet, input);
}

/**
 * Builds, sponsors and signs a UserOperation in the order ERC-4337 v0.6 needs (spec 4.11): nonce from
 * the EntryPoint, `initCode` only on the wallet's first operation (nonce 0 and no code yet), fees from
 * the provider, the platform's checks (the per-operation gas cap, {@link checkOperationGas}, and a
 * simulation of the call, {@link simulateWalletCall}: a call that would revert is never sponsored),
 * the platform's signature over {@link paymasterHash} with a window of `validForSeconds` (5 minutes),
 * then the owner's signature of the operation hash. Each chain fact can be passed in instead of read.
 *
 * @param input - chain, addresses, owner and platform signers, wallet, calls and known chain facts
 * @returns the signed operation and its facts
 *
 * @example
 * ```ts
 * const prepared = await prepareSponsoredUserOperation({
 *   provider,
 *   addresses,
 *   owner: ownerWallet,
 *   paymasterSigner: platformSigner,
 *   calls: changeSlotOwnerCall(addresses.exchange, "game-1", 7n, newOwnerWallet),
 * });
 * await submitUserOperations(bundler, addresses.entryPoint, [prepared.userOperation]);
 * ```
 */
export async function prepareSponsoredUserOperation(input: PrepareSponsoredUserOperationInput): Promise<PreparedUserOperation> {
  const { addresses } = input;
  const initialOwner = input.initialOwner ?? (await input.owner.getAddress());
  const salt = input.salt ?? W_SALT;
  const ownWallet = computeWalletAddress(addresses.factory, initialOwner, salt);
  const sender = requireAddress(input.sender ?? ownWallet, "sender");
  const { chainId, nonces, fees, window, code } = await chainFacts(input, sender);
  const facts = { ...input, sender, initialOwner, salt, chainId, nonce: nonces.nonce, paymasterNonce: nonces.paymasterNonce, fees, window };
  const { unsigned, deploysWallet } = unsignedOperation({
    ...facts,
    walletDeployed: code !== "0x",
    maxOperationGas: input.policy === false ? false : (input.policy?.maxOperationGas ?? DEFAULT_MAX_OPERATION_GAS),
  });
  if (input.policy !== false && input.policy?.simulate !== false) {
    await simulateWalletCall(input.provider, {
      entryPoint: addresses.entryPoint,
      sender,
      callData: unsigned.callData,
      callGasLimit: unsigned.callGasLimit,
      ...(ownWallet === sender ? { initCode: encodeInitCode(addresses.factory, initialOwner, salt) } : {}),
    });
  }
  return signSponsored(unsigned, deploysWallet, facts);
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
 * Prepares one sponsored operation ({@link prepareSponsoredUserOperation}: a call that reverts in
 * simulation is refused with `sponsorship_refused` before anything is signed), submits it
 * ({@link submitUserOperations}) and throws `user_operation_reverted` when the wallet's call still
 * reverted on chain (its `reason` is the decoded custom error name when known).
 *
 * @param input - as for {@link prepareSponsoredUserOperation}, plus the bundler signer
 * @returns the prepared operation, the transaction hash and the outcome
 *
 * @example
 * ```ts
 * const sent = await sendSponsoredUserOperation({
 *   provider, addresses, owner: oldOwner, paymasterSigner, bundler,
 *   sender: userWallet,
 *   calls: changeOwnerCallData(newOwner.address),
 * });
 * ```
 */
export async function sendSponsoredUserOperation(input: SendSponsoredUserOperationInput): Promise<SentUserOperation> {
  const prepared = await prepareSponsoredUserOperation(input);
  const submitted: SubmitResult = await submitUserOperations(input.bundler, input.addresses.entryPoint, [prepared.userOperation]);
  const outcome = submitted.operations.find((entry) => entry.userOpHash === prepared.userOpHash);
  if (outcome === undefined) throw new ContractsError("chain_error", "handleOps emitted no event for the operation");
  if (!outcome.success) {
    throw new ContractsError(
      "user_operation_reverted",
      `the wallet call reverted${outcome.revertReason === undefined ? "" : ` with ${outcome.revertReason}`}`,
      outcome.revertReason === undefined ? {} : { reason: outcome.revertReason },
    );
  }
  return { ...prepared, transactionHash: submitted.transactionHash, outcome };
}
