import { createRoot } from "react-dom/client";
import { SlotgateProvider, useSlotgate } from "../../src/index.js";

/** The app under test: its config comes from the page (`window.__config`); `?nopopups` blocks popups like a webview. */
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

createRoot(document.getElementById("root") as HTMLElement).render(
  <SlotgateProvider
    options={config}
    onRedirectCallback={(_result, error) => {
      if (error) sessionStorage.setItem("redirect_error", error.message);
      location.replace(sessionStorage.getItem("nopopups") ? "/?nopopups" : "/");
    }}
  >
    <Account />
  </SlotgateProvider>,
);
