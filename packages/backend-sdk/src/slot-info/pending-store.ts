/** The query parameters of the service's callback to `redirectUri` (spec 4.4 step 2). */
export interface CallbackParams {
  state: string;
  code?: string;
  /** `"1"` on success. */
  success?: string;
  /** The service's error code on failure, when it sent one. */
  error?: string;
}

/**
 * A pending store shared by several backend instances, so that the service's
 * callback may land on any instance and still resolve the `getSlotInfo` call
 * waiting on another. `RedisPendingStore` (`@slotgate/backend-sdk/redis`)
 * implements it; implement it yourself for another shared medium.
 *
 * Every pending state is owned by one instance. The instance that receives a
 * callback takes the state (atomically: exactly one taker wins) and forwards
 * the callback to its owner, which exchanges the code.
 *
 * @example
 * ```ts
 * import Redis from "ioredis";
 * import { RedisPendingStore } from "@slotgate/backend-sdk/redis";
 * const slotgate = new SlotgateBackend({ ...options, pendingStore: new RedisPendingStore({ redis: new Redis() }) });
 * ```
 */
export interface PendingStore {
  /** Start delivering callbacks forwarded to `instanceId` to `onCallback`. Called once, before the instance's first `add`. */
  attach(instanceId: string, onCallback: (callback: CallbackParams) => void): Promise<void>;
  /** Record that `state` is pending on `instanceId`, for at most `ttlMs`. */
  add(state: string, instanceId: string, ttlMs: number): Promise<void>;
  /** Atomically remove `state` and return its owner, or `null` if it is unknown, expired or already taken. */
  take(state: string): Promise<string | null>;
  /** Forget `state` (after a timeout, an abort or shutdown). */
  remove(state: string): Promise<void>;
  /** Deliver a callback to the instance that owns its state; resolves `false` when no instance listened. */
  forward(instanceId: string, callback: CallbackParams): Promise<boolean>;
  /** Stop delivering to `instanceId` and free what `attach` opened. */
  detach(instanceId: string): Promise<void>;
}
