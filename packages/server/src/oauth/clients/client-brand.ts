import type { PageBrand } from "../../platform/http/page-brand.js";
import { logoUrl } from "../../developer/brand.js";
import type { ClientRow } from "./clients-store.js";

/** What the pages read of a client row: its name and brand columns (docs/decisions/client-brand.md). */
export type BrandedClient = Pick<ClientRow, "client_id" | "name" | "brand_display_name" | "brand_accent" | "brand_logo_sha256">;

/**
 * What the sign-in pages show of `client`: its display name (else its name), accent and logo (served from
 * this service, named by its hash so a new logo is a new URL), beside `origin`, the address the service
 * verified for this request.
 *
 * @example
 * ```ts
 * const brand = clientPageBrand(request.client, new URL(request.params.redirect_uri).origin);
 * ```
 */
export function clientPageBrand(client: BrandedClient, origin: string): PageBrand {
  return {
    name: client.brand_display_name || client.name,
    accent: client.brand_accent ?? undefined,
    // A path on the page's own origin (the CSP allows img-src 'self' only), whatever host the issuer names.
    logoUrl: logoUrl("", client) ?? undefined,
    origin,
  };
}
