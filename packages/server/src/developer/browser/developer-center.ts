/**
 * The developer-center page's script (the page is `renderDeveloperCenter`): sign in or sign up, list and
 * register client applications, manage one, read the development mailbox. It calls only the JSON API of
 * this origin, with the developer token as `Authorization: Bearer`. Built into `dist/assets` and served
 * under a content-hashed path (`../page-script.ts`).
 */
import {
  type ClientApplication,
  type ClientRegistrationRequest,
  type ClientRegistrationResponse,
  type DevUserCredentials,
  type DevUserLoginResponse,
  type GrantType,
  PATHS,
  type PlatformType,
  type PublicClientRegistrationResponse,
} from "@slotgate/protocol";
import { buttonCell, byId, cell, fail, fieldValue, fillRows, isPublic, listOf, setHidden } from "./dom.js";
import { loadMailbox } from "./mailbox.js";
import { t } from "./messages.js";
import { ManagePanel } from "./manage.js";
import { Session } from "./session.js";

const session = new Session(render);
const panel = new ManagePanel(session, loadClients);

/** Shows the sign-in form or the center, as the session says. */
function render(): void {
  setHidden("auth", session.signedIn);
  setHidden("center", !session.signedIn);
  if (session.signedIn) loadClients();
}

/** Lists the developer's applications (and refreshes the mailbox and the open panel). */
function loadClients(): void {
  loadMailbox(session);
  session
    .call<{ clients: ClientApplication[] }>("GET", PATHS.clients)
    .then(({ clients }) => {
      fillRows("clients", clients, (row, c) => {
        row.dataset["clientId"] = c.client_id;
        cell(row, c.name);
        cell(row, c.client_id);
        cell(row, c.redirect_uris.join(" "));
        cell(row, c.platform);
        cell(row, t(c.blockchain ? "devScript.yes" : "devScript.no"));
        cell(row, (c.grant_types ?? []).join(" "));
        cell(row, t(isPublic(c) ? "devScript.public" : "devScript.confidential"));
        cell(row, t(c.disabled ? "devScript.disabled" : "devScript.active"));
        buttonCell(row, t("devScript.manage"), t("devScript.manageLabel", { name: c.name }), () => panel.open(c, true));
      });
      panel.listed(clients);
    })
    .catch(fail);
}

byId("auth-form").addEventListener("submit", (event) => {
  event.preventDefault();
  byId("error").textContent = "";
  const submitter = (event as SubmitEvent).submitter;
  const path = submitter instanceof HTMLButtonElement && submitter.value === "signup" ? PATHS.devUserSignup : PATHS.devUserLogin;
  const credentials: DevUserCredentials = { email: fieldValue("email"), password: fieldValue("password") };
  session
    .call<DevUserLoginResponse>("POST", path, credentials)
    .then((answer) => {
      session.signIn(answer.token);
      render();
    })
    .catch(fail);
});

byId("logout").addEventListener("click", () => {
  session.signOut();
  render();
});

byId("mailbox-refresh").addEventListener("click", () => loadMailbox(session));

byId("client-form").addEventListener("submit", (event) => {
  event.preventDefault();
  byId("error").textContent = "";
  const grants = [byId("grant_refresh", HTMLInputElement), byId("grant_device", HTMLInputElement)]
    .filter((box) => box.checked)
    .map((box) => box.value as GrantType);
  // The select's options and the boxes' values are the wire values; the server validates them anyway.
  const body: ClientRegistrationRequest = {
    name: fieldValue("name"),
    redirect_uris: listOf("redirect_uris"),
    download_url: fieldValue("download_url"),
    web_url: fieldValue("web_url"),
    platform: fieldValue("platform") as PlatformType,
    blockchain: byId("blockchain", HTMLInputElement).checked,
    grant_types: grants,
    token_endpoint_auth_method: byId("public_client", HTMLInputElement).checked ? "none" : "client_secret_basic",
  };
  session
    .call<ClientRegistrationResponse | PublicClientRegistrationResponse>("POST", PATHS.clients, body)
    .then((registered) => {
      byId("new-id").textContent = registered.client_id;
      byId("new-secret").textContent = "client_secret" in registered ? registered.client_secret : "";
      byId("new-heading").textContent = t(isPublic(registered) ? "devScript.publicRegistered" : "devScript.secretOnce");
      setHidden("new-secret-line", isPublic(registered));
      setHidden("secret", false);
      loadClients();
    })
    .catch(fail);
});

render();
