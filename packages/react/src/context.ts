import type { Slotgate, SlotgateError, SlotgateOptions } from "@slotgate/client-sdk";
import { createContext } from "react";
import type { SlotgateUser } from "./claims.js";

/**
 * Where the session stands:
 * - `loading`: before the provider has run in the browser (always during server rendering and the first
 *   client render, so both render the same markup), and while a redirect result is being completed;
 * - `logged_in` / `logged_out`: what the stored JWT says (see `Slotgate.isLoggedIn`).
 *
 * @example
 * ```tsx
 * const { status } = useSlotgate();
 * if (status === "loading") return <Spinner />;
 * ```
 */
export type SlotgateStatus = "loading" | "logged_in" | "logged_out";

/**
 * Options of {@link SlotgateState.login}.
 *
 * @example
 * ```tsx
 * <button onClick={() => login({ mode: "redirect" })}>Sign in</button>
 * ```
 */
export interface SlotgateLoginOptions {
  /**
   * `popup` opens the service's popup (synchronously, so call `login` in a click handler) and, when the browser
   * blocks it, continues with a full-page redirect; `redirect` leaves the page at once.
   * @default "popup"
   */
  mode?: "popup" | "redirect";
}

/**
 * What {@link useSlotgate} returns.
 *
 * @example
 * ```tsx
 * const { status, user, login, logout, error } = useSlotgate();
 * ```
 */
export interface SlotgateState {
  /** See {@link SlotgateStatus}. */
  status: SlotgateStatus;
  /** The signed-in user, or null. */
  user: SlotgateUser | null;
  /** The stored user JWT (send it to your backend), or null. */
  token: string | null;
  /** The last login failure (e.g. `popup_closed`, `login_failed`), cleared by the next login; null otherwise. */
  error: SlotgateError | null;
  /**
   * Logs in (see {@link SlotgateLoginOptions}); resolves when logged in, or when the page is leaving for the
   * service. A failure is put in {@link SlotgateState.error}, never thrown.
   */
  login(options?: SlotgateLoginOptions): Promise<void>;
  /** Logs out (`Slotgate.logout`: clears the JWT, revokes it, ends the service session); never throws. */
  logout(): Promise<void>;
  /** The underlying client-sdk instance, null until the provider has run in the browser. */
  client: Slotgate | null;
}

/** @internal */
export const SlotgateContext = createContext<SlotgateState | null>(null);

/**
 * The options the nearest provider was given (read once, like the provider does), for `@slotgate/react/wallet`,
 * which makes its `SlotgateWallet` from them. @internal
 */
export const SlotgateOptionsContext = createContext<SlotgateOptions | null>(null);
