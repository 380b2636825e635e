import type { ClientApplication, ClientRegistrationResponse, DevUserLoginResponse } from "@slotgate/protocol";
import { clientRegistrationSchema, devUserCredentialsSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import { type MockContext, urlOf } from "../context.js";
import { readJson } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { guard, json } from "../http/respond.js";
import { hashPassword, verifyPassword } from "../passwords.js";
import { randomBase64url, randomHex } from "../random.js";
import type { ClientRecord } from "../state.js";
import { authenticateDev, issueDevToken } from "../tokens.js";

/** The public view of a client (never its secret or AES key). */
export function publicClient(client: ClientRecord): ClientApplication {
  return {
    client_id: client.client_id,
    name: client.name,
    redirect_uris: [...client.redirect_uris],
    download_url: client.download_url,
    web_url: client.web_url,
    platform: client.platform,
    blockchain: client.blockchain,
    created_at: client.created_at,
  };
}

/** Developer signup / login and the developer center's client registration. */
export function devUserHandlers(ctx: MockContext) {
  return [
    http.post(urlOf(ctx, "/v1/dev-user/signup"), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const body = await readJson(request, devUserCredentialsSchema, ctx.bodyLimit);
        if (ctx.state.findDevUserByEmail(body.email)) throw new HttpError("email_taken");
        const uuid = globalThis.crypto.randomUUID();
        ctx.state.devUsers.set(uuid, { uuid, email: body.email, password: await hashPassword(body.password) });
        const answer: DevUserLoginResponse = { success: true, token: await issueDevToken(ctx, uuid), uuid };
        return json(answer, 201);
      }),
    ),
    http.post(urlOf(ctx, "/v1/dev-user/login_devuser"), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const body = await readJson(request, devUserCredentialsSchema, ctx.bodyLimit);
        const dev = ctx.state.findDevUserByEmail(body.email);
        const ok = dev ? await verifyPassword(body.password, dev.password) : false;
        if (!dev || !ok) throw new HttpError("invalid_credentials");
        const answer: DevUserLoginResponse = { success: true, token: await issueDevToken(ctx, dev.uuid), uuid: dev.uuid };
        return json(answer);
      }),
    ),
    http.post(urlOf(ctx, "/v1/dev-user/clients"), ({ request }) =>
      guard(async () => {
        const dev = await authenticateDev(ctx, request);
        const body = await readJson(request, clientRegistrationSchema, ctx.bodyLimit);
        const client: ClientRecord = {
          client_id: `sg_${randomHex(12)}`,
          client_secret: randomBase64url(32),
          owner_uuid: dev.sub,
          name: body.name,
          redirect_uris: body.redirect_uris,
          download_url: body.download_url,
          web_url: body.web_url,
          platform: body.platform,
          blockchain: body.blockchain,
          created_at: new Date(ctx.now()).toISOString(),
        };
        ctx.state.clients.set(client.client_id, client);
        const answer: ClientRegistrationResponse = { success: true, ...publicClient(client), client_secret: client.client_secret };
        return json(answer, 201, { "Cache-Control": "no-store" });
      }),
    ),
    http.get(urlOf(ctx, "/v1/dev-user/clients"), ({ request }) =>
      guard(async () => {
        const dev = await authenticateDev(ctx, request);
        const clients = [...ctx.state.clients.values()].filter((c) => c.owner_uuid === dev.sub).map(publicClient);
        return json({ success: true, clients });
      }),
    ),
  ];
}
