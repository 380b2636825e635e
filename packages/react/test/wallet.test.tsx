import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakePopup, postFromPopup, stubWindowOpen } from "../../client-sdk/test/helpers/fake-popup.js";
import { POLL_MS, SEVERANCE_MS } from "../../client-sdk/src/popup/await-result.js";
import { SlotgateProvider } from "../src/index.js";
import { type SlotgateWalletState, useSlotgateWallet } from "../src/wallet/index.js";

// useSlotgateWallet() in happy-dom with React Testing Library; the window is the client-sdk's stand-in popup
// (its test helpers), answered as the service's result page posts. The real window: test/e2e/wallet.browser.test.ts.

const SERVICE = "https://auth.slotgate.test";
const options = { slotgateUrl: SERVICE, clientId: "sg_c", redirectUri: "https://game.test/callback", popupWidth: 480 };
/** A fresh options object per test: the hook keeps one SlotgateWallet per provider options (object). */
const fresh = () => ({ ...options });
const ID = "wc_0123456789abcdefghijklmn";

let returned: Promise<unknown>[] = [];
function Wallet({ name = "w" }: { name?: string }) {
  const { busy, outcome, error, approvePurchases, setUpPin }: SlotgateWalletState = useSlotgateWallet();
  return (
    <div>
      <p data-testid={`${name}-state`}>{`${busy}:${outcome ? `${outcome.action}/${outcome.txHash}` : "-"}:${error?.code ?? "-"}`}</p>
      <button type="button" onClick={() => returned.push(approvePurchases({ id: ID, kind: "approve_purchases" }))}>
        {`${name}-approve`}
      </button>
      <button type="button" onClick={() => returned.push(setUpPin())}>
        {`${name}-pin`}
      </button>
    </div>
  );
}
const state = (name = "w") => screen.getByTestId(`${name}-state`).textContent;

/** Clicks `button`, and answers the state the SDK put in the window's URL. */
function clickOpening(button: string) {
  const popup = fakePopup();
  const open = stubWindowOpen(popup);
  fireEvent.click(screen.getByText(button));
  expect(open).toHaveBeenCalledTimes(1);
  const url = new URL(String(open.mock.calls[0]?.[0]));
  const answer = (data: Record<string, unknown>) =>
    act(() => postFromPopup({ from: "slotgate", type: "wallet_result", state: url.searchParams.get("state"), data }, SERVICE, popup));
  return { popup, open, url, answer };
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  returned = [];
});

describe("useSlotgateWallet()", () => {
  it("approve: opens the provider's service window in the click, busy until the answer, then the outcome", async () => {
    render(
      <SlotgateProvider options={fresh()}>
        <Wallet />
      </SlotgateProvider>,
    );
    expect(state()).toBe("false:-:-");
    const { url, open, popup, answer } = clickOpening("w-approve");
    expect(url.origin + url.pathname).toBe(`${SERVICE}/wallet/confirm/${ID}`);
    expect(String(open.mock.calls[0]?.[2])).toContain("width=480");
    await waitFor(() => expect(state()).toBe("true:-:-"));
    await answer({ action: "approve_purchases", status: "approved", confirmation_id: ID, tx_hash: "0xabc" });
    await waitFor(() => expect(state()).toBe("false:approve_purchases/0xabc:-"));
    await expect(returned[0]).resolves.toMatchObject({ status: "approved", confirmationId: ID, txHash: "0xabc" });
    expect(popup.closed).toBe(true);
  });

  it("deny: error confirmation_denied, no outcome, the action resolves null; the next action clears the error", async () => {
    render(
      <SlotgateProvider options={fresh()}>
        <Wallet />
      </SlotgateProvider>,
    );
    const first = clickOpening("w-approve");
    await first.answer({ action: "approve_purchases", status: "denied", confirmation_id: ID });
    await waitFor(() => expect(state()).toBe("false:-:confirmation_denied"));
    await expect(returned[0]).resolves.toBeNull();
    vi.restoreAllMocks();
    const second = clickOpening("w-pin");
    expect(second.url.pathname).toBe("/wallet/pin-setup");
    expect(Object.fromEntries(second.url.searchParams)).toMatchObject({ client_id: "sg_c", redirect_uri: options.redirectUri });
    await waitFor(() => expect(state()).toBe("true:-:-"));
    await second.answer({ action: "pin-setup", status: "approved", address: "0x00000000000000000000000000000000000a11ce" });
    await waitFor(() => expect(state()).toBe("false:pin-setup/null:-"));
  });

  it("the player closes the window: error popup_closed, busy false", async () => {
    render(
      <SlotgateProvider options={fresh()}>
        <Wallet />
      </SlotgateProvider>,
    );
    const { popup } = clickOpening("w-approve");
    await waitFor(() => expect(state()).toBe("true:-:-"));
    popup.crossOrigin = true; // the window is on the service; the player reads it, then closes it
    await new Promise((resolve) => setTimeout(resolve, POLL_MS + SEVERANCE_MS + 100));
    popup.closed = true;
    await waitFor(() => expect(state()).toBe("false:-:popup_closed"), { timeout: 5_000 });
    await expect(returned[0]).resolves.toBeNull();
  });

  it("one SlotgateWallet per provider: a second component's window while one is open is refused, the first goes on", async () => {
    render(
      <SlotgateProvider options={fresh()}>
        <Wallet name="a" />
        <Wallet name="b" />
      </SlotgateProvider>,
    );
    const { popup, open, answer } = clickOpening("a-approve");
    fireEvent.click(screen.getByText("b-pin"));
    await waitFor(() => expect(state("b")).toBe("false:-:invalid_options"));
    expect(open).toHaveBeenCalledTimes(1);
    expect(popup.focus).toHaveBeenCalled();
    expect(state("a")).toBe("true:-:-");
    await answer({ action: "approve_purchases", status: "approved", confirmation_id: ID, tx_hash: "0xdef" });
    await waitFor(() => expect(state("a")).toBe("false:approve_purchases/0xdef:-"));
  });

  it("a blocked window: error popup_blocked at once", async () => {
    render(
      <SlotgateProvider options={fresh()}>
        <Wallet />
      </SlotgateProvider>,
    );
    stubWindowOpen(null);
    fireEvent.click(screen.getByText("w-pin"));
    await waitFor(() => expect(state()).toBe("false:-:popup_blocked"));
  });

  it("outside a provider: throws an error that says what to do", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<Wallet />)).toThrow("useSlotgateWallet() must be called inside <SlotgateProvider>");
  });
});
