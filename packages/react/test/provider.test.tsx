import { Slotgate, SlotgateError } from "@slotgate/client-sdk";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { StrictMode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type SlotgateProviderProps, SlotgateProvider, useSlotgate } from "../src/index.js";

const SERVICE = "https://auth.slotgate.test";
const options = { slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: "https://game.test/callback" };

function jwt(claims: object): string {
  const b64 = (v: object) => btoa(JSON.stringify(v)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return `${b64({ alg: "ES256" })}.${b64(claims)}.sig`;
}
const FUTURE = Math.floor(Date.now() / 1000) + 3600;
const JWT = jwt({ sub: "user-1", exp: FUTURE });

function Account() {
  const { status, user, error, login, logout } = useSlotgate();
  return (
    <div>
      <p data-testid="status">{status}</p>
      <p data-testid="user">{user?.id ?? ""}</p>
      <p data-testid="error">{error?.code ?? ""}</p>
      <button type="button" onClick={() => login()}>
        popup
      </button>
      <button type="button" onClick={() => login({ mode: "redirect" })}>
        redirect
      </button>
      <button type="button" onClick={() => logout()}>
        logout
      </button>
    </div>
  );
}
const mount = (props: Partial<SlotgateProviderProps> = {}) =>
  render(
    <SlotgateProvider options={options} {...props}>
      <Account />
    </SlotgateProvider>,
  );
const text = (id: string) => screen.getByTestId(id).textContent;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  history.replaceState(null, "", "/");
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("SlotgateProvider and useSlotgate()", () => {
  it("shows logged_out, then logged_in with the user when another tab logs in, then logged_out when it logs out", async () => {
    mount();
    await waitFor(() => expect(text("status")).toBe("logged_out"));
    localStorage.setItem("slotgate_access_token", JWT);
    act(() => void window.dispatchEvent(new StorageEvent("storage", { key: "slotgate_access_token", newValue: JWT })));
    expect([text("status"), text("user")]).toEqual(["logged_in", "user-1"]);
    localStorage.removeItem("slotgate_access_token");
    act(() => void window.dispatchEvent(new StorageEvent("storage", { key: "slotgate_access_token", newValue: null })));
    expect([text("status"), text("user")]).toEqual(["logged_out", ""]);
  });

  it("starts logged_in from a stored JWT; logout() clears it and revokes it on the service", async () => {
    localStorage.setItem("slotgate_access_token", JWT);
    const fetch = vi.fn(async () => new Response(null, { status: 200 }));
    mount({ client: new Slotgate({ ...options, fetch: fetch as unknown as typeof globalThis.fetch }) });
    await waitFor(() => expect(text("status")).toBe("logged_in"));
    fireEvent.click(screen.getByText("logout"));
    await waitFor(() => expect(text("status")).toBe("logged_out"));
    expect(fetch).toHaveBeenCalledWith(`${SERVICE}/v1/oauth/revoke`, expect.objectContaining({ method: "POST" }));
    expect(localStorage.getItem("slotgate_access_token")).toBeNull();
  });

  it("login(): a blocked popup continues with the full-page redirect (PKCE) instead of failing", async () => {
    vi.spyOn(window, "open").mockReturnValue(null);
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    mount();
    await waitFor(() => expect(text("status")).toBe("logged_out"));
    fireEvent.click(screen.getByText("popup"));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const url = new URL(String(assign.mock.calls[0]?.[0]));
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(text("error")).toBe("");
  });

  it("login(): a popup the user closes puts popup_closed in error, and the status stays logged_out", async () => {
    const client = new Slotgate(options);
    vi.spyOn(client, "login").mockRejectedValue(new SlotgateError("popup_closed"));
    mount({ client });
    await waitFor(() => expect(text("status")).toBe("logged_out"));
    fireEvent.click(screen.getByText("popup"));
    await waitFor(() => expect(text("error")).toBe("popup_closed"));
    expect(text("status")).toBe("logged_out");
  });

  it("login({ mode: 'redirect' }) leaves for the service without trying a popup", async () => {
    const open = vi.spyOn(window, "open");
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    mount();
    await waitFor(() => expect(text("status")).toBe("logged_out"));
    fireEvent.click(screen.getByText("redirect"));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(open).not.toHaveBeenCalled();
  });

  it("on the redirect URI page, completes the redirect login once under Strict Mode and calls onRedirectCallback", async () => {
    sessionStorage.setItem("slotgate_redirect", JSON.stringify({ state: "st", verifier: "v".repeat(43) }));
    history.replaceState(null, "", "/callback?code=the-code&state=st");
    const fetch = vi.fn(async () => new Response(JSON.stringify({ access_token: JWT }), { status: 200 }));
    const onRedirectCallback = vi.fn();
    render(
      <StrictMode>
        <SlotgateProvider options={{ ...options, fetch: fetch as unknown as typeof globalThis.fetch }} onRedirectCallback={onRedirectCallback}>
          <Account />
        </SlotgateProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(text("status")).toBe("logged_in"));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(onRedirectCallback).toHaveBeenCalledWith({ jwt: JWT }, null);
    expect(window.location.search).toBe("");
  });

  it("on the redirect URI page, a result this tab did not ask for is an error, not a login", async () => {
    history.replaceState(null, "", "/callback?code=c&state=forged");
    const onRedirectCallback = vi.fn();
    mount({ onRedirectCallback });
    await waitFor(() => expect(text("error")).toBe("login_failed"));
    expect(text("status")).toBe("logged_out");
    expect(onRedirectCallback).toHaveBeenCalledWith(null, expect.objectContaining({ reason: "state_mismatch" }));
  });
});
