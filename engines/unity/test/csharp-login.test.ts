/**
 * The Unity package's C# (com.slotgate.login/Runtime), compiled with mcs and run under Mono, signs a player in
 * against the real reference server with no helper process: the shared engine scenarios
 * (engines/test-support/engine-login-suite.ts), the player in headless Chromium.
 */
import { spawn } from "node:child_process";
import { defineEngineLoginSuite, type EngineConfig, collectRun } from "../../test-support/engine-login-suite.js";
import { compileHarness } from "./compile-csharp.js";

let harness = "";

/** A SlotgateLoginConfig as JSON: every field present, as DataContractJsonSerializer wants for [Serializable]. */
const loginJson = (config: EngineConfig) => JSON.stringify({ ClientId: null, RedirectUri: null, SlotgateUrl: null, LoopbackPort: 0, TimeoutMs: 0, ...config });

function mono(args: string[], onLine: (line: Record<string, unknown>) => void = () => {}, stdin?: string) {
  const child = spawn("mono", [harness, ...args], { stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
  if (stdin !== undefined) child.stdin!.end(stdin);
  return collectRun(child, onLine);
}

defineEngineLoginSuite("unity", {
  prepare() {
    harness = compileHarness().exe;
  },
  login: (config, onLine, options = {}) =>
    mono(["login", loginJson(config), "open", ...(options.cancelAfterMs ? [String(options.cancelAfterMs)] : [])], onLine),
  device: (config, onLine) => mono(["device", JSON.stringify({ ClientId: null, SlotgateUrl: null, ...config })], onLine),
  configs: (configs) => mono(["configs"], () => {}, configs.map(loginJson).join("\n")),
});
