// Every target calls settle() once its set-up is done, just before it reports ready: one full garbage
// collection (targets run with --expose-gc). Measured on these machines (docs/benchmarks.md, "Why one
// Slotgate process ran 40 % slower than another"): a Slotgate process whose load begins within ~15 s of
// its set-up requests keeps ~40 % of each scavenge's young objects alive (0.3 % otherwise) and runs its
// JavaScript 1.7x slower for the rest of its life; one full collection before the load, or ~17 s idle
// (when V8's memory reducer runs one), avoids it. Every target gets the same collection, so the
// comparison stays even; `run.mjs --settle off` measures the unsettled state.
export function settle() {
  if (process.env.BENCH_SETTLE === "off") return;
  if (typeof globalThis.gc !== "function") throw new Error("settle(): start the target with --expose-gc");
  globalThis.gc();
}
