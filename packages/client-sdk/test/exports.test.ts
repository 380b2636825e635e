import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as sdk from "../src/index.js";

describe("public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(sdk).sort()).toEqual(["Slotgate", "SlotgateError", "VERSION", "handleLoginCallback"]);
  });

  it("VERSION matches package.json", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, "../package.json"), "utf8")) as { version: string };
    expect(sdk.VERSION).toBe(pkg.version);
  });

  it("declares no runtime dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, "../package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg["dependencies"]).toBeUndefined();
    expect(pkg["peerDependencies"]).toBeUndefined();
  });
});
