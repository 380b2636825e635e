import { type ClientApplication, PATHS } from "@slotgate/protocol";
import { byId, fail, fieldValue, say, setHidden } from "./dom.js";
import { t } from "./messages.js";
import type { Session } from "./session.js";

/** A client's brand as `GET`/`PATCH …/clients/{client_id}/brand` answer it (each null when not set). */
interface ClientBrand {
  display_name: string | null;
  accent_color: string | null;
  logo_url: string | null;
}

/** Body of `PATCH …/clients/{client_id}/brand`: a field left out stays as it is; `null` clears it. */
interface BrandUpdate {
  display_name?: string | null;
  accent_color?: string | null;
  logo?: { content_type: string; data_base64: string } | null;
}

/** Base64 of a file's bytes (no data: prefix). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The "Brand on the sign-in pages" form of one application: display name, accent colour and logo. The
 * file goes to the API as base64 with its type; the server checks its size and type (SVG refused) and
 * serves it from its own origin (`logo_url`, shown as a preview).
 *
 * @example
 * ```ts
 * const brand = new BrandSection(session, () => reload());
 * brand.show(client, true);
 * ```
 */
export class BrandSection {
  readonly #session: Session;
  readonly #changed: () => void;
  #client: ClientApplication | null = null;

  /** `changed` runs after a save (the list and audit show it). */
  constructor(session: Session, changed: () => void) {
    this.#session = session;
    this.#changed = changed;
    byId("brand-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.#save().catch(fail);
    });
  }

  /** Shows `client`'s brand; `changed` (another application opened) loads it and refills the fields. */
  show(client: ClientApplication, changed: boolean): void {
    this.#client = client;
    if (!changed) return;
    this.#session
      .call<{ brand: ClientBrand }>("GET", this.#path(client))
      .then(({ brand }) => {
        if (this.#client?.client_id === client.client_id) this.#fill(brand);
      })
      .catch(fail);
  }

  /** The brand endpoint of the table (`getClientBrand`, `updateClientBrand`). */
  #path(client: ClientApplication): string {
    return PATHS.clientBrand.replace(":client_id", encodeURIComponent(client.client_id));
  }

  #fill(brand: ClientBrand): void {
    byId("b-display_name", HTMLInputElement).value = brand.display_name ?? "";
    byId("b-accent_color", HTMLInputElement).value = brand.accent_color ?? "";
    byId("b-logo_file", HTMLInputElement).value = "";
    byId("b-logo_remove", HTMLInputElement).checked = false;
    setHidden("b-preview", !brand.logo_url);
    if (brand.logo_url) byId("b-logo", HTMLImageElement).src = brand.logo_url;
  }

  async #save(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    const file = byId("b-logo_file", HTMLInputElement).files?.[0];
    const body: BrandUpdate = {
      display_name: fieldValue("b-display_name") || null,
      accent_color: fieldValue("b-accent_color") || null,
    };
    if (byId("b-logo_remove", HTMLInputElement).checked) body.logo = null;
    else if (file) body.logo = { content_type: file.type, data_base64: await base64Of(file) };
    const { brand } = await this.#session.call<{ brand: ClientBrand }>("PATCH", this.#path(client), body);
    this.#fill(brand);
    say(t("devScript.brandSaved"));
    this.#changed();
  }
}
