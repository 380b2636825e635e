/**
 * A shared pending store on Redis (ioredis 5), so that the service's callback
 * may land on any backend instance behind a load balancer and still resolve
 * the `getSlotInfo` call waiting on another. Separate entry point: the core
 * package never imports ioredis.
 *
 * How it works: each pending state is a key `{prefix}pending:{state}` holding
 * the owner instance's id, with a TTL of the call's timeout plus 5 s. The
 * instance that receives a callback takes the key with `GETDEL` (exactly one
 * taker wins, so a repeated callback is ignored everywhere) and publishes the
 * callback on the owner's channel `{prefix}callback:{instanceId}`; the owner
 * exchanges the code itself, so no access token ever passes through Redis.
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
import type { CallbackParams, PendingStore } from "./slot-info/pending-store.js";

/** Options of {@link RedisPendingStore}. */
export interface RedisPendingStoreOptions {
  /** Your ioredis client. It is used for keys and PUBLISH; a duplicate of it subscribes. You keep ownership of it. */
  redis: Redis;
  /**
   * Prefix of every key and channel.
   * @default "slotgate:"
   */
  keyPrefix?: string;
}

function isCallbackParams(value: unknown): value is CallbackParams {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.state === "string" &&
    (v.code === undefined || typeof v.code === "string") &&
    (v.success === undefined || typeof v.success === "string") &&
    (v.error === undefined || typeof v.error === "string")
  );
}

/**
 * {@link PendingStore} on Redis: `SET NX PX` to register, `GETDEL` to take,
 * `PUBLISH` / `SUBSCRIBE` to forward callbacks to their owner.
 *
 * @example
 * ```ts
 * const store = new RedisPendingStore({ redis: new Redis("redis://127.0.0.1:6379"), keyPrefix: "mygame:slotgate:" });
 * ```
 */
export class RedisPendingStore implements PendingStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #subscribers = new Map<string, Redis>();

  constructor(options: RedisPendingStoreOptions) {
    if (!options || typeof options !== "object" || !options.redis || typeof options.redis.duplicate !== "function") {
      throw new TypeError("RedisPendingStore needs { redis: an ioredis client }");
    }
    const prefix = options.keyPrefix ?? "slotgate:";
    if (typeof prefix !== "string") throw new TypeError("keyPrefix must be a string");
    this.#redis = options.redis;
    this.#prefix = prefix;
  }

  #key(state: string): string {
    return `${this.#prefix}pending:${state}`;
  }

  #channel(instanceId: string): string {
    return `${this.#prefix}callback:${instanceId}`;
  }

  async attach(instanceId: string, onCallback: (callback: CallbackParams) => void): Promise<void> {
    if (this.#subscribers.has(instanceId)) return;
    const sub = this.#redis.duplicate();
    this.#subscribers.set(instanceId, sub);
    const channel = this.#channel(instanceId);
    sub.on("message", (ch: string, message: string) => {
      if (ch !== channel) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(message);
      } catch {
        return;
      }
      if (isCallbackParams(parsed)) onCallback(parsed);
    });
    try {
      await sub.subscribe(channel);
    } catch (err) {
      this.#subscribers.delete(instanceId);
      sub.disconnect();
      throw err;
    }
  }

  async add(state: string, instanceId: string, ttlMs: number): Promise<void> {
    const ok = await this.#redis.set(this.#key(state), instanceId, "PX", Math.ceil(ttlMs), "NX");
    if (ok !== "OK") throw new Error("pending state already registered");
  }

  async take(state: string): Promise<string | null> {
    return this.#redis.getdel(this.#key(state));
  }

  async remove(state: string): Promise<void> {
    await this.#redis.del(this.#key(state));
  }

  async forward(instanceId: string, callback: CallbackParams): Promise<boolean> {
    const receivers = await this.#redis.publish(this.#channel(instanceId), JSON.stringify(callback));
    return receivers > 0;
  }

  async detach(instanceId: string): Promise<void> {
    const sub = this.#subscribers.get(instanceId);
    if (!sub) return;
    this.#subscribers.delete(instanceId);
    try {
      await sub.quit();
    } catch {
      sub.disconnect();
    }
  }
}

export type { CallbackParams, PendingStore } from "./slot-info/pending-store.js";
