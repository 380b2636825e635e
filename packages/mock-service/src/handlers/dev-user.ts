import type { ClientApplication, ClientRegistrationResponse, ClientSecretRotationResponse, DevUserLoginResponse } from "@slotgate/protocol";
import { clientIdParamSchema, clientRegistrationSchema, clientUpdateSchema, deliveryParamSchema, devUserCredentialsSchema } from "@slotgate/protocol/schemas";
import { z } from "zod";
import { http } from "msw";
import { type MockContext, urlOf } from "../context.js";
import { parseJson, readJson, readText, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { guard, json } from "../http/respond.js";
import { hashPassword, verifyPassword } from "../passwords.js";
import { randomBase64url, randomHex } from "../random.js";
import type { ClientRecord } from "../state.js";
import { authenticateDev, issueDevToken } from "../tokens.js";

/** The public view of a client (never its secret or AES key). */
export function publicClient(client: ClientRecord, now = Date.now()): ClientApplication {
  return {
    client_id: client.client_id,
    name: client.name,
    redirect_uris: [...client.redirect_uris],
    download_url: client.download_url,
    web_url: client.web_url,
    platform: client.platform,
    blockchain: client.blockchain,
    grant_types: [...client.grant_types],
    created_at: client.created_at,
    disabled: client.disabled === true,
    previous_secret_valid_until: client.previous_secret && client.previous_secret.until > now ? new Date(client.previous_secret.until).toISOString() : null,
  };
}

const emptyBody = z.strictObject({});

/** Records an audit entry of a client. */
function audit(ctx: MockContext, client: ClientRecord, actor: string, action: string, detail: Record<string, unknown>): void {
  client.audit = [...(client.audit ?? []), { actor, action, detail, at: new Date(ctx.now()).toISOString() }];
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
          grant_types: body.grant_types ?? ["authorization_code"],
          created_at: new Date(ctx.now()).toISOString(),
        };
        ctx.state.clients.set(client.client_id, client);
        audit(ctx, client, ctx.state.devUsers.get(client.owner_uuid)?.email ?? "unknown", "client.registered", { name: client.name, redirect_uris: client.redirect_uris, platform: client.platform, blockchain: client.blockchain });
        const answer: ClientRegistrationResponse = { success: true, ...publicClient(client, ctx.now()), client_secret: client.client_secret };
        return json(answer, 201, { "Cache-Control": "no-store" });
      }),
    ),
    http.get(urlOf(ctx, "/v1/dev-user/clients"), ({ request }) =>
      guard(async () => {
        const dev = await authenticateDev(ctx, request);
        const clients = [...ctx.state.clients.values()].filter((c) => c.owner_uuid === dev.sub && !c.deleted).map((c) => publicClient(c, ctx.now()));
        return json({ success: true, clients });
      }),
    ),
    ...manageHandlers(ctx),
  ];
}

/**
 * The developer center's per-client endpoints (edit, rotate the secret with its overlap window, disable,
 * enable, delete, audit list, deliveries). The simulated service keeps no delivery list: deliveries are
 * always empty and a retry is 404 delivery_not_found.
 */
function manageHandlers(ctx: MockContext) {
  /** The caller, and the client of the path if it is the caller's (404 client_not_found otherwise, as for an unknown one). */
  const owned = async (request: Request, params: Record<string, unknown>) => {
    const dev = await authenticateDev(ctx, request);
    const { client_id } = validate(clientIdParamSchema, { client_id: params["client_id"] });
    const client = ctx.state.clients.get(client_id);
    if (!client || client.owner_uuid !== dev.sub || client.deleted) throw new HttpError("client_not_found");
    return { client, actor: ctx.state.devUsers.get(dev.sub)?.email ?? "unknown" };
  };
  const action = async (request: Request) => {
    if (request.headers.get("content-length") === "0" || request.body === null) return;
    const text = await readText(request, ctx.bodyLimit);
    if (text.length > 0) {
      const type = request.headers.get("content-type");
      if (type !== null && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) throw new HttpError("unsupported_media_type");
      validate(emptyBody, parseJson(text));
    }
  };
  const noStore = { "Cache-Control": "no-store" };
  const one = urlOf(ctx, "/v1/dev-user/clients/:client_id");
  const revoke = (client: ClientRecord) => {
    client.revoked_before = Math.floor(ctx.now() / 1000);
  };
  return [
    http.patch(one, ({ request, params }) =>
      guard(async () => {
        const { client, actor } = await owned(request, params);
        const edit = await readJson(request, clientUpdateSchema, ctx.bodyLimit);
        const next = { ...edit, ...(edit.redirect_uris ? { redirect_uris: [...new Set(edit.redirect_uris)] } : {}) };
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        for (const key of ["name", "redirect_uris", "download_url", "web_url"] as const) {
          const to = next[key];
          if (to !== undefined && JSON.stringify(to) !== JSON.stringify(client[key])) changes[key] = { from: client[key], to };
        }
        if (Object.keys(changes).length > 0) {
          Object.assign(client, next);
          audit(ctx, client, actor, "client.updated", { changes });
        }
        return json({ success: true, ...publicClient(client, ctx.now()) }, 200, noStore);
      }),
    ),
    http.delete(one, ({ request, params }) =>
      guard(async () => {
        const { client, actor } = await owned(request, params);
        client.deleted = true;
        client.disabled = true;
        client.client_secret = "";
        delete client.previous_secret;
        revoke(client);
        audit(ctx, client, actor, "client.deleted", {});
        return json({ success: true, client_id: client.client_id, deleted: true }, 200, noStore);
      }),
    ),
    http.post(`${one}/secret`, ({ request, params }) =>
      guard(async () => {
        const { client, actor } = await owned(request, params);
        await action(request);
        const until = ctx.clientSecretOverlapSeconds > 0 && !ctx.faults.rotationWithoutOverlap ? ctx.now() + ctx.clientSecretOverlapSeconds * 1000 : null;
        if (until === null) delete client.previous_secret;
        else client.previous_secret = { secret: client.client_secret, until };
        client.client_secret = randomBase64url(32);
        audit(ctx, client, actor, "secret.rotated", { previous_secret_valid_until: until === null ? null : new Date(until).toISOString() });
        const answer: ClientSecretRotationResponse = { success: true, ...publicClient(client, ctx.now()), client_secret: client.client_secret };
        return json(answer, 200, noStore);
      }),
    ),
    ...(["disable", "enable"] as const).map((verb) =>
      http.post(`${one}/${verb}`, ({ request, params }) =>
        guard(async () => {
          const { client, actor } = await owned(request, params);
          await action(request);
          const disabled = verb === "disable";
          if ((client.disabled === true) !== disabled) {
            client.disabled = disabled;
            if (disabled) revoke(client);
            audit(ctx, client, actor, disabled ? "client.disabled" : "client.enabled", {});
          }
          return json({ success: true, ...publicClient(client, ctx.now()) }, 200, noStore);
        }),
      ),
    ),
    http.get(`${one}/audit`, ({ request, params }) =>
      guard(async () => {
        const { client } = await owned(request, params);
        return json({ success: true, entries: [...(client.audit ?? [])].reverse() }, 200, noStore);
      }),
    ),
    http.get(`${one}/deliveries`, ({ request, params }) =>
      guard(async () => {
        await owned(request, params);
        return json({ success: true, deliveries: [] }, 200, noStore);
      }),
    ),
    http.post(`${one}/deliveries/:delivery_id/retry`, ({ request, params }) =>
      guard(async () => {
        await owned(request, params);
        validate(deliveryParamSchema, { client_id: params["client_id"], delivery_id: params["delivery_id"] });
        await action(request);
        throw new HttpError("delivery_not_found");
      }),
    ),
  ];
}
