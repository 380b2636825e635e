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
  /** Whether the state left the shared store already (taken by a callback). */
  taken: boolean;
}

/** Extra time a shared-store entry outlives its call, so a slow forward still finds it. */
const STORE_GRACE_MS = 5_000;
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
  readonly #instanceId = randomToken(16);
  #attached: Promise<void> | undefined;
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
      };
    });
    this.#pending.set(state, entry);
    entry.timer = setTimeout(() => {
      this.#fail(
        entry,
        new SlotgateBackendError("callback_timeout", entry.callbackSeen ? { detail: "the code exchange did not finish in time" } : {}),
      );
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
        if (!this.#attached) {
          const attaching = store.attach(this.#instanceId, (cb) => this.#deliver(cb));
          this.#attached = attaching;
          // A failed attach is retried by the next call.
          attaching.catch(() => {
            if (this.#attached === attaching) this.#attached = undefined;
          });
        }
        await this.#attached;
        if (entry.settled) return;
        await store.add(entry.state, this.#instanceId, timeout + STORE_GRACE_MS);
      } catch (cause) {
        this.#fail(entry, new SlotgateBackendError("store_error", { cause }));
        return;
      }
    }
    if (entry.settled) return;
    try {
      await callAuthorize(this.#ctx, jwt, entry.state, entry.controller.signal);
    } catch (err) {
      this.#fail(entry, asError(err, "authorize_error"));
    }
  }

  /** Handles a callback that arrived at this instance (already answered with 200). */
  async receive(params: CallbackParams): Promise<void> {
    if (!isWellFormedState(params.state)) {
      this.#logger.debug("callback ignored: malformed state");
      return;
    }
    const store = this.#store;
    if (store) {
      let owner: string | null;
      try {
        owner = await store.take(params.state);
      } catch (cause) {
        this.#logger.error("callback dropped: the pending store failed", { cause: String(cause) });
        return;
      }
      if (owner === null) {
        this.#logger.debug("callback ignored: unknown, late or repeated state");
        return;
      }
      if (owner !== this.#instanceId) {
        try {
          if (!(await store.forward(owner, params))) this.#logger.warn("callback dropped: its instance no longer listens");
        } catch (cause) {
          this.#logger.error("callback dropped: forwarding failed", { cause: String(cause) });
        }
        return;
      }
    }
    this.#deliver(params);
  }

  /** Settles the local pending call for this callback, if there is one still waiting. */
  #deliver(params: CallbackParams): void {
    const entry = this.#pending.get(params.state);
    if (!entry || entry.settled || entry.callbackSeen) {
      this.#logger.debug("callback ignored: unknown, late or repeated state");
      return;
    }
    entry.callbackSeen = true;
    entry.taken = true;
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
    if (this.#store && !entry.taken) {
      entry.taken = true;
      this.#store.remove(entry.state).catch((cause: unknown) => {
        this.#logger.warn("could not remove a pending state from the store", { cause: String(cause) });
      });
    }
  }

  #fail(entry: Pending, err: SlotgateBackendError): void {
    if (entry.settled) return;
    this.#settle(entry, true);
    entry.reject(err);
  }

  /** Rejects every pending call with `shutdown` at once, then detaches from the shared store. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    for (const entry of [...this.#pending.values()]) this.#fail(entry, new SlotgateBackendError("shutdown"));
    const attached = this.#attached;
    this.#attached = undefined;
    if (this.#store && attached) {
      await attached.catch(() => undefined);
      await this.#store.detach(this.#instanceId);
    }
  }
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
