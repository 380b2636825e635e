import { LIMITS, type SlotInfo } from "@slotgate/protocol";
import { SlotgateBackendError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type ExchangeContext, callAuthorize, exchangeCode } from "./exchange.js";
import { assertUsableJwt } from "./jwt-expiry.js";
import type { CallbackParams, PendingStore } from "./pending-store.js";
import { isWellFormedState, randomToken } from "./state.js";

/** Options of {@link SlotgateBackend.getSlotInfo}. */
export interface GetSlotInfoOptions {
  /**
   * How long to wait for the callback and the code exchange, in milliseconds.
   * @default 15000
   */
  timeout?: number;
  /** Aborts the call: it rejects with `aborted` and its requests are cancelled. */
  signal?: AbortSignal;
}

interface Pending {
  readonly state: string;
  readonly controller: AbortController;
  readonly resolve: (info: SlotInfo) => void;
  readonly reject: (err: SlotgateBackendError) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  unlinkSignal: (() => void) | undefined;
  settled: boolean;
  callbackSeen: boolean;
  /** Whether the state left the shared store already (taken by its waiter). */
  taken: boolean;
  /** Stops the wait on the shared store once the call settled. */
  readonly stopWaiting: AbortController;
}

/** Extra time a shared-store entry outlives its call, so a slow hand-over still finds it. */
const STORE_GRACE_MS = 5_000;
/** How often a waiter reads the shared store when the store does not say. */
const DEFAULT_POLL_MS = 250;
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * The pending-state map of spec 4.13 and the callback dispatch, optionally
 * backed by a shared {@link PendingStore}.
 */
export class SlotInfoFlow {
  readonly #pending = new Map<string, Pending>();
  readonly #ctx: ExchangeContext;
  readonly #logger: Logger;
  readonly #store: PendingStore | undefined;
  #closed = false;

  constructor(ctx: ExchangeContext, logger: Logger, store: PendingStore | undefined) {
    this.#ctx = ctx;
    this.#logger = logger;
    this.#store = store;
  }

  /** Number of calls waiting for their callback. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  start(jwt: unknown, options: GetSlotInfoOptions = {}): Promise<SlotInfo> {
    try {
      const { timeout, signal } = validateOptions(options);
      assertUsableJwt(jwt, Date.now());
      if (this.#closed) throw new SlotgateBackendError("shutdown");
      if (signal?.aborted) throw new SlotgateBackendError("aborted", { cause: signal.reason });
      return this.#begin(jwt, timeout, signal);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  #begin(jwt: string, timeout: number, signal: AbortSignal | undefined): Promise<SlotInfo> {
    const state = randomToken();
    let entry!: Pending;
    const promise = new Promise<SlotInfo>((resolve, reject) => {
      entry = {
        state,
        controller: new AbortController(),
        resolve,
        reject,
        timer: undefined,
        unlinkSignal: undefined,
        settled: false,
        callbackSeen: false,
        taken: false,
        stopWaiting: new AbortController(),
      };
    });
    this.#pending.set(state, entry);
    entry.timer = setTimeout(() => {
      this.#fail(entry, new SlotgateBackendError("callback_timeout", entry.callbackSeen ? { detail: "the code exchange did not finish in time" } : {}));
    }, timeout);
    if (signal) {
      const onAbort = () => this.#fail(entry, new SlotgateBackendError("aborted", { cause: signal.reason }));
      signal.addEventListener("abort", onAbort, { once: true });
      entry.unlinkSignal = () => signal.removeEventListener("abort", onAbort);
    }
    void this.#authorize(entry, jwt, timeout);
    return promise;
  }

  async #authorize(entry: Pending, jwt: string, timeout: number): Promise<void> {
    const store = this.#store;
    if (store) {
      try {
        await store.add(entry.state, timeout + STORE_GRACE_MS);
      } catch (cause) {
        this.#fail(entry, new SlotgateBackendError("store_error", { cause }));
        return;
      }
      if (entry.settled) {
        // Settled while registering: its removal may have run before the key existed.
        store.remove(entry.state).catch((cause: unknown) => {
          this.#logger.warn("could not remove a pending state from the store", { cause: String(cause) });
        });
        return;
      }
      void this.#awaitStore(store, entry);
    }
    if (entry.settled) return;
    try {
      await callAuthorize(this.#ctx, jwt, entry.state, entry.controller.signal);
    } catch (err) {
      this.#fail(entry, asError(err, "authorize_error"));
    }
  }

  /**
   * Waits on the shared store for the callback of `entry` (delivered by whichever instance received
   * it): takes it every poll interval, or sooner when the store announces it.
   */
  async #awaitStore(store: PendingStore, entry: Pending): Promise<void> {
    const pollMs = store.pollIntervalMs ?? DEFAULT_POLL_MS;
    const stop = entry.stopWaiting.signal;
    let warned = false;
    // Until the call settles, or its callback arrived here directly (then the exchange is under way).
    while (!stop.aborted && !entry.callbackSeen) {
      const tick = new AbortController();
      const onStop = () => tick.abort();
      stop.addEventListener("abort", onStop, { once: true });
      try {
        // Listen before reading, so a completion between the read and the wait is not missed.
        const announced = store.completed ? Promise.resolve(store.completed(entry.state, tick.signal)).catch(() => undefined) : undefined;
        const params = await store.take(entry.state);
        if (params) entry.taken = true; // take removed the key
        if (params && !stop.aborted && !entry.callbackSeen) {
          this.#deliver(params);
          return;
        }
        if (!stop.aborted) await Promise.race([sleep(pollMs, tick.signal), ...(announced ? [announced] : [])]);
      } catch (cause) {
        if (!warned) this.#logger.warn("could not read the pending store; retrying until the call times out", { cause: String(cause) });
        warned = true;
        await sleep(pollMs, tick.signal);
      } finally {
        tick.abort();
        stop.removeEventListener("abort", onStop);
      }
    }
  }

  /**
   * Handles a callback that reached this instance (the answer does not wait for it). Delivered here
   * when its call waits here; otherwise, with a shared store, handed to the waiter through the store.
   * Resolves once handed over.
   */
  async receive(params: CallbackParams): Promise<void> {
    if (!isWellFormedState(params.state)) {
      this.#logger.debug("callback ignored: malformed state");
      return;
    }
    const store = this.#store;
    if (this.#pending.has(params.state) || !store) {
      this.#deliver(params);
      return;
    }
    let delivered: boolean;
    try {
      delivered = await store.complete(params.state, params);
    } catch (cause) {
      this.#logger.error("callback dropped: the pending store failed", { cause: String(cause) });
      return;
    }
    if (!delivered) this.#logger.debug("callback ignored: unknown, late or repeated state");
  }

  /** Settles the local pending call for this callback, if there is one still waiting. */
  #deliver(params: CallbackParams): void {
    const entry = this.#pending.get(params.state);
    if (!entry || entry.settled || entry.callbackSeen) {
      this.#logger.debug("callback ignored: unknown, late or repeated state");
      return;
    }
    entry.callbackSeen = true;
    if (params.success !== "1") {
      this.#fail(
        entry,
        new SlotgateBackendError("callback_rejected", {
          ...(params.error ? { error: params.error, detail: params.error } : {}),
        }),
      );
      return;
    }
    if (!params.code) {
      this.#fail(entry, new SlotgateBackendError("callback_rejected", { detail: "the callback carried no code" }));
      return;
    }
    exchangeCode(this.#ctx, params.code, entry.controller.signal).then(
      (info) => {
        if (entry.settled) return;
        // Nothing is in flight any more: no need to abort (an abort costs a DOMException).
        this.#settle(entry, false);
        entry.resolve(info);
      },
      (err: unknown) => this.#fail(entry, asError(err, "token_exchange_error")),
    );
  }

  #settle(entry: Pending, abortRequests: boolean): void {
    entry.settled = true;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.unlinkSignal?.();
    entry.unlinkSignal = undefined;
    if (abortRequests) entry.controller.abort();
    this.#pending.delete(entry.state);
    entry.stopWaiting.abort();
    this.#removeFromStore(entry);
  }

  #removeFromStore(entry: Pending): void {
    if (!this.#store || entry.taken) return;
    entry.taken = true;
    this.#store.remove(entry.state).catch((cause: unknown) => {
      this.#logger.warn("could not remove a pending state from the store", { cause: String(cause) });
    });
  }

  #fail(entry: Pending, err: SlotgateBackendError): void {
    if (entry.settled) return;
    this.#settle(entry, true);
    entry.reject(err);
  }

  /** Rejects every pending call with `shutdown` at once, then releases what the shared store opened for waiting. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    for (const entry of [...this.#pending.values()]) this.#fail(entry, new SlotgateBackendError("shutdown"));
    await this.#store?.close?.();
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function asError(err: unknown, code: "authorize_error" | "token_exchange_error"): SlotgateBackendError {
  return err instanceof SlotgateBackendError ? err : new SlotgateBackendError(code, { cause: err });
}

function validateOptions(options: GetSlotInfoOptions): { timeout: number; signal: AbortSignal | undefined } {
  if (options === null || typeof options !== "object") {
    throw new SlotgateBackendError("invalid_argument", { detail: "options must be an object" });
  }
  const timeout = options.timeout ?? LIMITS.getSlotInfoTimeoutMs;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0 || timeout > MAX_TIMEOUT_MS) {
    throw new SlotgateBackendError("invalid_argument", { detail: "timeout must be a positive number of milliseconds" });
  }
  const signal = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new SlotgateBackendError("invalid_argument", { detail: "signal must be an AbortSignal" });
  }
  return { timeout, signal };
}
