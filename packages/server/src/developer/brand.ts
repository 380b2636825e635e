import { createHash } from "node:crypto";
import { PATHS } from "@slotgate/protocol";
import { type ClientBrandUpdate, clientIdParamSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../platform/app/services.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { type ClientRow, findClientLogo, setClientBrand } from "../oauth/clients/clients-store.js";
import { type Actor, type ManageDeps, ownedClient } from "./manage.js";

/** A client's brand as the API answers it: each null when not set; the logo's URL names its version. */
export interface ClientBrandAnswer {
  display_name: string | null;
  accent_color: string | null;
  logo_url: string | null;
}

/**
 * The URL of a client's logo on the service's origin, `?v=` its SHA-256 (so a new logo is a new URL and the
 * old one may be cached for good), or null when it has none.
 *
 * @example
 * ```ts
 * logoUrl("https://auth.example", row); // "https://auth.example/v1/brand/sg_…/logo?v=3f…"
 * ```
 */
export function logoUrl(issuer: string, row: Pick<ClientRow, "client_id" | "brand_logo_sha256">): string | null {
  if (!row.brand_logo_sha256) return null;
  return `${issuer}${PATHS.brandLogo.replace(":client_id", encodeURIComponent(row.client_id))}?v=${row.brand_logo_sha256}`;
}

/** The brand of a client row, as the API answers it. */
export function brandAnswer(issuer: string, row: ClientRow): ClientBrandAnswer {
  return { display_name: row.brand_display_name, accent_color: row.brand_accent, logo_url: logoUrl(issuer, row) };
}

/**
 * Sets a client's brand (the body was checked at the boundary: the logo is the image it says, the accent
 * readable under white text); the audit entry names the fields changed, never the logo's bytes.
 */
export async function updateBrand(deps: ManageDeps, actor: Actor, clientId: string, body: ClientBrandUpdate): Promise<ClientRow> {
  await ownedClient(deps, actor, clientId);
  const bytes = body.logo ? Buffer.from(body.logo.data_base64, "base64") : undefined;
  const sha256 = bytes ? createHash("sha256").update(bytes).digest("hex") : undefined;
  const row = await setClientBrand(
    deps.db,
    clientId,
    actor.devUserId,
    {
      ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
      ...(body.accent_color !== undefined ? { accent: body.accent_color } : {}),
      ...(body.logo !== undefined ? { logo: body.logo && bytes && sha256 ? { contentType: body.logo.content_type, bytes, sha256 } : null } : {}),
    },
    {
      actor: actor.label,
      detail: {
        fields: Object.keys(body),
        ...(body.logo ? { logo: { content_type: body.logo.content_type, bytes: bytes!.length, sha256 } } : {}),
      },
    },
  );
  if (!row) throw new SlotgateServerError("client_not_found");
  deps.changed?.(clientId);
  return row;
}

/**
 * `GET /v1/brand/{client_id}/logo`: the logo's bytes from the service's own origin (the pages' CSP allows
 * images from 'self' only). A URL naming the current version (`?v=`) is cached for a year; others revalidate
 * by ETag. `nosniff` and a sandboxing CSP: the bytes are only ever an image.
 */
export function brandLogoRoutes(services: Services): Router {
  const router = Router();
  router.get(PATHS.brandLogo, async (req: Request, res: Response) => {
    const params = clientIdParamSchema.safeParse(req.params);
    const logo = params.success ? await findClientLogo(services.db, params.data.client_id) : null;
    if (!logo) throw new SlotgateServerError("not_found", { message: "This client application has no logo." });
    const etag = `"${logo.sha256}"`;
    res.setHeader("ETag", etag);
    res.setHeader("Cache-Control", req.query["v"] === logo.sha256 ? "public, max-age=31536000, immutable" : "no-cache");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    if (req.headers["if-none-match"] === etag) {
      res.status(304).end();
      return;
    }
    res.type(logo.content_type).send(Buffer.from(logo.bytes));
  });
  return router;
}
