import { handleLoginCallback, type LoginResult, Slotgate, SlotgateError, type SlotgateOptions } from "@slotgate/client-sdk";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { userOf } from "./claims.js";
import { SlotgateContext, SlotgateOptionsContext, type SlotgateLoginOptions, type SlotgateState, type SlotgateStatus } from "./context.js";

/**
 * Props of {@link SlotgateProvider}.
 *
 * @example
 * ```tsx
 * const props: SlotgateProviderProps = {
 *   options: { slotgateUrl: "https://auth.slotgate.example", clientId: "sg_…", redirectUri: "https://game.example/callback" },
 *   onRedirectCallback: (result) => result && router.replace("/"),
 * };
 * ```
 */
export interface SlotgateProviderProps {
  /** The `@slotgate/client-sdk` options; read once, when the provider first runs in the browser. */
  options: SlotgateOptions;
  /** An instance to use instead of creating one from `options` (sharing one across providers, tests). */
  client?: Slotgate;
  /**
   * Called once on the `redirectUri` page after the provider completed (or found no) redirect result: the
   * result, or the `SlotgateError` (also in `useSlotgate().error`). Typically navigates back into the app.
   */
  onRedirectCallback?: (result: LoginResult | null, error: SlotgateError | null) => void;
  children?: ReactNode;
}

/** The redirect result of each client, completed once even when React runs an effect twice (Strict Mode). */
const redirects = new WeakMap<Slotgate, Promise<{ result: LoginResult | null; error: SlotgateError | null }>>();

function completeRedirect(client: Slotgate): Promise<{ result: LoginResult | null; error: SlotgateError | null }> {
  let run = redirects.get(client);
  if (!run) {
    run = client.handleRedirectCallback().then(
      (result) => ({ result, error: null }),
      (error: unknown) => ({ result: null, error: error instanceof SlotgateError ? error : new SlotgateError("login_failed", String(error)) }),
    );
    redirects.set(client, run);
  }
  return run;
}

function onRedirectPage(redirectUri: string): boolean {
  try {
    return new URL(redirectUri).pathname === window.location.pathname;
  } catch {
    return false;
  }
}

/**
 * Provides the Slotgate session to {@link useSlotgate}. Safe under server rendering: nothing touches `window`
 * or storage during render; the client-sdk instance is created in an effect, so the server and the first browser
 * render both show `status: "loading"`. On the page of `options.redirectUri` it completes a redirect login
 * (`handleRedirectCallback`) or relays a popup's COOP fallback result (`handleLoginCallback`) by itself.
 *
 * @example
 * ```tsx
 * // app/providers.tsx (Next.js App Router)
 * "use client";
 * import { SlotgateProvider } from "@slotgate/react";
 *
 * export function Providers({ children }: { children: React.ReactNode }) {
 *   return (
 *     <SlotgateProvider options={{ slotgateUrl, clientId, redirectUri, autoRenew: true }}>{children}</SlotgateProvider>
 *   );
 * }
 * ```
 */
export function SlotgateProvider({ options, client: given, onRedirectCallback, children }: SlotgateProviderProps): ReactNode {
  const [client, setClient] = useState<Slotgate | null>(null);
  const [status, setStatus] = useState<SlotgateStatus>("loading");
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<SlotgateError | null>(null);
  const optionsRef = useRef(options);
  const ownRef = useRef<Slotgate | null>(null);
  const onRedirectRef = useRef(onRedirectCallback);
  onRedirectRef.current = onRedirectCallback;

  useEffect(() => {
    ownRef.current ??= given ? null : new Slotgate(optionsRef.current);
    const sg = given ?? (ownRef.current as Slotgate);
    let active = true;
    const sync = (): void => {
      if (!active) return;
      setToken(sg.getToken());
      setStatus(sg.isLoggedIn() ? "logged_in" : "logged_out");
    };
    const offs = (["login", "logout", "expired"] as const).map((type) => sg.on(type, sync));
    setClient(sg);
    if (onRedirectPage(optionsRef.current.redirectUri) && !handleLoginCallback()) {
      void completeRedirect(sg).then(({ result, error: failure }) => {
        if (!active) return;
        if (failure) setError(failure);
        sync();
        onRedirectRef.current?.(result, failure);
      });
    } else {
      sync();
    }
    return () => {
      active = false;
      for (const off of offs) off();
    };
  }, [given]);

  const login = useCallback(
    async (loginOptions: SlotgateLoginOptions = {}): Promise<void> => {
      if (!client) return;
      setError(null);
      try {
        if (loginOptions.mode === "redirect") return await client.loginWithRedirect();
        try {
          await client.login(); // opens the popup before its first await: keep this call first in the click
        } catch (failure) {
          if (!(failure instanceof SlotgateError) || failure.code !== "popup_blocked") throw failure;
          await client.loginWithRedirect();
        }
      } catch (failure) {
        setError(failure instanceof SlotgateError ? failure : new SlotgateError("login_failed", String(failure)));
      }
    },
    [client],
  );
  const logout = useCallback(async (): Promise<void> => {
    await client?.logout();
  }, [client]);

  const value = useMemo<SlotgateState>(
    () => ({ status, user: status === "logged_in" ? userOf(token) : null, token: status === "logged_in" ? token : null, error, login, logout, client }),
    [status, token, error, login, logout, client],
  );
  return (
    <SlotgateOptionsContext.Provider value={optionsRef.current}>
      <SlotgateContext.Provider value={value}>{children}</SlotgateContext.Provider>
    </SlotgateOptionsContext.Provider>
  );
}
