// Every target calls settle() once its set-up is done, just before it reports ready: one full garbage
// collection (targets run with --expose-gc), the same for every target so the comparison stays even;
// `run.mjs --settle off` measures without it. Why: it was added when most Slotgate processes ran 1.7x
// slower after their set-up requests; the cause, Express's per-request prototype swap, is gone since
// (docs/decisions/server.md, "HTTP server classes"), and a Slotgate process now has two validate speeds
// on Node 20 of which the collection always picks the slower (docs/benchmarks.md): kept for steadier,
// conservative figures.
export function settle() {
  if (process.env.BENCH_SETTLE === "off") return;
  if (typeof globalThis.gc !== "function") throw new Error("settle(): start the target with --expose-gc");
  globalThis.gc();
}
