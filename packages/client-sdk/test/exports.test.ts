import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as sdk from "../src/index.js";
import * as wallet from "../src/wallet/index.js";

const pkg = JSON.parse(readFileSync(join(__dirname, "../package.json"), "utf8")) as Record<string, unknown>;

describe("public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(sdk).sort()).toEqual(["Slotgate", "SlotgateError", "VERSION", "handleLoginCallback"]);
  });

  it("the wallet entry (@slotgate/client-sdk/wallet) exports exactly these runtime names", () => {
    expect(Object.keys(wallet).sort()).toEqual(["SlotgateError", "SlotgateWallet", "handleWalletCallback"]);
  });

  it("both entries share one SlotgateError, so instanceof holds across them", () => {
    expect(wallet.SlotgateError).toBe(sdk.SlotgateError);
  });

  it("VERSION matches package.json", () => {
    expect(sdk.VERSION).toBe(pkg["version"]);
  });

  it("declares no runtime dependencies", () => {
    expect(pkg["dependencies"]).toBeUndefined();
    expect(pkg["peerDependencies"]).toBeUndefined();
  });

  it("maps '.' and './wallet' to ESM and CJS builds with their types first", () => {
    const exportsMap = pkg["exports"] as Record<string, Record<string, Record<string, string>>>;
    expect(Object.keys(exportsMap)).toEqual([".", "./wallet", "./package.json"]);
    for (const [entry, file] of [
      [".", "index"],
      ["./wallet", "wallet"],
    ] as const) {
      expect(exportsMap[entry]).toEqual({
        import: { types: `./dist/${file}.d.ts`, default: `./dist/${file}.js` },
        require: { types: `./dist/${file}.d.cts`, default: `./dist/${file}.cjs` },
      });
      for (const condition of ["import", "require"] as const) expect(Object.keys(exportsMap[entry]?.[condition] ?? {})[0]).toBe("types");
    }
  });

  it("the built files the exports map names exist (test/global-setup.ts builds dist/)", () => {
    const exportsMap = pkg["exports"] as Record<string, Record<string, Record<string, string>> | string>;
    const files = Object.values(exportsMap).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target).flatMap((condition) => Object.values(condition)),
    );
    for (const file of files) expect(existsSync(join(__dirname, "..", file)), file).toBe(true);
  });
});
