/**
 * Slotgate loopback login (RFC 8252) for desktop builds and game engines, and the device login
 * (RFC 8628) for consoles and TVs.
 *
 * No client secret is ever accepted or embedded: a game build is public, and
 * the secret stays on the game backend. The JWT this package returns is sent to
 * that backend, which verifies it.
 *
 * @packageDocumentation
 */
export { createCommandOpener, type OpenBrowser, openSystemBrowser } from "./browser.js";
export {
  DEFAULT_LOGIN_TIMEOUT_MS,
  DEFAULT_SLOTGATE_URL,
  type DeviceLoginConfig,
  type LoginConfig,
  type LoginConfigCamel,
  type LoginConfigPascal,
} from "./config.js";
export { GameSdkBridgeError, type GameSdkBridgeErrorCode } from "./errors.js";
export { type LoginOptions, login } from "./login.js";
export { type DeviceCodePrompt, type DeviceLoginOptions, loginWithDeviceCode } from "./device/device-login.js";
export type { LoginResult } from "./result.js";
