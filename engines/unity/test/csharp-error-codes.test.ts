/**
 * The package's error codes are the CLI's: every SlotgateLoginError value (under Mono) has the string code of one
 * member of @slotgate/game-sdk-bridge's GameSdkBridgeErrorCode, each member is some value's code, and a code parses
 * back to its value.
 */
import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";
import { cliErrorCodes } from "../../test-support/cli-error-codes.js";
import { compileHarness } from "./compile-csharp.js";

it("every SlotgateLoginError but None has one of the CLI's codes, each CLI code is one value's, and each parses back", () => {
  const stdout = execFileSync("mono", [compileHarness().exe, "codes"], { encoding: "utf8" });
  const lines = stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { Error: string; ErrorCode: string | null; Parsed: string });
  expect(lines[0]).toEqual({ Error: "None", ErrorCode: null, Parsed: "None" });
  const errors = lines.slice(1);
  expect(cliErrorCodes()).toHaveLength(13);
  expect(errors.map((l) => l.ErrorCode)).toEqual(cliErrorCodes());
  for (const line of errors) {
    expect(line.Parsed, line.ErrorCode!).toBe(line.Error);
    // The enum name is the code in PascalCase (AccessDenied is access_denied).
    expect(line.Error).toBe(line.ErrorCode!.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase()));
  }
});
