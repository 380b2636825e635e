/**
 * The Godot add-on (addons/slotgate_login, GDScript) run headless by godot3-server (Debian's Godot 3.2.3, or
 * SLOTGATE_GODOT) signs a player in against the real reference server with no helper process: the shared engine
 * scenarios (engines/test-support/engine-login-suite.ts), the player in headless Chromium.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectRun, defineEngineLoginSuite, type EngineConfig } from "../../test-support/engine-login-suite.js";

const project = join(import.meta.dirname, "..");
const godot = process.env["SLOTGATE_GODOT"] ?? "godot3-server";
/** Godot keeps its user data under HOME: a fresh one, so runs leave nothing behind. */
const home = mkdtempSync(join(tmpdir(), "slotgate-godot-"));

function run(mode: string, config: unknown, onLine: (line: Record<string, unknown>) => void = () => {}, extra: Record<string, string> = {}) {
  const env = { ...process.env, HOME: home, LANG: "C.UTF-8", SLOTGATE_HARNESS_MODE: mode, SLOTGATE_HARNESS_CONFIG: JSON.stringify(config), ...extra };
  const child = spawn(godot, ["--path", project, "-s", "res://test/harness.gd"], { env, stdio: ["ignore", "pipe", "pipe"] });
  return collectRun(child, onLine);
}

defineEngineLoginSuite("godot", {
  prepare() {},
  login: (config: EngineConfig, onLine, options = {}) =>
    run("login", config, onLine, options.cancelAfterMs ? { SLOTGATE_HARNESS_CANCEL_MS: String(options.cancelAfterMs) } : {}),
  device: (config, onLine) => run("device", config, onLine),
  configs: (configs) => run("configs", configs, () => {}, { SLOTGATE_HARNESS_OPENER: "fail" }),
});
