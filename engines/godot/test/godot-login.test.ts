/**
 * The Godot add-on (addons/slotgate_login, GDScript) run headless by godot3-server (Debian's Godot 3.2.3, or
 * SLOTGATE_GODOT) signs a player in against the real reference server with no helper process: the shared engine
 * scenarios (engines/test-support/engine-login-suite.ts), the player in headless Chromium.
 */
import { defineEngineLoginSuite, type EngineConfig } from "../../test-support/engine-login-suite.js";
import { runHarness } from "./run-harness.js";

defineEngineLoginSuite("godot", {
  prepare() {},
  login: (config: EngineConfig, onLine, options = {}) =>
    runHarness("login", config, onLine, options.cancelAfterMs ? { SLOTGATE_HARNESS_CANCEL_MS: String(options.cancelAfterMs) } : {}),
  device: (config, onLine) => runHarness("device", config, onLine),
  configs: (configs) => runHarness("configs", configs, () => {}, { SLOTGATE_HARNESS_OPENER: "fail" }),
});
