import { expect, it } from "vitest";
import * as storage from "../src/index.js";

it("exports exactly the documented names", () => {
  expect(Object.keys(storage).sort()).toEqual([
    "SealedValueError",
    "appliedVersions",
    "deriveSealingKey",
    "isSealedValue",
    "lockFile",
    "migrate",
    "openDatabase",
    "openSealed",
    "processAlive",
    "sealValue",
    "splitStatements",
  ]);
});
