import type { Options } from "tsup";

/**
 * The build of a Slotgate Node library package: ESM + CJS + type declarations for Node 20, with
 * source maps, from `entry` (plus any package-specific `options`).
 *
 * @example
 * ```ts
 * // packages/<name>/tsup.config.ts
 * import { nodeLibrary } from "../../tsup.library.js";
 * export default nodeLibrary(["src/index.ts"]);
 * ```
 */
export function nodeLibrary(entry: Options["entry"], options: Options = {}): Options {
  return { entry, format: ["esm", "cjs"], dts: true, sourcemap: true, clean: true, target: "node20", ...options };
}
