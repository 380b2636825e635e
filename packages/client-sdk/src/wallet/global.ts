/**
 * Entry of the wallet window's script-tag build (`dist/slotgate-wallet.iife.js`): defines the global
 * `SlotgateWallet` namespace with the same names as the `@slotgate/client-sdk/wallet` ESM exports, plus `VERSION`,
 * so `new SlotgateWallet.SlotgateWallet({...})` and `SlotgateWallet.handleWalletCallback()`. Independent of
 * `dist/slotgate.iife.js` (each file carries its own copy of SlotgateError: compare `error.code`, not the class,
 * when a page loads both).
 * @internal
 */
import { VERSION } from "../index.js";
import { SlotgateError, SlotgateWallet, handleWalletCallback } from "./index.js";

(globalThis as unknown as { SlotgateWallet: object }).SlotgateWallet = { SlotgateWallet, handleWalletCallback, SlotgateError, VERSION };
