// The one naming scheme of benchmark results, for every bench in bench/*:
//
//   bench/results/<bench>[-<variant>]-node<major>-<YYYY-MM-DD>.json
//
// e.g. server-node20-2026-11-24.json, chain-spends-node20-2026-11-24.json. A run overwrites the day's
// file of its bench, variant and Node line; older runs stay in git history. docs/benchmarks.md quotes
// the latest file of each.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "results");

/**
 * The default results file of a run of `bench` with `variants` (the options that change what is
 * measured; empty for the bench's default run), today, on this Node line. Creates bench/results.
 *
 * @example
 * resultsFile("pin-flood", ["pglite"]); // …/bench/results/pin-flood-pglite-node20-2026-11-24.json
 */
export function resultsFile(bench, variants = [], date = new Date()) {
  mkdirSync(dir, { recursive: true });
  const node = process.versions.node.split(".")[0];
  return join(dir, `${[bench, ...variants].join("-")}-node${node}-${date.toISOString().slice(0, 10)}.json`);
}
