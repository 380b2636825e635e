import type { Database } from "@slotgate/storage";
import { type FeeData, type JsonRpcProvider, type Wallet, getAddress } from "ethers";
import {
  type SlotgateAddresses,
  type SponsorshipWindow,
  type UserOperation,
  type UserOperationCalls,
  prepareSponsoredUserOperation,
  readOperationNonces,
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
import { type WriteRecord, insertWrite } from "../storage/writes.js";
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

/** One sponsored operation to sign and record. */
export interface SponsoredOperationInput {
  /** The wallet. */
  sender: string;
  /** Owner and salt the wallet's CREATE2 address was computed from (for its deploying initCode). */
  deployment: { initialOwner: string; salt: bigint };
  /** What the wallet does. */
  calls: UserOperationCalls;
  /**
   * The owner's private key, or a function that restores it (checking the PIN), called only once this
   * process holds the wallet's lock, so a restored key never waits in memory behind the wallet's other
   * operations. Consumed: wiped on every path, right after signing.
   */
  ownerKey: Buffer | (() => Promise<Buffer>);
  /** The request's idempotency identity. */
  identity: WriteIdentity;
  /** The user (budget `user:<uuid>`) and the cuid the operation serves, if any (budget `cuid:<cuid>`). */
  budget: { userUuid: number; cuid?: string | undefined };
  /** Which endpoint's answer the operation gives, and the fields of it known now (the wallet, a slot's new owner, ...). */
  answer: { shape: OperationShape; known?: Record<string, string | number | boolean | null> };
  /** Bookkeeping when it lands or fails. */
  effects?: WriteEffects;
}

/** Rolls the recording transaction back when the idempotency key was used meanwhile. */
class EarlierWrite extends Error {
  constructor(readonly record: WriteRecord) {
    super("an earlier write holds this idempotency key");
  }
}

/** The most an operation can cost the paymaster (EntryPoint v0.6 prefund with a paymaster: verification counted three times). */
function maxCost(op: UserOperation): bigint {
  return (op.callGasLimit + op.verificationGasLimit * 3n + op.preVerificationGas) * op.maxFeePerGas;
}

/**
 * Signs and records sponsored UserOperations (spec 4.11) through the `@slotgate/contracts` pipeline
 * (`prepareSponsoredUserOperation`: initCode only on the wallet's first operation, paymasterAndData
 * signed by the platform for `[now - skew, now + 5 minutes]`, then the owner's signature), as durable
 * writes the bundler sends. Before the paymaster signs, the platform's checks of {@link SponsorshipRules}
 * (the gas cap, a simulation of the call). In one database transaction: the wallet's nonces are taken from the
 * database (so instances never give one twice), the sponsorship is reserved against the user's and the
 * cuid's daily budgets (`sponsorship_budget_exceeded` before anything is signed), and the signed
 * operation is recorded under the request's idempotency key. Users never pay gas.
 *
 * @example
 * ```ts
 * const answer = await sponsored.send({ sender, deployment: { initialOwner, salt: W_SALT }, calls, ownerKey, identity, budget: { userUuid: 7 }, answer: {} });
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

  /** One operation of a wallet at a time in this process: its key is restored only when its turn comes. */
  readonly #wallets = new KeyedLock<string>();

  #state: { at: number; value: Promise<{ fees: FeeData; window: SponsorshipWindow }> } | undefined;

  /**
   * Fee data and the sponsorship window, shared by the operations of one second: a burst of
   * operations then costs two RPC reads, not two per operation.
   */
  #chainState(): Promise<{ fees: FeeData; window: SponsorshipWindow }> {
    const now = Date.now();
    if (this.#state === undefined || now - this.#state.at > 1000) {
      const value = Promise.all([this.ctx.provider.getFeeData(), sponsorshipWindow(this.ctx.provider, this.ctx.validForSeconds)]).then(
        ([fees, window]) => ({ fees, window }),
      );
      this.#state = { at: now, value };
      value.catch(() => {
        if (this.#state?.value === value) this.#state = undefined;
      });
    }
    return this.#state.value;
  }

  async send(input: SponsoredOperationInput): Promise<Record<string, unknown> | PendingWrite> {
    const recorded = await this.#wallets.run(getAddress(input.sender), () => this.#record(input));
    return this.ctx.writes.outcome(recorded);
  }

  /** Restores the key (under the wallet's lock), signs and records the operation; answers the write to wait for. */
  async #record(input: SponsoredOperationInput): Promise<WriteRecord> {
    const { ctx } = this;
    let ownerKey = typeof input.ownerKey === "function" ? undefined : input.ownerKey;
    try {
      if (typeof input.ownerKey === "function") ownerKey = await input.ownerKey();
      const { fees, window } = await this.#chainState();
      const budgets: SponsorshipBudget[] = [
        ...(ctx.budgets.userWeiPerDay > 0n ? [{ scope: `user:${input.budget.userUuid}`, limitWei: ctx.budgets.userWeiPerDay }] : []),
        ...(input.budget.cuid !== undefined && ctx.budgets.cuidWeiPerDay > 0n ? [{ scope: `cuid:${input.budget.cuid}`, limitWei: ctx.budgets.cuidWeiPerDay }] : []),
      ];
      const now = ctx.now();
      return await ctx.db.transaction(async (tx) => {
        const nonces = await takeWalletNonces(tx, input.sender, async () => {
          const read = await readOperationNonces(ctx.provider, ctx.addresses, input.sender);
          return { nonce: read.nonce, paymasterOffset: read.paymasterNonce - read.nonce };
        });
        const owner = signerFor(ownerKey as Buffer);
        wipe(ownerKey);
        const prepared = await prepareSponsoredUserOperation({
          provider: ctx.provider,
          addresses: ctx.addresses,
          owner,
          paymasterSigner: ctx.paymasterSigner,
          sender: input.sender,
          initialOwner: input.deployment.initialOwner,
          salt: input.deployment.salt,
          calls: input.calls,
          chainId: ctx.chainId,
          nonce: nonces.nonce,
          paymasterNonce: nonces.nonce + nonces.paymasterOffset,
          fees,
          window,
          policy: ctx.sponsorship.policy,
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
        const { record: written, created } = await insertWrite(tx, {
          kind: "user_operation",
          signer: ctx.signer,
          ...identityFields(input.identity),
          payload: payload as unknown as Record<string, unknown>,
          validUntil: new Date(prepared.validUntil * 1000),
        });
        // A request with the same idempotency key was recorded meanwhile: undo this one (its nonce too).
        if (!created) throw new EarlierWrite(written);
        return written;
      });
    } catch (cause) {
      if (cause instanceof EarlierWrite) {
        if (cause.record.requestHash !== input.identity.requestHash) throw new ChainServiceError("idempotency_key_reused");
        return cause.record;
      }
      if (cause instanceof ChainServiceError) throw cause;
      throw sponsorshipRefusal(cause) ?? revertError(cause);
    } finally {
      wipe(ownerKey);
      if (Buffer.isBuffer(input.ownerKey)) wipe(input.ownerKey);
    }
  }
}
