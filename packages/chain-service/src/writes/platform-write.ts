import type { Queryable } from "@slotgate/storage";
import type { ServiceContext } from "../service-context.js";
import type { WriteRecord } from "../storage/writes.js";
import { revertError, specificError } from "../chain/revert-error.js";
import type { CallAnswer } from "./answers.js";
import type { WriteEffects } from "./effects.js";
import { type PendingWrite, type WriteIdentity, identityFields, requestHash } from "./engine.js";
import type { CallPayload } from "./operator-planner.js";

/** One transaction a platform key sends for a request. */
export interface PlatformCall {
  to: string;
  data: string;
  /** How the endpoint's answer is read from the receipt. */
  answer: CallAnswer;
  /** Bookkeeping when it lands or fails. */
  effects?: WriteEffects;
}

/**
 * @internal The identity of a platform-internal write (start-up, operator commands, development
 * funding): no idempotency key, owned by the platform.
 *
 * @example
 * ```ts
 * await platformWrite(ctx, platformIdentity("enableRelease", [cuid]), call);
 * ```
 */
export function platformIdentity(method: string, args: readonly unknown[]): WriteIdentity {
  return { scope: "platform", idempotencyKey: null, requestHash: requestHash(method, args) };
}

/**
 * @internal Sends a platform key's transaction for a request, exactly once (a repeat under the same
 * idempotency key is answered at the surface, and at worst finds the earlier write when it records): the call is estimated first (a call that would revert
 * is refused with its specific error and nothing is recorded), recorded as a durable write that the
 * key's writer sends, and waited for. Answers the endpoint's answer, or a {@link PendingWrite} when it
 * did not land within the wait.
 */
export async function platformWrite<T extends Record<string, unknown>>(
  ctx: ServiceContext,
  identity: WriteIdentity,
  call: PlatformCall,
): Promise<T | PendingWrite> {
  try {
    await ctx.provider.estimateGas({ from: ctx.signers.operator, to: call.to, data: call.data });
  } catch (error) {
    throw specificError(revertError(error));
  }
  const payload: CallPayload = { to: call.to, data: call.data, answer: call.answer, ...(call.effects ? { effects: call.effects } : {}) };
  const record = await ctx.writes.record({
    kind: "call",
    signer: ctx.signers.operator,
    ...identityFields(identity),
    payload: payload as unknown as Record<string, unknown>,
  });
  return ctx.writes.outcome<T>(record);
}

/**
 * @internal Records a platform key's transaction inside the caller's database transaction `tx`, without
 * estimating or waiting: the write lands once, whichever instance's writer sends it (the writer refuses
 * it then if it would revert). Wake its writer with `ctx.writes.wake(record)` once `tx` committed.
 *
 * @example
 * ```ts
 * const record = await ctx.db.transaction((tx) => enqueuePlatformWrite(ctx, identity, call, tx));
 * ctx.writes.wake(record);
 * ```
 */
export async function enqueuePlatformWrite(ctx: ServiceContext, identity: WriteIdentity, call: PlatformCall, tx: Queryable): Promise<WriteRecord> {
  const payload: CallPayload = { to: call.to, data: call.data, answer: call.answer, ...(call.effects ? { effects: call.effects } : {}) };
  return ctx.writes.record(
    { kind: "call", signer: ctx.signers.operator, ...identityFields(identity), payload: payload as unknown as Record<string, unknown> },
    tx,
  );
}
