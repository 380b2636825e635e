/**
 * The CLI's error codes, the list every engine's codes are pinned to: the members of @slotgate/game-sdk-bridge's
 * `GameSdkBridgeErrorCode` union, in the order its source declares them (a type has no runtime value, so they are
 * read from `src/errors.ts`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The members of the CLI's `GameSdkBridgeErrorCode` union, in declaration order. */
export function cliErrorCodes(): string[] {
  const source = readFileSync(join(import.meta.dirname, "../../packages/game-sdk-bridge/src/errors.ts"), "utf8");
  const union = /export type GameSdkBridgeErrorCode =([^;]+);/.exec(source)?.[1];
  if (union === undefined) throw new Error("GameSdkBridgeErrorCode not found in packages/game-sdk-bridge/src/errors.ts");
  return [...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]!);
}
