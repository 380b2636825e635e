/**
 * `@slotgate/react`: React bindings of `@slotgate/client-sdk`. Wrap the app in {@link SlotgateProvider} and read
 * the session with {@link useSlotgate}: `status`, `user`, `token`, `error`, `login` (popup, falling back to a
 * full-page redirect when popups are blocked) and `logout`. Safe under server rendering (Next.js App Router:
 * this package's files are client components).
 *
 * @example
 * ```tsx
 * import { SlotgateProvider, useSlotgate } from "@slotgate/react";
 *
 * function Account() {
 *   const { status, user, login, logout } = useSlotgate();
 *   if (status === "logged_in") return <button onClick={() => logout()}>Log out {user?.id}</button>;
 *   return <button disabled={status === "loading"} onClick={() => login()}>Log in</button>;
 * }
 *
 * export const App = () => (
 *   <SlotgateProvider options={{ slotgateUrl, clientId, redirectUri }}>
 *     <Account />
 *   </SlotgateProvider>
 * );
 * ```
 *
 * @packageDocumentation
 */
export { SlotgateProvider, type SlotgateProviderProps } from "./provider.js";
export { useSlotgate } from "./hook.js";
export type { SlotgateLoginOptions, SlotgateState, SlotgateStatus } from "./context.js";
export type { SlotgateUser } from "./claims.js";
