import { type BaseWallet, Wallet } from "ethers";
import type { Queryable } from "@slotgate/storage";
import {
  type UserOperation,
  W_SALT,
  buildUserOperation,
  computeWalletAddress,
  encodeExecute,
  encodeInitCode,
  getUserOpHash,
  signUserOperation,
  sponsorUserOperation,
  userOperationToRpc,
} from "@slotgate/contracts";
import { developmentKey } from "../../src/index.js";
import type { ServiceContext } from "../../src/service-context.js";
import { type WriteRecord, insertWrite } from "../../src/storage/writes.js";
import type { OperationPayload } from "../../src/writes/operation-planner.js";

/** A call with no effect (an empty call to an account without code). */
export const emptyCall = { to: `0x${"22".repeat(20)}`, data: "0x" };

/**
 * A sponsored, signed UserOperation of `owner`'s user wallet built by hand (not through the service),
 * for tests that feed the writers operations the service would never sign (expired, badly signed).
 */
export async function opFor(
  ctx: ServiceContext,
  owner: BaseWallet,
  nonce: bigint,
  options: { validForSeconds?: number; signer?: BaseWallet; call?: { to: string; data: string } } = {},
): Promise<UserOperation> {
  const sender = computeWalletAddress(ctx.addresses.factory, owner.address, W_SALT);
  const block = await ctx.provider.getBlock("latest");
  const now = Math.max(Math.floor(Date.now() / 1000), block!.timestamp);
  const op = buildUserOperation({
    sender,
    nonce,
    callData: encodeExecute(options.call ?? emptyCall),
    initCode: nonce === 0n ? encodeInitCode(ctx.addresses.factory, owner.address, W_SALT) : "0x",
    maxFeePerGas: 3_000_000_000n,
  });
  const sponsored = await sponsorUserOperation(op, {
    paymaster: ctx.addresses.paymaster,
    signer: new Wallet(developmentKey(1)),
    chainId: ctx.chainId,
    paymasterNonce: nonce,
    window: { validAfter: now - 10, validUntil: now + (options.validForSeconds ?? 300) },
  });
  return signUserOperation(sponsored, options.signer ?? owner, { entryPoint: ctx.addresses.entryPoint, chainId: ctx.chainId });
}

/** Records `op` as a user_operation write of the service's bundler queue (as SponsoredOperations would), inside `tx` when given. */
export async function recordOperation(ctx: ServiceContext, op: UserOperation, tx: Queryable = ctx.db): Promise<WriteRecord> {
  const userOpHash = getUserOpHash(op, ctx.addresses.entryPoint, ctx.chainId);
  const payload: OperationPayload = {
    op: userOperationToRpc(op),
    userOpHash,
    sender: op.sender,
    deploysWallet: op.initCode !== "0x",
    shape: "operation",
    known: {},
    sponsorship: { scopes: [], reservedWei: "0", reservedAt: new Date().toISOString() },
  };
  const validUntil = Number(BigInt(`0x${op.paymasterAndData.slice(42, 106)}`));
  const { record } = await insertWrite(tx, {
    kind: "user_operation",
    signer: ctx.signers.bundler,
    scope: "test",
    idempotencyKey: null,
    requestHash: userOpHash,
    payload: payload as unknown as Record<string, unknown>,
    validUntil: validUntil > 0 ? new Date(validUntil * 1000) : null,
  });
  return record;
}
