/**
 * Entry of the script-tag build (`dist/slotgate.iife.js`): defines the global `Slotgate` namespace with the
 * same names as the ESM exports, so `new Slotgate.Slotgate({...})` and `Slotgate.handleLoginCallback()`.
 * @internal
 */
import { handleLoginCallback } from "./callback.js";
import { SlotgateError } from "./errors.js";
import { Slotgate, VERSION } from "./index.js";

(globalThis as unknown as { Slotgate: object }).Slotgate = { Slotgate, SlotgateError, handleLoginCallback, VERSION };
