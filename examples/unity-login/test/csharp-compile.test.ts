import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { CSHARP_SOURCES, compileHarness } from "./compile-csharp.js";

// The Unity example's C# compiles with Debian's Mono C# compiler (C# 7, warnings as errors).
it("compiles SlotgateLogin.cs and the CI harness with mcs", () => {
  expect(CSHARP_SOURCES.map((f) => f.split("/").pop())).toEqual(expect.arrayContaining(["SlotgateLogin.cs", "SlotgateWebGL.cs", "SlotgateLoginButton.cs", "Harness.cs"]));
  const { exe } = compileHarness();
  expect(existsSync(exe)).toBe(true);
});
