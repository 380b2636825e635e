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
 * A pending-state store shared by every instance or serverless function of a backend, so that the
 * service's callback may reach any of them and still complete the `getSlotInfo` call waiting in
 * another. `RedisPendingStore` (`@slotgate/backend-sdk/redis`) implements it; implement it yourself on
 * another shared medium (a key-value store over HTTP for edge runtimes, a database table).
 *
 * The state is a mailbox. The waiter registers it ({@link add}); the instance that receives the
 * callback writes the callback's parameters under it ({@link complete}), atomically and only while it
 * is still pending, so exactly one callback per state is ever delivered; the waiter collects them
 * ({@link take}) and exchanges the code itself, so no access token passes through the store. To find
 * its waiter the callback needs nothing but its `state` and the same store: no instance id, no
 * connection to the waiter, no sticky routing.
 *
 * The waiter polls {@link take} every {@link pollIntervalMs}; a store that can push (Redis pub/sub)
 * implements {@link completed} to wake it at once. Keys outlive their call by a few seconds (the
 * `ttlMs` given to `add`), so an abandoned state never lingers.
 *
 * @example
 * ```ts
 * // A store on a key-value API with compare-and-set (sketch): no push, the waiter polls.
 * const store: PendingStore = {
 *   pollIntervalMs: 200,
 *   add: (state, ttlMs) => kv.set(`wait:${state}`, "pending", { px: ttlMs, nx: true }).then(assertSet),
 *   complete: (state, cb) => kv.compareAndSet(`wait:${state}`, "pending", JSON.stringify(cb)),
 *   take: (state) => kv.getDelIfNot(`wait:${state}`, "pending").then((v) => (v ? JSON.parse(v) : null)),
 *   remove: (state) => kv.del(`wait:${state}`),
 * };
 * const slotgate = new SlotgateBackend({ ...options, pendingStore: store });
 * ```
 */
export interface PendingStore {
  /** Register `state` as pending, for at most `ttlMs`. Rejects when it is already registered. */
  add(state: string, ttlMs: number): Promise<void>;
  /**
   * Deliver a callback: if `state` is pending (registered and not yet completed), store `callback`
   * under it, atomically, and resolve `true`; resolve `false` for an unknown, expired or already
   * completed state.
   */
  complete(state: string, callback: CallbackParams): Promise<boolean>;
  /**
   * Collect the callback of `state`: if it was completed, remove it and return its parameters
   * (atomically: at most one caller gets them); `null` while it is still pending or when it is unknown.
   */
  take(state: string): Promise<CallbackParams | null>;
  /** Forget `state` (after a timeout, an abort, a local delivery or shutdown). */
  remove(state: string): Promise<void>;
  /**
   * Optional push: resolves as soon as `state` may have been completed, or when `signal` aborts. It
   * never rejects; a missed notification only costs one poll interval.
   */
  completed?(state: string, signal: AbortSignal): Promise<void>;
  /**
   * How often the waiter calls {@link take}, in milliseconds.
   * @default 250
   */
  readonly pollIntervalMs?: number;
  /** Release what the store opened for waiting (called by `shutdown()`); it may be used again afterwards. */
  close?(): Promise<void>;
}

/** Whether a value read back from a store has the shape of {@link CallbackParams} (the store is a boundary). */
export function isCallbackParams(value: unknown): value is CallbackParams {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.state === "string" &&
    (v.code === undefined || typeof v.code === "string") &&
    (v.success === undefined || typeof v.success === "string") &&
    (v.error === undefined || typeof v.error === "string")
  );
}
