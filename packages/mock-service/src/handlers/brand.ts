import { PATHS } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { http } from "msw";
import type { MockContext } from "../context.js";
import { endpointUrl } from "../context.js";
import { HttpError } from "../http/http-error.js";
import { type Answer, type MockCaller, mockEndpoint } from "../http/mock-endpoint.js";
import { guard } from "../http/respond.js";
import type { ClientRecord } from "../state.js";

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The brand as the service answers it (each null when not set; the logo's URL names its version). */
function brandOf(ctx: MockContext, client: ClientRecord): Answer<"getClientBrand">["brand"] {
  const logo = client.brand?.logo;
  return {
    display_name: client.brand?.display_name ?? null,
    accent_color: client.brand?.accent_color ?? null,
    logo_url: logo ? `${ctx.baseUrl}${PATHS.brandLogo.replace(":client_id", encodeURIComponent(client.client_id))}?v=${logo.sha256}` : null,
  };
}

/** A client's brand: read and set by its developer (the body checked by the table's schema), its logo served to anyone. */
export function brandHandlers(ctx: MockContext) {
  const owned = (input: { client_id: string }, caller: MockCaller): ClientRecord => {
    const client = ctx.state.clients.get(input.client_id);
    if (!client || client.owner_uuid !== caller.developer!.sub || client.deleted) throw new HttpError("client_not_found");
    return client;
  };
  return [
    ...mockEndpoint(
      ctx,
      ENDPOINTS.getClientBrand,
      {},
      async (input, caller): Promise<Answer<"getClientBrand">> => ({
        success: true,
        brand: brandOf(ctx, owned(input, caller)),
      }),
    ),
    ...mockEndpoint(ctx, ENDPOINTS.updateClientBrand, {}, async (input, caller): Promise<Answer<"updateClientBrand">> => {
      const client = owned(input, caller);
      const brand = { ...client.brand };
      if (input.display_name !== undefined) brand.display_name = input.display_name ?? undefined;
      if (input.accent_color !== undefined) brand.accent_color = input.accent_color ?? undefined;
      if (input.logo === null) delete brand.logo;
      else if (input.logo) {
        const bytes = Uint8Array.from(atob(input.logo.data_base64), (c) => c.charCodeAt(0));
        brand.logo = { content_type: input.logo.content_type, bytes, sha256: await sha256Hex(bytes) };
      }
      client.brand = brand;
      return { success: true, brand: brandOf(ctx, client) };
    }),
    http.get(endpointUrl(ctx, ENDPOINTS.brandLogo), ({ params, request }) =>
      guard(async () => {
        await ctx.ready();
        const client = ctx.state.clients.get(String(params["client_id"]));
        const logo = client && !client.deleted ? client.brand?.logo : undefined;
        if (!logo) throw new HttpError("not_found", { message: "This client application has no logo." });
        const etag = `"${logo.sha256}"`;
        const fresh = new URL(request.url).searchParams.get("v") === logo.sha256;
        const headers = {
          ETag: etag,
          "Cache-Control": fresh ? "public, max-age=31536000, immutable" : "no-cache",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "default-src 'none'; sandbox",
          "Cross-Origin-Resource-Policy": "same-origin",
        };
        if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
        return new Response(logo.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: { ...headers, "Content-Type": logo.content_type } });
      }),
    ),
  ];
}
