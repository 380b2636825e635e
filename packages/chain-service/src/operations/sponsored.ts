import type { FeeData, Provider, Wallet } from "ethers";
import {
  type SlotgateAddresses,
  type SponsorshipWindow,
  buildUserOperation,
  encodeInitCode,
  signUserOperation,
  sponsorshipWindow,
} from "@slotgate/contracts";
import type { WalletNonces } from "../bundler/nonces.js";
import { sponsorOffChain } from "../bundler/paymaster-hash.js";
import type { UserOperationReceipt, UserOperationSubmitter } from "../bundler/submitter.js";
import { ChainServiceError } from "../errors.js";
import { signerFor } from "../keys/mnemonic.js";
import { wipe } from "../keys/wipe.js";
import { revertError } from "../chain/tx-queue.js";

/** One sponsored operation to send. */
export interface SponsoredOperationInput {
  /** The wallet. */
  sender: string;
  /** Owner and salt the wallet's CREATE2 address was computed from (for its deploying initCode). */
  deployment: { initialOwner: string; salt: bigint };
  /** The wallet's callData (`execute` / `executeBatch`). */
  callData: string;
  /** The owner's private key. Consumed: wiped on every path, right after signing. */
  ownerKey: Buffer;
}

/** Result of {@link SponsoredOperations.send}. */
export interface SponsoredOperationResult extends UserOperationReceipt {
  /** Whether this operation deployed the wallet (its first operation, spec 2.6). */
  deployedWallet: boolean;
}

/**
 * Builds, sponsors, signs and submits UserOperations (spec 4.11): sender = the wallet, initCode only
 * on its first operation, paymasterAndData with validUntil = now + 5 minutes signed by the platform,
 * then the owner's signature over the operation hash, then the bundler. Users never pay gas.
 *
 * @example
 * ```ts
 * const result = await sponsored.send({ sender, deployment: { initialOwner, salt: W_SALT }, callData, ownerKey });
 * ```
 */
export class SponsoredOperations {
  constructor(
    private readonly ctx: {
      provider: Provider;
      addresses: SlotgateAddresses;
      chainId: bigint;
      paymasterSigner: Wallet;
      nonces: WalletNonces;
      submitter: UserOperationSubmitter;
      validForSeconds: number;
    },
  ) {}

  #state: { at: number; value: Promise<{ fees: FeeData; window: SponsorshipWindow }> } | undefined;

  /**
   * Fee data and the sponsorship window, shared by the operations of one second: a burst of
   * operations then costs two RPC reads, not two per operation. The window starts at most a second
   * early, which only shortens it.
   */
  #chainState(): Promise<{ fees: FeeData; window: SponsorshipWindow }> {
    const now = Date.now();
    if (this.#state === undefined || now - this.#state.at > 1000) {
      const value = Promise.all([
        this.ctx.provider.getFeeData(),
        sponsorshipWindow(this.ctx.provider, this.ctx.validForSeconds),
      ]).then(([fees, window]) => ({ fees, window }));
      this.#state = { at: now, value };
      value.catch(() => {
        if (this.#state?.value === value) this.#state = undefined;
      });
    }
    return this.#state.value;
  }

  async send(input: SponsoredOperationInput): Promise<SponsoredOperationResult> {
    const { ctx } = this;
    let deployedWallet = false;
    let queued: Promise<UserOperationReceipt>;
    try {
      ({ queued } = await ctx.nonces.withNext(input.sender, async ({ nonce, paymasterNonce }) => {
        const [code, { fees, window }] = await Promise.all([
          nonce === 0n ? ctx.provider.getCode(input.sender) : Promise.resolve("0xexisting"),
          this.#chainState(),
        ]);
        deployedWallet = code === "0x";
        const maxFeePerGas = fees.maxFeePerGas ?? fees.gasPrice ?? 1_000_000_000n;
        const op = buildUserOperation({
          sender: input.sender,
          nonce,
          callData: input.callData,
          initCode: deployedWallet
            ? encodeInitCode(ctx.addresses.factory, input.deployment.initialOwner, input.deployment.salt)
            : "0x",
          maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas ?? maxFeePerGas,
        });
        const sponsored = await sponsorOffChain(op, {
          paymaster: ctx.addresses.paymaster,
          paymasterSigner: ctx.paymasterSigner,
          chainId: ctx.chainId,
          paymasterNonce,
          window,
        });
        const owner = signerFor(input.ownerKey);
        wipe(input.ownerKey);
        const signed = await signUserOperation(sponsored, owner, { entryPoint: ctx.addresses.entryPoint, chainId: ctx.chainId });
        // Hand the operation to the bundler while still holding the wallet's nonce lock; wrap the
        // promise so the lock is released now, not when the operation is included.
        const submitted = ctx.submitter.submit(signed);
        submitted.catch(() => undefined);
        // An external bundler cannot take the wallet's next operation before this one lands.
        if (!ctx.submitter.pipelinesPerWallet) await submitted;
        return { queued: submitted };
      }));
    } catch (cause) {
      throw revertError(cause);
    } finally {
      wipe(input.ownerKey);
    }
    const receipt = await queued;
    if (!receipt.success) {
      throw new ChainServiceError("chain_reverted", `the wallet call reverted${receipt.revertReason ? ` (${receipt.revertReason})` : ""}`, {
        details: { reason: receipt.revertReason ?? "unknown", tx_hash: receipt.transactionHash },
      });
    }
    return { ...receipt, deployedWallet };
  }
}
