import { createRoot } from "react-dom/client";
import { SlotgateProvider, useSlotgate } from "../../src/index.js";
import { useSlotgateWallet } from "../../src/wallet/index.js";

/**
 * The app under test: its config comes from the page (`window.__config`); `?nopopups` blocks popups like a webview.
 * The wallet buttons use useSlotgateWallet(); approvePurchases takes the confirmation the test's backend created
 * (`window.__confirmation`).
 */
const config = (window as unknown as { __config: { slotgateUrl: string; clientId: string; redirectUri: string } }).__config;
if (new URLSearchParams(location.search).has("nopopups")) {
  window.open = () => null;
  sessionStorage.setItem("nopopups", "1");
}

function Account() {
  const { status, user, error, login, logout } = useSlotgate();
  return (
    <main>
      <p id="status">{status}</p>
      <p id="user">{user?.id ?? ""}</p>
      <p id="error">{error?.message ?? ""}</p>
      <button id="login" type="button" disabled={status === "loading"} onClick={() => login()}>
        Log in
      </button>
      <button id="logout" type="button" onClick={() => logout()}>
        Log out
      </button>
    </main>
  );
}

function Wallet() {
  const { busy, outcome, error, setUpPin, approvePurchases } = useSlotgateWallet();
  return (
    <section>
      <p id="wallet-busy">{String(busy)}</p>
      <p id="wallet-outcome">{outcome ? JSON.stringify(outcome) : ""}</p>
      <p id="wallet-error">{error ? `${error.code}: ${error.message}` : ""}</p>
      <button id="set-up-pin" type="button" onClick={() => setUpPin()}>
        Set up PIN
      </button>
      <button id="approve-purchases" type="button" onClick={() => approvePurchases((window as unknown as { __confirmation: { id: string } }).__confirmation)}>
        Approve purchases
      </button>
    </section>
  );
}

createRoot(document.getElementById("root") as HTMLElement).render(
  <SlotgateProvider
    options={config}
    onRedirectCallback={(_result, error) => {
      if (error) sessionStorage.setItem("redirect_error", error.message);
      location.replace(sessionStorage.getItem("nopopups") ? "/?nopopups" : "/");
    }}
  >
    <Account />
    <Wallet />
  </SlotgateProvider>,
);
