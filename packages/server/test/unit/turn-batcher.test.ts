import { describe, expect, it } from "vitest";
import { TurnBatcher } from "../../src/platform/turn-batcher.js";

interface Item {
  key: string;
  value: number;
}

function recorder(fail?: (batch: Item[]) => boolean) {
  const batches: Item[][] = [];
  const batcher = (options: { retrySingly?: boolean; maxBatch?: number } = {}) =>
    new TurnBatcher<Item, number>({
      key: (item) => item.key,
      async write(batch) {
        batches.push(batch);
        if (fail?.(batch)) throw new Error(`batch of ${batch.length} failed`);
        return new Map(batch.filter((i) => i.value >= 0).map((i) => [i.key, i.value * 10]));
      },
      ...options,
    });
  return { batches, batcher };
}

describe("TurnBatcher", () => {
  it("writes everything submitted in one event-loop turn as one batch", async () => {
    const { batches, batcher } = recorder();
    const b = batcher();
    const results = await Promise.all([1, 2, 3].map((v) => b.submit({ key: `k${v}`, value: v })));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toHaveLength(1);
  });

  it("never puts two items with the same key in one batch, and keeps their order", async () => {
    const { batches, batcher } = recorder();
    const b = batcher();
    await Promise.all([b.submit({ key: "a", value: 1 }), b.submit({ key: "a", value: 2 }), b.submit({ key: "b", value: 3 })]);
    expect(batches.map((batch) => batch.map((i) => i.value))).toEqual([[1, 3], [2]]);
  });

  it("starts a key's next batch only after the write holding that key finished (two statements never race on one key)", async () => {
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const b = new TurnBatcher<Item, number>({
      key: (item) => item.key,
      async write(batch) {
        const name = batch.map((i) => `${i.key}${i.value}`).join("+");
        events.push(`start ${name}`);
        if (batch.some((i) => i.value === 1)) await held;
        events.push(`end ${name}`);
        return new Map(batch.map((i) => [i.key, i.value]));
      },
    });
    const first = b.submit({ key: "a", value: 1 });
    const second = b.submit({ key: "a", value: 2 });
    const other = b.submit({ key: "b", value: 3 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // a2 waits while a1's write is held, though many turns passed; b3 went with a1.
    expect(events).toEqual(["start a1+b3"]);
    release();
    expect(await Promise.all([first, second, other])).toEqual([1, 2, 3]);
    expect(events).toEqual(["start a1+b3", "end a1+b3", "start a2", "end a2"]);
  });

  it("splits at maxBatch", async () => {
    const { batches, batcher } = recorder();
    const b = batcher({ maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((v) => b.submit({ key: `k${v}`, value: v })));
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
  });

  it("resolves undefined for an item the write did not store", async () => {
    const { batcher } = recorder();
    const b = batcher();
    const [stored, missing] = await Promise.all([b.submit({ key: "x", value: 1 }), b.submit({ key: "y", value: -1 })]);
    expect(stored).toBe(10);
    expect(missing).toBeUndefined();
  });

  it("rejects the whole batch on failure, unless retrySingly writes each item alone", async () => {
    const poisoned = (batch: Item[]) => batch.some((i) => i.value === 13);
    const plain = recorder(poisoned).batcher();
    const outcomes = await Promise.allSettled([plain.submit({ key: "a", value: 1 }), plain.submit({ key: "b", value: 13 })]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);

    const { batches, batcher } = recorder(poisoned);
    const retrying = batcher({ retrySingly: true });
    const retried = await Promise.allSettled([retrying.submit({ key: "a", value: 1 }), retrying.submit({ key: "b", value: 13 })]);
    expect(retried[0]).toEqual({ status: "fulfilled", value: 10 });
    expect(retried[1]).toMatchObject({ status: "rejected", reason: new Error("batch of 1 failed") });
    expect(batches.map((batch) => batch.length)).toEqual([2, 1, 1]);
  });
});
