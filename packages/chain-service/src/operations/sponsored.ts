import type { Database } from "@slotgate/storage";
import { type FeeData, type JsonRpcProvider, type Wallet, getAddress } from "ethers";
import {
  type OperationNonces,
  type SlotgateAddresses,
  type SponsorshipWindow,
  type UserOperation,
  type UserOperationCalls,
  assembleSponsoredUserOperation,
  computeWalletAddress,
  encodeCalls,
  encodeInitCode,
  readOperationNonces,
  simulateWalletCall,
  sponsorshipWindow,
  userOperationToRpc,
} from "@slotgate/contracts";
import { revertError } from "../chain/revert-error.js";
import { KeyedLock } from "../pin/keyed-lock.js";
import { type SponsorshipRules, sponsorshipRefusal } from "./sponsorship-policy.js";
import { ChainServiceError } from "../errors.js";
import { signerFor } from "../keys/mnemonic.js";
import { wipe } from "../keys/wipe.js";
import { type SponsorshipBudget, dayEnd, reserveSponsorship } from "../storage/sponsorship.js";
import { takeWalletNonces } from "../storage/wallet-nonces.js";
import type { WriteRecord } from "../storage/writes.js";
import type { OperationShape } from "../writes/answers.js";
import type { WriteEffects } from "../writes/effects.js";
import { type PendingWrite, type WriteIdentity, type WriteWaits, identityFields } from "../writes/engine.js";
import type { OperationPayload } from "../writes/operation-planner.js";

/** The most gas of sponsorship one user or one cuid may use per UTC day, in wei (0: no limit). */
export interface SponsorshipBudgets {
  /** @default 1 ether */
  userWeiPerDay: bigint;
  /** @default 50 ether */
  cuidWeiPerDay: bigint;
}

/** One sponsored operation to check, sign and record. */
export interface SponsoredOperationInput {
  /** The wallet. */
  sender: string;
  /** Owner and salt the wallet's CREATE2 address was computed from (for its deploying initCode). */
  deployment: { initialOwner: string; salt: bigint };
  /** What the wallet does. */
  calls: UserOperationCalls;
  /** The request's idempotency identity. */
  identity: WriteIdentity;
  /** The user (budget `user:<uuid>`) and the cuid the operation serves, if any (budget `cuid:<cuid>`). */
  budget: { userUuid: number; cuid?: string | undefined };
  /** Which endpoint's answer the operation gives, and the fields of it known now (the wallet, a slot's new owner, ...). */
  answer: { shape: OperationShape; known?: Record<string, string | number | boolean | null> };
  /** Bookkeeping when it lands or fails. */
  effects?: WriteEffects;
}

/**
 * An operation {@link SponsoredOperations.check} read from the node and simulated: what signing it needs
 * besides the owner's key and the wallet's nonce, which {@link SponsoredOperations.record} takes in the
 * database.
 */
export interface CheckedOperation {
  readonly input: SponsoredOperationInput;
  /** The wallet's nonces on chain (its owner may have sent operations of its own, with the backup words). */
  readonly onChain: OperationNonces;
  readonly fees: FeeData;
  readonly window: SponsorshipWindow;
  /** Whether the wallet has code on chain (an operation of nonce 0 of a wallet without code deploys it). */
  readonly walletDeployed: boolean;
  /** The operation's callData (`encodeCalls(input.calls)`), encoded once for the simulation and the signed operation. */
  readonly callData: string;
}

/** The most an operation can cost the paymaster (EntryPoint v0.6 prefund with a paymaster: verification counted three times). */
function maxCost(op: UserOperation): bigint {
  return (op.callGasLimit + op.verificationGasLimit * 3n + op.preVerificationGas) * op.maxFeePerGas;
}

/** A refusal as the service error it means: the sponsorship's refusals, else the node's errors. */
function refusal(cause: unknown): ChainServiceError {
  if (cause instanceof ChainServiceError) return cause;
  return sponsorshipRefusal(cause) ?? revertError(cause);
}

/**
 * Checks, signs and records sponsored UserOperations (spec 4.11) as durable writes the bundler sends,
 * in three steps whose node calls all come first:
 * 1. {@link SponsoredOperations.check}, before any lock: the node's facts (the wallet's nonces and code,
 *    fees, the sponsorship window `[now - skew, now + 5 minutes]`) and the platform's simulation of the
 *    call ({@link SponsorshipRules}).
 * 2. {@link SponsoredOperations.walletTurn}: one operation of a wallet at a time in this process, so the
 *    owner key restored for it (the caller's step in between) never waits in memory behind the wallet's
 *    other operations.
 * 3. {@link SponsoredOperations.record}, in one database transaction and without a call to the node: the
 *    wallet's nonces taken from the database (so instances never give one twice; the chain's, when the
 *    wallet's owner sent operations of its own), the operation assembled (initCode only on the wallet's
 *    first operation, the gas cap), signed by the paymaster and the owner, the sponsorship reserved
 *    against the user's and the cuid's daily budgets (`sponsorship_budget_exceeded`, nothing recorded)
 *    and the write recorded under the request's idempotency key. Users never pay gas.
 *
 * @example
 * ```ts
 * const checked = await sponsored.check({ sender, deployment: { initialOwner, salt: W_SALT }, calls, identity, budget: { userUuid: 7 }, answer: { shape: "operation" } });
 * const release = await sponsored.walletTurn(sender);
 * try {
 *   record = await sponsored.record(checked, ownerKey);
 * } finally {
 *   release();
 * }
 * ```
 */
export class SponsoredOperations {
  constructor(
    private readonly ctx: {
      db: Database;
      provider: JsonRpcProvider;
      addresses: SlotgateAddresses;
      chainId: bigint;
      paymasterSigner: Wallet;
      /** The address whose writes the bundler sends. */
      signer: string;
      writes: WriteWaits;
      validForSeconds: number;
      budgets: SponsorshipBudgets;
      /** What the paymaster sponsors (the gas cap and the call's simulation, checked before it signs). */
      sponsorship: SponsorshipRules;
      now: () => Date;
    },
  ) {}

  readonly #wallets = new KeyedLock<string>();

  #state: { at: number; value: Promise<{ fees: FeeData; window: SponsorshipWindow }> } | undefined;

  /**
   * Fee data and the sponsorship window, shared by the operations of one second: a burst of
   * operations then costs two RPC reads, not two per operation.
   */
  #chainState(): Promise<{ fees: FeeData; window: SponsorshipWindow }> {
    const now = Date.now();
    if (this.#state === undefined || now - this.#state.at > 1000) {
      const value = Promise.all([this.ctx.provider.getFeeData(), sponsorshipWindow(this.ctx.provider, this.ctx.validForSeconds)]).then(([fees, window]) => ({
        fees,
        window,
      }));
      this.#state = { at: now, value };
      value.catch(() => {
        if (this.#state?.value === value) this.#state = undefined;
      });
    }
    return this.#state.value;
  }

  /**
   * Step 1: reads from the node what the operation needs (the wallet's nonces and code, fees, the
   * sponsorship window) and simulates its call: a call that would revert is refused (`chain_reverted` or
   * its specific code) before anything is locked, signed or recorded.
   */
  async check(input: SponsoredOperationInput): Promise<CheckedOperation> {
    const { ctx } = this;
    const { initialOwner, salt } = input.deployment;
    try {
      const [{ fees, window }, onChain, code] = await Promise.all([
        this.#chainState(),
        readOperationNonces(ctx.provider, ctx.addresses, input.sender),
        ctx.provider.getCode(input.sender),
      ]);
      const callData = encodeCalls(input.calls);
      if (ctx.sponsorship.policy.simulate) {
        const ownWallet = computeWalletAddress(ctx.addresses.factory, initialOwner, salt) === getAddress(input.sender);
        await simulateWalletCall(ctx.provider, {
          entryPoint: ctx.addresses.entryPoint,
          sender: input.sender,
          callData,
          ...(ownWallet ? { initCode: encodeInitCode(ctx.addresses.factory, initialOwner, salt) } : {}),
        });
      }
      return { input, onChain, fees, window, walletDeployed: code !== "0x", callData };
    } catch (cause) {
      throw refusal(cause);
    }
  }

  /** Step 2: waits for the turn of the wallet `sender` in this process; answers the function that ends it. */
  walletTurn(sender: string): Promise<() => void> {
    return this.#wallets.acquire(getAddress(sender));
  }

  /**
   * Step 3: signs and records the operation in one database transaction, without a call to the node;
   * answers the write to wait for (an earlier write of the request's idempotency key instead, with
   * nothing taken). `ownerKey` is consumed: wiped on every path, right after signing.
   */
  async record(checked: CheckedOperation, ownerKey: Buffer): Promise<WriteRecord> {
    const { ctx } = this;
    const { input, onChain, fees, window, walletDeployed, callData } = checked;
    const budgets: SponsorshipBudget[] = [
      ...(ctx.budgets.userWeiPerDay > 0n ? [{ scope: `user:${input.budget.userUuid}`, limitWei: ctx.budgets.userWeiPerDay }] : []),
      ...(input.budget.cuid !== undefined && ctx.budgets.cuidWeiPerDay > 0n
        ? [{ scope: `cuid:${input.budget.cuid}`, limitWei: ctx.budgets.cuidWeiPerDay }]
        : []),
    ];
    const now = ctx.now();
    try {
      return await ctx.writes.recordWith(async (tx) => {
        const nonces = await takeWalletNonces(tx, input.sender, { nonce: onChain.nonce, paymasterOffset: onChain.paymasterNonce - onChain.nonce });
        const owner = signerFor(ownerKey);
        wipe(ownerKey);
        const prepared = await assembleSponsoredUserOperation({
          addresses: ctx.addresses,
          owner,
          paymasterSigner: ctx.paymasterSigner,
          sender: input.sender,
          initialOwner: input.deployment.initialOwner,
          salt: input.deployment.salt,
          calls: { callData },
          chainId: ctx.chainId,
          nonce: nonces.nonce,
          paymasterNonce: nonces.nonce + nonces.paymasterOffset,
          fees,
          window,
          walletDeployed,
          maxOperationGas: ctx.sponsorship.policy.maxOperationGas,
        });
        const reserved = maxCost(prepared.userOperation);
        const over = await reserveSponsorship(tx, budgets, reserved, now);
        if (over !== null) {
          const reset = dayEnd(now);
          throw new ChainServiceError("sponsorship_budget_exceeded", undefined, {
            details: {
              scope: over.scope.split(":")[0] as string,
              limit_wei: over.limitWei.toString(),
              reset_at: reset.toISOString(),
              retry_after_seconds: Math.max(1, Math.ceil((reset.getTime() - now.getTime()) / 1000)),
            },
          });
        }
        const scopes = budgets.map((b) => b.scope);
        const payload: OperationPayload = {
          op: userOperationToRpc(prepared.userOperation),
          userOpHash: prepared.userOpHash,
          sender: prepared.sender,
          deploysWallet: prepared.deploysWallet,
          shape: input.answer.shape,
          known: input.answer.known ?? {},
          sponsorship: { scopes, reservedWei: reserved.toString(), reservedAt: now.toISOString() },
          effects: {
            confirmed: input.effects?.confirmed ?? [],
            failed: [
              ...(input.effects?.failed ?? []),
              { kind: "release_sponsorship", scopes, reserved_wei: reserved.toString(), reserved_at: now.toISOString() },
            ],
          },
        };
        return {
          kind: "user_operation",
          signer: ctx.signer,
          ...identityFields(input.identity),
          payload: payload as unknown as Record<string, unknown>,
          validUntil: new Date(prepared.validUntil * 1000),
        };
      });
    } catch (cause) {
      throw refusal(cause);
    } finally {
      wipe(ownerKey);
    }
  }

  /**
   * The three steps for an operation whose owner key the caller holds already (an owner rotation, a
   * development funding): answers the write's outcome. `ownerKey` is consumed (wiped on every path).
   */
  async send(input: SponsoredOperationInput, ownerKey: Buffer): Promise<Record<string, unknown> | PendingWrite> {
    let record: WriteRecord;
    try {
      const checked = await this.check(input);
      const release = await this.walletTurn(input.sender);
      try {
        record = await this.record(checked, ownerKey);
      } finally {
        release();
      }
    } finally {
      wipe(ownerKey);
    }
    return this.ctx.writes.outcome(record);
  }
}
