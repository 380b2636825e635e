import { defineConfig } from "vitest/config";
import { isGodot3, onCi } from "../test-support/tools.js";

/**
 * The Godot suite needs Debian's headless Godot 3 (`godot3-server`, package godot3-server). With CI set it is
 * required (a missing binary fails it); otherwise, without it, the suite is left out and this says so.
 * `SLOTGATE_GODOT` names another Godot 3 binary (e.g. a 3.5 or 3.6 headless build).
 */
const godot = process.env["SLOTGATE_GODOT"] ?? "godot3-server";
const exclude: string[] = [];
if (!onCi && !isGodot3(godot)) {
  exclude.push("test/godot-*.test.ts");
  console.warn(`[engine-godot] Godot tests left out: ${godot} not found (apt-get install godot3-server), or set CI=1 to require it.`);
}

export default defineConfig({
  test: { include: ["test/**/*.test.ts"], exclude, testTimeout: 120_000, hookTimeout: 180_000 },
});
