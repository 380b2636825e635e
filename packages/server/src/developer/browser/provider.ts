import type {
  ClientApplication,
  InitPermissionProviderRequest,
  InitPermissionProviderResponse,
  PendingWriteResponse,
  ProviderKeyRotation,
  ProviderStatus,
} from "@slotgate/protocol";
import { byId, cell, fail, fillRows, say, setHidden, fieldValue } from "./dom.js";
import { t } from "./messages.js";
import type { Session } from "./session.js";

/** Answer of a cuid registration: landed, or accepted with a chain write still on its way (202). */
type CuidAnswer = InitPermissionProviderResponse | PendingWriteResponse;

/**
 * The provider side (content tokens) of a blockchain application: its cuids, spend replay protection and
 * AES key. A new key is shown once, with a JSON file made in the browser to download.
 *
 * @example
 * ```ts
 * const provider = new ProviderSection(session, (client) => `/v1/dev-user/clients/${client.client_id}`, () => audit());
 * provider.show(client);
 * ```
 */
export class ProviderSection {
  readonly #session: Session;
  readonly #base: (client: ClientApplication) => string;
  readonly #changed: () => void;
  #client: ClientApplication | null = null;
  #status: ProviderStatus | null = null;

  /** `base` is the client's API path; `changed` runs after a change (the audit list shows it). */
  constructor(session: Session, base: (client: ClientApplication) => string, changed: () => void) {
    this.#session = session;
    this.#base = base;
    this.#changed = changed;
    byId("cuid-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const client = this.#client;
      if (!client) return;
      const body: Omit<InitPermissionProviderRequest, "client_id"> = {
        cuid: fieldValue("p-cuid"),
        release_per: Number(fieldValue("p-release_per")),
        owner_addr: fieldValue("p-owner_addr"),
      };
      this.#session
        .call<CuidAnswer>("POST", `${this.#base(client)}/provider/cuids`, body)
        .then((answer) => {
          say("write_id" in answer ? t("devScript.cuidPending", { write: answer.write_id }) : t("devScript.cuidRegistered"));
          if (!("write_id" in answer)) this.#showKey(client, answer);
          this.#afterChange();
        })
        .catch(fail);
    });
    byId("p-replay").addEventListener("click", () => {
      const client = this.#client;
      const status = this.#status;
      if (!client || !status) return;
      this.#session
        .call<ProviderStatus>("POST", `${this.#base(client)}/provider/replay_protection`, { enabled: !status.replay_protection })
        .then((answer) => {
          say(t(answer.replay_protection ? "devScript.replayOn" : "devScript.replayOff"));
          this.#afterChange();
        })
        .catch(fail);
    });
    byId("p-rotate").addEventListener("click", () => {
      const client = this.#client;
      if (!client) return;
      this.#session
        .call<ProviderKeyRotation>("POST", `${this.#base(client)}/provider/key`)
        .then((answer) => {
          say(t("devScript.keyRotated"));
          this.#showKey(client, answer);
          this.#afterChange();
        })
        .catch(fail);
    });
  }

  /** Shows the section for `client` (hidden for one without blockchain); `changed` hides a key shown for another one. */
  show(client: ClientApplication | null, changed: boolean): void {
    this.#client = client;
    if (changed) setHidden("p-key", true);
    this.#load();
  }

  #afterChange(): void {
    this.#load();
    this.#changed();
  }

  #load(): void {
    const client = this.#client;
    if (!client?.blockchain) {
      setHidden("provider", true);
      return;
    }
    setHidden("provider", false);
    this.#session
      .call<ProviderStatus>("GET", `${this.#base(client)}/provider`)
      .then((status) => {
        this.#status = status;
        const sentences = [
          !status.registered
            ? t("devScript.noCuid")
            : status.key_rotated_at
              ? t("devScript.keyIssuedRotated", { at: status.key_rotated_at })
              : t("devScript.keyIssued"),
          status.previous_key_valid_until ? t("devScript.previousKey", { until: status.previous_key_valid_until }) : "",
          t(status.replay_protection ? "devScript.replayStateOn" : "devScript.replayStateOff"),
        ];
        byId("p-state").textContent = sentences.filter(Boolean).join(" ");
        const replay = byId("p-replay", HTMLButtonElement);
        replay.textContent = t(status.replay_protection ? "devScript.turnReplayOff" : "devScript.turnReplayOn");
        replay.disabled = !status.registered;
        byId("p-rotate", HTMLButtonElement).disabled = !status.registered;
        fillRows("cuids", status.cuids, (row, c) => {
          row.dataset["cuid"] = c.cuid;
          cell(row, c.cuid);
          cell(row, c.release_per === null ? "" : String(c.release_per));
          cell(row, t(c.release_enabled ? "devScript.yes" : "devScript.no"));
          cell(row, c.owner_addr ?? "");
        });
      })
      .catch(fail);
  }

  /** Shows a key answered once (the first registration's, or a rotation's) and offers it as a file. */
  #showKey(client: ClientApplication, answer: { aes_key?: string | undefined; aes_iv?: string | undefined }): void {
    if (!answer.aes_key || !answer.aes_iv) return;
    byId("p-aes-key").textContent = answer.aes_key;
    byId("p-aes-iv").textContent = answer.aes_iv;
    const file = JSON.stringify({ client_id: client.client_id, aes_key: answer.aes_key, aes_iv: answer.aes_iv }, null, 2);
    byId("p-download", HTMLAnchorElement).href = URL.createObjectURL(new Blob([file], { type: "application/json" }));
    setHidden("p-key", false);
  }
}
