/**
 * A shared pending store on Redis (ioredis 5), so that the service's callback may reach any backend
 * instance or serverless function and still complete the `getSlotInfo` call waiting in another.
 * Separate entry point: the core package never imports ioredis.
 *
 * How it works: each pending state is a mailbox key `{prefix}wait:{state}` holding `pending`, with a
 * TTL of the call's timeout plus 5 s. The instance that receives a callback replaces `pending` with
 * the callback's parameters (a Lua compare-and-set, so exactly one callback per state is delivered and
 * repeats are ignored everywhere) and publishes the state on `{prefix}completed`; the waiter, woken by
 * that message or by its poll every second, takes the parameters (read and delete, atomically) and
 * exchanges the code itself, so no access token ever passes through Redis. The callback needs only the
 * state to find its waiter. Needs Redis ≥ 6.0 (`KEEPTTL`).
 *
 * @example
 * ```ts
 * import Redis from "ioredis";
 * import { SlotgateBackend } from "@slotgate/backend-sdk";
 * import { RedisPendingStore } from "@slotgate/backend-sdk/redis";
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const slotgate = new SlotgateBackend({ ...options, pendingStore: new RedisPendingStore({ redis }) });
 * ```
 *
 * @packageDocumentation
 */
import type { Redis } from "ioredis";
import { type CallbackParams, type PendingStore, isCallbackParams } from "./slot-info/pending-store.js";

/** Options of {@link RedisPendingStore}. */
export interface RedisPendingStoreOptions {
  /** Your ioredis client. It is used for keys and PUBLISH; a duplicate of it subscribes while calls wait. You keep ownership of it. */
  redis: Redis;
  /**
   * Prefix of every key and of the channel. Every instance that shares the logins must use the same one.
   * @default "slotgate:"
   */
  keyPrefix?: string;
  /**
   * How often a waiting call reads its key, in milliseconds, in case a pub/sub message was lost
   * (pub/sub delivers at most once). The message normally wakes it at once.
   * @default 1000
   */
  pollIntervalMs?: number;
  /**
   * Whether a waiting call is woken by pub/sub (one extra connection per store, opened by the first `add`).
   * `false` leaves only the poll: no subscriber connection — for serverless functions where every instance's
   * connections count against the Redis plan; lower `pollIntervalMs` then (e.g. 200).
   * @default true
   */
  subscribe?: boolean;
}

const PENDING = "pending";

/** KEYS[1] the mailbox; ARGV[1] the callback JSON, ARGV[2] the channel, ARGV[3] the state. */
const COMPLETE = `if redis.call('GET', KEYS[1]) == '${PENDING}' then
  redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
  redis.call('PUBLISH', ARGV[2], ARGV[3])
  return 1
end
return 0`;

/** KEYS[1] the mailbox: its callback JSON, deleted, or nil while pending or unknown. */
const TAKE = `local v = redis.call('GET', KEYS[1])
if v and v ~= '${PENDING}' then
  redis.call('DEL', KEYS[1])
  return v
end
return false`;

/**
 * {@link PendingStore} on Redis: `SET NX PX` to register, a Lua compare-and-set plus `PUBLISH` to
 * complete, a Lua read-and-delete to take, `SUBSCRIBE` (one connection per store, opened while calls
 * wait) to wake the waiter.
 *
 * @example
 * ```ts
 * const store = new RedisPendingStore({ redis: new Redis("redis://127.0.0.1:6379"), keyPrefix: "mygame:slotgate:" });
 * ```
 */
export class RedisPendingStore implements PendingStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly pollIntervalMs: number;
  readonly #subscribeEnabled: boolean;
  /** States added through this store and not yet taken or removed. */
  readonly #mine = new Set<string>();
  /** Of those, the ones whose completion was announced before anyone waited for it. */
  readonly #announced = new Set<string>();
  readonly #wakers = new Map<string, Set<() => void>>();
  #subscriber: Redis | undefined;
  #subscribed: Promise<void> | undefined;

  constructor(options: RedisPendingStoreOptions) {
    if (!options || typeof options !== "object" || !options.redis || typeof options.redis.duplicate !== "function") {
      throw new TypeError("RedisPendingStore needs { redis: an ioredis client }");
    }
    const prefix = options.keyPrefix ?? "slotgate:";
    if (typeof prefix !== "string") throw new TypeError("keyPrefix must be a string");
    const poll = options.pollIntervalMs ?? 1000;
    if (typeof poll !== "number" || !Number.isFinite(poll) || poll < 10) throw new TypeError("pollIntervalMs must be a number of milliseconds ≥ 10");
    this.#redis = options.redis;
    this.#prefix = prefix;
    this.pollIntervalMs = poll;
    this.#subscribeEnabled = options.subscribe ?? true;
  }

  #key(state: string): string {
    return `${this.#prefix}wait:${state}`;
  }

  get #channel(): string {
    return `${this.#prefix}completed`;
  }

  #onMessage = (channel: string, state: string): void => {
    if (channel !== this.#channel || !this.#mine.has(state)) return;
    const wakers = this.#wakers.get(state);
    if (wakers?.size) for (const wake of [...wakers]) wake();
    else this.#announced.add(state);
  };

  /** Subscribes once (again after {@link close}); a failed subscription is retried by the next `add`. */
  #subscribe(): Promise<void> {
    if (!this.#subscribed) {
      const sub = this.#redis.duplicate();
      sub.on("message", this.#onMessage);
      // Errors surface through the subscribe call; the poll covers a subscriber that drops later.
      sub.on("error", () => undefined);
      this.#subscriber = sub;
      const subscribed = sub.subscribe(this.#channel).then(() => undefined);
      this.#subscribed = subscribed;
      subscribed.catch(() => {
        if (this.#subscribed !== subscribed) return;
        this.#subscribed = undefined;
        this.#subscriber = undefined;
        sub.disconnect();
      });
    }
    return this.#subscribed;
  }

  async add(state: string, ttlMs: number): Promise<void> {
    // Listen before the state exists, so no completion is announced unheard.
    if (this.#subscribeEnabled) await this.#subscribe();
    const ok = await this.#redis.set(this.#key(state), PENDING, "PX", Math.ceil(ttlMs), "NX");
    if (ok !== "OK") throw new Error("pending state already registered");
    this.#mine.add(state);
  }

  async complete(state: string, callback: CallbackParams): Promise<boolean> {
    const done = await this.#redis.eval(COMPLETE, 1, this.#key(state), JSON.stringify(callback), this.#channel, state);
    return done === 1;
  }

  async take(state: string): Promise<CallbackParams | null> {
    const raw = await this.#redis.eval(TAKE, 1, this.#key(state));
    if (typeof raw !== "string") return null;
    this.#forget(state);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return null;
    }
    return isCallbackParams(parsed) && parsed.state === state ? parsed : null;
  }

  async remove(state: string): Promise<void> {
    this.#forget(state);
    await this.#redis.del(this.#key(state));
  }

  completed(state: string, signal: AbortSignal): Promise<void> {
    if (this.#announced.delete(state) || signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const set = this.#wakers.get(state) ?? new Set<() => void>();
      this.#wakers.set(state, set);
      const wake = () => {
        set.delete(wake);
        if (set.size === 0 && this.#wakers.get(state) === set) this.#wakers.delete(state);
        signal.removeEventListener("abort", wake);
        resolve();
      };
      set.add(wake);
      signal.addEventListener("abort", wake, { once: true });
    });
  }

  #forget(state: string): void {
    this.#mine.delete(state);
    this.#announced.delete(state);
  }

  /** Closes the subscriber connection (reopened by the next `add`); your own client stays open. */
  async close(): Promise<void> {
    const sub = this.#subscriber;
    const subscribed = this.#subscribed;
    this.#subscriber = undefined;
    this.#subscribed = undefined;
    if (!sub) return;
    await subscribed?.catch(() => undefined);
    try {
      await sub.quit();
    } catch {
      sub.disconnect();
    }
  }
}

export type { CallbackParams, PendingStore } from "./slot-info/pending-store.js";
