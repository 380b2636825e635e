/**
 * Runs test/harness.gd under headless Godot 3 (`godot3-server`, or SLOTGATE_GODOT) in one mode; the harness prints one
 * JSON line per event. Godot keeps its user data under HOME: a fresh one per test process, so runs leave nothing behind.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectRun, type HarnessRun, type Line } from "../../test-support/engine-login-suite.js";

const project = join(import.meta.dirname, "..");
const godot = process.env["SLOTGATE_GODOT"] ?? "godot3-server";
const home = mkdtempSync(join(tmpdir(), "slotgate-godot-"));

/** Runs the harness in `mode` with `config` (JSON); `extra` adds SLOTGATE_HARNESS_* variables. */
export function runHarness(mode: string, config: unknown, onLine: (line: Line) => void = () => {}, extra: Record<string, string> = {}): Promise<HarnessRun> {
  const env = { ...process.env, HOME: home, LANG: "C.UTF-8", SLOTGATE_HARNESS_MODE: mode, SLOTGATE_HARNESS_CONFIG: JSON.stringify(config), ...extra };
  const child = spawn(godot, ["--path", project, "-s", "res://test/harness.gd"], { env, stdio: ["ignore", "pipe", "pipe"] });
  return collectRun(child, onLine);
}
