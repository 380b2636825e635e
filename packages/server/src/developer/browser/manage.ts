import {
  type ClientApplication,
  type ClientAuditEntry,
  type ClientSecretRotationResponse,
  type ClientUpdateRequest,
  type Delivery,
  PATHS,
} from "@slotgate/protocol";
import { buttonCell, byId, cell, fail, fieldValue, fillRows, isPublic, listOf, say, setHidden } from "./dom.js";
import { BrandSection } from "./brand.js";
import { t } from "./messages.js";
import { ProviderSection } from "./provider.js";
import type { Session } from "./session.js";

/** The API path of one client application. */
function clientPath(client: ClientApplication): string {
  return `${PATHS.clients}/${encodeURIComponent(client.client_id)}`;
}

/**
 * The "Manage" panel of one client application: its settings, secret rotation, provider side, deliveries
 * (with retry), switch-off and audit list. `reload` refreshes the list of applications after a change.
 *
 * @example
 * ```ts
 * const panel = new ManagePanel(session, () => loadClients());
 * panel.listed(clients);
 * ```
 */
export class ManagePanel {
  readonly #session: Session;
  readonly #reload: () => void;
  readonly #provider: ProviderSection;
  readonly #brand: BrandSection;
  #current: ClientApplication | null = null;

  constructor(session: Session, reload: () => void) {
    this.#session = session;
    this.#reload = reload;
    this.#provider = new ProviderSection(session, clientPath, () => this.#loadAudit());
    this.#brand = new BrandSection(session, () => this.#reload());
    byId("edit-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const client = this.#current;
      if (!client) return;
      const body: ClientUpdateRequest = {
        name: fieldValue("e-name"),
        redirect_uris: listOf("e-redirect_uris"),
        download_url: fieldValue("e-download_url"),
        web_url: fieldValue("e-web_url"),
      };
      this.#call<ClientApplication>("PATCH", clientPath(client), body, (edited) => {
        this.#current = null;
        this.open(edited, false);
        say(t("devScript.saved"));
        this.#reload();
      });
    });
    byId("rotate").addEventListener("click", () => {
      const client = this.#current;
      if (!client) return;
      this.#call<ClientSecretRotationResponse>("POST", `${clientPath(client)}/secret`, undefined, (rotated) => {
        byId("rotated-secret").textContent = rotated.client_secret;
        setHidden("rotated", false);
        say(t("devScript.secretRotated"));
        this.open(rotated, false);
      });
    });
    byId("toggle-disabled").addEventListener("click", () => {
      const client = this.#current;
      if (!client) return;
      this.#call<ClientApplication>("POST", `${clientPath(client)}/${client.disabled ? "enable" : "disable"}`, undefined, (changed) => {
        say(t(changed.disabled ? "devScript.disabledDone" : "devScript.enabledDone"));
        this.#reload();
      });
    });
    byId("delete").addEventListener("click", () => {
      const client = this.#current;
      if (!client || !confirm(t("devScript.deleteConfirm", { name: client.name }))) return;
      this.#call("DELETE", clientPath(client), undefined, () => {
        say(t("devScript.deleted"));
        this.close();
        this.#reload();
      });
    });
    byId("deliveries-refresh").addEventListener("click", () => this.#loadDeliveries());
  }

  /** After the list loaded: refreshes the open application from it, or closes the panel when it is gone. */
  listed(clients: readonly ClientApplication[]): void {
    const current = this.#current;
    if (!current) return;
    const fresh = clients.find((c) => c.client_id === current.client_id);
    if (fresh) this.open(fresh, false);
    else this.close();
  }

  /** Opens the panel on `client` (keeping what the developer typed when it is already open); `focus` moves the focus to its heading. */
  open(client: ClientApplication, focus: boolean): void {
    const changed = this.#current?.client_id !== client.client_id;
    this.#current = client;
    setHidden("manage", false);
    byId("m-name").textContent = client.name;
    byId("m-id").textContent = client.client_id;
    byId("m-state").textContent = t(client.disabled ? "devScript.disabled" : "devScript.active");
    byId("toggle-disabled").textContent = t(client.disabled ? "devScript.enable" : "devScript.disable");
    byId("m-overlap").textContent = isPublic(client)
      ? t("devScript.publicNoSecret")
      : client.previous_secret_valid_until
        ? t("devScript.previousSecret", { until: client.previous_secret_valid_until })
        : t("devScript.onlyCurrentSecret");
    byId("rotate", HTMLButtonElement).disabled = isPublic(client);
    if (changed) {
      setHidden("rotated", true);
      byId("e-name", HTMLInputElement).value = client.name;
      byId("e-redirect_uris", HTMLTextAreaElement).value = client.redirect_uris.join("\n");
      byId("e-download_url", HTMLInputElement).value = client.download_url;
      byId("e-web_url", HTMLInputElement).value = client.web_url;
    }
    this.#loadDeliveries();
    this.#loadAudit();
    this.#provider.show(client, changed);
    this.#brand.show(client, changed);
    if (focus) byId("manage-title").focus();
  }

  /** Closes the panel. */
  close(): void {
    this.#current = null;
    setHidden("manage", true);
  }

  #call<T>(method: "POST" | "PATCH" | "DELETE", path: string, body: object | undefined, then: (answer: T) => void): void {
    this.#session.call<T>(method, path, body).then(then).catch(fail);
  }

  #loadAudit(): void {
    const client = this.#current;
    if (!client) return;
    this.#session
      .call<{ entries: ClientAuditEntry[] }>("GET", `${clientPath(client)}/audit`)
      .then(({ entries }) =>
        fillRows("audit", entries, (row, e) => {
          cell(row, e.at);
          cell(row, e.actor);
          cell(row, `${e.action} ${JSON.stringify(e.detail)}`);
        }),
      )
      .catch(fail);
  }

  #loadDeliveries(): void {
    const client = this.#current;
    if (!client) return;
    this.#session
      .call<{ deliveries: Delivery[] }>("GET", `${clientPath(client)}/deliveries`)
      .then(({ deliveries }) =>
        fillRows("deliveries", deliveries, (row, d) => {
          row.dataset["deliveryId"] = d.id;
          row.dataset["status"] = d.status;
          cell(row, d.kind);
          cell(row, d.target ?? t("devScript.notConfigured"));
          cell(row, d.status);
          cell(row, t("devScript.attempts", { attempts: d.attempts, max: d.max_attempts }));
          cell(row, d.last_error ?? "");
          cell(row, d.next_attempt_at ?? "");
          if (d.status === "delivered") cell(row, "");
          else buttonCell(row, t("devScript.retry"), t("devScript.retryLabel", { id: d.id }), () => this.#retry(client, d));
        }),
      )
      .catch(fail);
  }

  #retry(client: ClientApplication, delivery: Delivery): void {
    this.#call("POST", `${clientPath(client)}/deliveries/${delivery.id}/retry`, undefined, () => {
      say(t("devScript.retrying", { id: delivery.id }));
      setTimeout(() => this.#loadDeliveries(), 500);
    });
  }
}
