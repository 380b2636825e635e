import { createHash } from "node:crypto";
import { type ChainWriteResponse, type PendingWriteResponse, isPendingWrite } from "@slotgate/protocol";
import type { Database, Queryable } from "@slotgate/storage";
import { ChainServiceError, type ChainServiceErrorCode } from "../errors.js";
import { type NewWrite, type WriteRecord, findWrite, findWriteByKey, findWrites, insertWrite } from "../storage/writes.js";

/** Whose write it is and how a retry finds it: the idempotency identity of a request. */
export interface WriteIdentity {
  /** `client:<client_id>` or `user:<user_uuid>`: idempotency keys are unique per scope. */
  scope: string;
  /** The request's `Idempotency-Key`, or null (no deduplication). */
  idempotencyKey: string | null;
  /** SHA-256 of the request's canonical arguments ({@link requestHash}). */
  requestHash: string;
  /** The request id, for logs. */
  requestId?: string | null;
}

/** @internal The fields of a new write that its request's identity gives (scope, key, hash, request id). */
export function identityFields(identity: WriteIdentity): Pick<NewWrite, "scope" | "idempotencyKey" | "requestHash" | "requestId"> {
  return { scope: identity.scope, idempotencyKey: identity.idempotencyKey, requestHash: identity.requestHash, requestId: identity.requestId ?? null };
}

/** A write accepted and recorded but not landed within the wait (HTTP 202): the protocol's {@link PendingWriteResponse}. */
export type PendingWrite = PendingWriteResponse;

/** What `GET /v1/chain/writes/{id}` answers: the protocol's {@link ChainWriteResponse}. */
export type WriteStatusAnswer = ChainWriteResponse;

/**
 * @internal The answer of a write that must have landed before the caller goes on (a development
 * funding before its approval, a recovery before its key rotation): a write still pending is
 * `service_unavailable` (it stays recorded and lands; the same request sent again continues).
 */
export function settledAnswer<T>(answer: T | PendingWrite): T {
  if (isPendingWrite(answer)) {
    throw new ChainServiceError("service_unavailable", `the chain has not confirmed write ${answer.write_id} yet; send the same request again shortly`);
  }
  return answer;
}

/** Canonical JSON (sorted keys, bigint as decimal): the same request always hashes the same. */
function canonical(value: unknown): string {
  if (typeof value === "bigint") return JSON.stringify(value.toString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The SHA-256 of a call's canonical arguments: a retry must send the same request; the hash (never the
 * arguments: they may hold PIN shares) is what is kept.
 *
 * @example
 * ```ts
 * requestHash("buyContentToken", [body]); // 64 hex characters
 * ```
 */
export function requestHash(method: string, args: readonly unknown[]): string {
  return createHash("sha256")
    .update(canonical([method, ...args]))
    .digest("hex");
}

/**
 * The idempotency rule, in this one place: a write recorded earlier under a request's idempotency key
 * answers a repeat of the same request (the same {@link requestHash}); another request under the key is
 * refused with `idempotency_key_reused`.
 */
function repeatOf(earlier: WriteRecord, requestHash: string): WriteRecord {
  if (earlier.requestHash !== requestHash) throw new ChainServiceError("idempotency_key_reused");
  return earlier;
}

/** Rolls a recording transaction back ({@link WriteWaits.recordWith}): an earlier write holds the key. */
class EarlierWrite extends Error {
  constructor(readonly record: WriteRecord) {
    super("an earlier write holds this idempotency key");
  }
}

/** Rows asked for, by id, with who asked. */
type DueReads = Map<string, Array<{ resolve: (record: WriteRecord | null) => void; reject: (error: unknown) => void }>>;

/**
 * @internal The requests' side of the durable writes: records a write (or finds the earlier one of
 * the same idempotency key: a different request under it is refused), wakes its writer, and waits for
 * the outcome, for at most `waitMs`; the writers settle writes and call {@link WriteWaits.notify}.
 * Other instances' settlements are seen by polling the row. The waiters' polls fall on the same
 * instants (multiples of `pollMs`) and the rows due at one instant, or woken by one settlement, are
 * read in one statement: a burst of waiting requests costs one read per poll, not one per request.
 */
export class WriteWaits {
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Rows waiters asked for in this turn of the event loop, read together once it ends. */
  #due: DueReads | undefined;

  constructor(
    private readonly o: {
      db: Database;
      waitMs: number;
      kick: (record: WriteRecord) => void;
      /**
       * Turns a confirmed write's stored answer into the answer shown each time it is answered (a
       * provider's first registration shows its key once, see `presentAnswer`).
       */
      present?: (record: WriteRecord) => Promise<Record<string, unknown>>;
      /** How often a waiter looks at its row (settled by another instance), ms. @default 100 */
      pollMs?: number;
    },
  ) {}

  /** Wakes the requests that wait for these writes. */
  notify(ids: readonly string[]): void {
    for (const id of ids) for (const wake of this.#waiters.get(id) ?? []) wake();
  }

  /**
   * Records `write` (inside `tx` when given) unless its idempotency key was used before: answers the
   * write to wait for, the earlier one for a repeat ({@link repeatOf}).
   */
  async record(write: NewWrite, tx?: Queryable): Promise<WriteRecord> {
    const { record, created } = await insertWrite(tx ?? this.o.db, write);
    return created ? record : repeatOf(record, write.requestHash);
  }

  /**
   * Runs `build` in one database transaction and records the write it answers in the same transaction,
   * so that what `build` changed there (a wallet's nonce, a reserved budget, an accepted message nonce)
   * commits with the write or not at all: when a write of the same idempotency key was recorded
   * meanwhile, everything is rolled back and the earlier write is answered ({@link repeatOf}).
   *
   * @example
   * ```ts
   * const record = await ctx.writes.recordWith(async (tx) => ({ ...write, payload: await signedPayload(tx) }));
   * ```
   */
  async recordWith(build: (tx: Queryable) => Promise<NewWrite>): Promise<WriteRecord> {
    try {
      return await this.o.db.transaction(async (tx) => {
        const write = await build(tx);
        const { record, created } = await insertWrite(tx, write);
        if (!created) throw new EarlierWrite(repeatOf(record, write.requestHash));
        return record;
      });
    } catch (cause) {
      if (cause instanceof EarlierWrite) return cause.record;
      throw cause;
    }
  }

  /** Wakes the writer of a recorded write without waiting for it (a write enqueued for later, such as a slot's registration). */
  wake(record: WriteRecord): void {
    this.o.kick(record);
  }

  /** The earlier write of an idempotency identity, or null (checked before costly work such as a PIN unlock). */
  async earlier(identity: WriteIdentity): Promise<WriteRecord | null> {
    if (identity.idempotencyKey === null) return null;
    const record = await findWriteByKey(this.o.db, identity.scope, identity.idempotencyKey);
    return record === null ? null : repeatOf(record, identity.requestHash);
  }

  /** Waits until `record` settles or the wait ends; answers its result, throws its error, or answers a {@link PendingWrite}. */
  async outcome<T extends Record<string, unknown> = Record<string, unknown>>(record: WriteRecord): Promise<T | PendingWrite> {
    this.o.kick(record);
    const settled = await this.#wait(record, Date.now() + this.o.waitMs);
    if (settled.status === "confirmed") return (await this.#present(settled)) as T;
    if (settled.status === "failed" && settled.error) {
      throw new ChainServiceError(
        settled.error.code as ChainServiceErrorCode,
        settled.error.message,
        settled.error.details ? { details: settled.error.details } : {},
      );
    }
    return { success: true, status: "pending", write_id: record.id };
  }

  async #present(record: WriteRecord): Promise<Record<string, unknown>> {
    return this.o.present ? this.o.present(record) : (record.result ?? {});
  }

  /** Reads write `id`, in one statement with the other rows asked for in this turn of the event loop. */
  #read(id: string): Promise<WriteRecord | null> {
    return new Promise((resolve, reject) => {
      let due = this.#due;
      if (due === undefined) {
        const batch: DueReads = new Map();
        due = batch;
        this.#due = batch;
        setImmediate(() => {
          this.#due = undefined;
          findWrites(this.o.db, [...batch.keys()]).then(
            (found) => {
              for (const [key, readers] of batch) for (const reader of readers) reader.resolve(found.get(key) ?? null);
            },
            (error: unknown) => {
              for (const readers of batch.values()) for (const reader of readers) reader.reject(error);
            },
          );
        });
      }
      due.set(id, [...(due.get(id) ?? []), { resolve, reject }]);
    });
  }

  /** Waits for `record` to settle until the deadline; answers its state then. */
  async #wait(record: WriteRecord, deadline: number): Promise<WriteRecord> {
    const pollMs = this.o.pollMs ?? 100;
    let current = record;
    for (;;) {
      if (current.status === "confirmed" || current.status === "failed" || Date.now() >= deadline) return current;
      const id = current.id;
      // The next multiple of pollMs (at most pollMs away): every waiter's poll falls on the same instants.
      const untilPoll = pollMs - (Date.now() % pollMs);
      await new Promise<void>((resolve) => {
        const set = this.#waiters.get(id) ?? new Set();
        const wake = () => {
          clearTimeout(timer);
          set.delete(wake);
          if (set.size === 0) this.#waiters.delete(id);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(untilPoll, Math.max(1, deadline - Date.now())));
        set.add(wake);
        this.#waiters.set(id, set);
      });
      current = (await this.#read(id)) ?? current;
    }
  }

  /** A write's state for its owner (`scope`), or null (unknown or another's). */
  async lookup(scope: string, id: string): Promise<WriteStatusAnswer | null> {
    const record = await findWrite(this.o.db, id);
    return record === null || record.scope !== scope ? null : this.#statusOf(record);
  }

  /** The write recorded under idempotency key `key` in `scope`, as {@link lookup} answers it, or null when there is none. */
  async lookupByKey(scope: string, key: string): Promise<WriteStatusAnswer | null> {
    const record = await findWriteByKey(this.o.db, scope, key);
    return record === null ? null : this.#statusOf(record);
  }

  async #statusOf(record: WriteRecord): Promise<WriteStatusAnswer> {
    return {
      success: true,
      write_id: record.id,
      status: record.status,
      ...(record.status === "confirmed" ? { result: await this.#present(record) } : {}),
      ...(record.status === "failed" && record.error ? { error: { code: record.error.code, message: record.error.message } } : {}),
    };
  }
}
