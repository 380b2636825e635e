import { useContext } from "react";
import { SlotgateContext, type SlotgateState } from "./context.js";

/**
 * The Slotgate session of the nearest {@link SlotgateProvider}: `status`, `user`, `token`, `error`, `login`,
 * `logout`. Re-renders on every login-state change (this tab's, another tab's, the JWT's expiry).
 *
 * @throws Error when no `SlotgateProvider` is above the component
 *
 * @example
 * ```tsx
 * "use client";
 * import { useSlotgate } from "@slotgate/react";
 *
 * export function LoginButton() {
 *   const { status, user, login, logout } = useSlotgate();
 *   if (status === "loading") return null;
 *   return status === "logged_in" ? (
 *     <button onClick={() => logout()}>Log out {user?.id}</button>
 *   ) : (
 *     <button onClick={() => login()}>Log in</button>
 *   );
 * }
 * ```
 */
export function useSlotgate(): SlotgateState {
  const state = useContext(SlotgateContext);
  if (!state) throw new Error("useSlotgate() must be called inside <SlotgateProvider>");
  return state;
}
