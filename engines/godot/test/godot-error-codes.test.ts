/**
 * The add-on's error codes are the CLI's: under headless Godot, `SlotgateLogin.Codes.ALL` (the one table,
 * addons/slotgate_login/slotgate_error_codes.gd) is @slotgate/game-sdk-bridge's GameSdkBridgeErrorCode in its order,
 * and the table holds nothing else: one constant per code, named after it in upper case, plus ALL.
 */
import { expect, it } from "vitest";
import { cliErrorCodes } from "../../test-support/cli-error-codes.js";
import { runHarness } from "./run-harness.js";

it("SlotgateLogin.Codes.ALL is the CLI's GameSdkBridgeErrorCode list, and each constant is its code in upper case", async () => {
  const run = await runHarness("codes", null);
  expect(run.code).toBe(0);
  const { ALL, constants } = run.result as { ALL: string[]; constants: Record<string, unknown> };
  expect(cliErrorCodes()).toHaveLength(13);
  expect(ALL).toEqual(cliErrorCodes());
  expect(constants).toEqual({ ...Object.fromEntries(cliErrorCodes().map((code) => [code.toUpperCase(), code])), ALL });
});
