import { type ClientApplication, isLoopbackIpRedirectUri } from "@slotgate/protocol";
import { PUBLIC_REDIRECT_MESSAGE } from "@slotgate/protocol/schemas";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import type { MockContext } from "../context.js";
import { HttpError } from "../http/http-error.js";
import { type Answer, type MockCaller, mockEndpoint } from "../http/mock-endpoint.js";
import { hashPassword, verifyPassword } from "../passwords.js";
import { randomBase64url, randomHex } from "../random.js";
import type { ClientRecord } from "../state.js";
import { issueDevToken } from "../tokens.js";

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
    token_endpoint_auth_method: client.token_endpoint_auth_method ?? "client_secret_basic",
    created_at: client.created_at,
    disabled: client.disabled === true,
    previous_secret_valid_until: client.previous_secret && client.previous_secret.until > now ? new Date(client.previous_secret.until).toISOString() : null,
  };
}

/** Records an audit entry of a client. */
function audit(ctx: MockContext, client: ClientRecord, actor: string, action: string, detail: Record<string, unknown>): void {
  client.audit = [...(client.audit ?? []), { actor, action, detail, at: new Date(ctx.now()).toISOString() }];
}

/** Developer signup / login and the developer center's client registration. */
export function devUserHandlers(ctx: MockContext) {
  const session = async (uuid: string) => ({ success: true as const, token: await issueDevToken(ctx, uuid), uuid });
  return [
    ...mockEndpoint(ctx, ENDPOINTS.devUserSignup, {}, async (body): Promise<Answer<"devUserSignup">> => {
      if (ctx.state.findDevUserByEmail(body.email)) throw new HttpError("email_taken");
      const uuid = globalThis.crypto.randomUUID();
      ctx.state.devUsers.set(uuid, { uuid, email: body.email, password: await hashPassword(body.password) });
      return session(uuid);
    }),
    ...mockEndpoint(ctx, ENDPOINTS.devUserLogin, {}, async (body): Promise<Answer<"devUserLogin">> => {
      const dev = ctx.state.findDevUserByEmail(body.email);
      const ok = dev ? await verifyPassword(body.password, dev.password) : false;
      if (!dev || !ok) throw new HttpError("invalid_credentials");
      return session(dev.uuid);
    }),
    ...mockEndpoint(ctx, ENDPOINTS.registerClient, {}, async (body, { developer }): Promise<Answer<"registerClient">> => {
      // A public native client (`none`, docs/decisions/game-clients.md) has no secret: "" never authenticates.
      const method = body.token_endpoint_auth_method ?? "client_secret_basic";
      const client: ClientRecord = {
        client_id: `sg_${randomHex(12)}`,
        client_secret: method === "none" ? "" : randomBase64url(32),
        token_endpoint_auth_method: method,
        owner_uuid: developer!.sub,
        name: body.name,
        redirect_uris: [...new Set(body.redirect_uris)],
        download_url: body.download_url,
        web_url: body.web_url,
        platform: body.platform,
        blockchain: body.blockchain,
        grant_types: body.grant_types ?? ["authorization_code"],
        created_at: new Date(ctx.now()).toISOString(),
      };
      ctx.state.clients.set(client.client_id, client);
      audit(ctx, client, ctx.state.devUsers.get(client.owner_uuid)?.email ?? "unknown", "client.registered", {
        name: client.name,
        redirect_uris: client.redirect_uris,
        platform: client.platform,
        blockchain: client.blockchain,
        token_endpoint_auth_method: method,
      });
      if (method === "none") return { success: true, ...publicClient(client, ctx.now()), token_endpoint_auth_method: "none" };
      return { success: true, ...publicClient(client, ctx.now()), client_secret: client.client_secret };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.getDevUser, {}, async (_input, { developer }): Promise<Answer<"getDevUser">> => {
      const account = ctx.state.devUsers.get(developer!.sub);
      if (!account) throw new HttpError("invalid_token");
      return { success: true, uuid: developer!.sub, email: account.email };
    }),
    ...mockEndpoint(
      ctx,
      ENDPOINTS.listClients,
      {},
      async (_input, { developer }): Promise<Answer<"listClients">> => ({
        success: true,
        clients: [...ctx.state.clients.values()].filter((c) => c.owner_uuid === developer!.sub && !c.deleted).map((c) => publicClient(c, ctx.now())),
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
  /** The client of the path if it is the caller's (the table's `developer_client` rule: 404 client_not_found otherwise, as for an unknown one). */
  const owned = (input: { client_id: string }, caller: MockCaller) => {
    const client = ctx.state.clients.get(input.client_id);
    if (!client || client.owner_uuid !== caller.developer!.sub || client.deleted) throw new HttpError("client_not_found");
    return { client, actor: ctx.state.devUsers.get(caller.developer!.sub)?.email ?? "unknown" };
  };
  const revoke = (client: ClientRecord) => {
    client.revoked_before = Math.floor(ctx.now() / 1000);
  };
  const toggle = (row: typeof ENDPOINTS.disableClient | typeof ENDPOINTS.enableClient, disabled: boolean) =>
    mockEndpoint(ctx, row, {}, async (input, caller): Promise<Answer<"disableClient">> => {
      const { client, actor } = owned(input, caller);
      if ((client.disabled === true) !== disabled) {
        client.disabled = disabled;
        if (disabled) revoke(client);
        audit(ctx, client, actor, disabled ? "client.disabled" : "client.enabled", {});
      }
      return { success: true, ...publicClient(client, ctx.now()) };
    });
  return [
    ...mockEndpoint(ctx, ENDPOINTS.updateClient, {}, async (input, caller): Promise<Answer<"updateClient">> => {
      const { client, actor } = owned(input, caller);
      const { client_id: _id, ...edit } = input;
      if (client.token_endpoint_auth_method === "none" && edit.redirect_uris) {
        const details = edit.redirect_uris.flatMap((uri, i) =>
          isLoopbackIpRedirectUri(uri) ? [] : [{ path: `redirect_uris.${i}`, message: PUBLIC_REDIRECT_MESSAGE }],
        );
        if (details.length > 0) throw new HttpError("invalid_request", { message: `Invalid request: ${PUBLIC_REDIRECT_MESSAGE}`, details });
      }
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
      return { success: true, ...publicClient(client, ctx.now()) };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.deleteClient, {}, async (input, caller): Promise<Answer<"deleteClient">> => {
      const { client, actor } = owned(input, caller);
      client.deleted = true;
      client.disabled = true;
      client.client_secret = "";
      delete client.previous_secret;
      revoke(client);
      audit(ctx, client, actor, "client.deleted", {});
      return { success: true, client_id: client.client_id, deleted: true };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.rotateClientSecret, {}, async (input, caller): Promise<Answer<"rotateClientSecret">> => {
      const { client, actor } = owned(input, caller);
      if (client.token_endpoint_auth_method === "none") {
        throw new HttpError("invalid_request", {
          message: "Invalid request: this client is public (token_endpoint_auth_method none): it has no secret to rotate; its codes are proven with PKCE",
        });
      }
      const until = ctx.clientSecretOverlapSeconds > 0 && !ctx.faults.rotationWithoutOverlap ? ctx.now() + ctx.clientSecretOverlapSeconds * 1000 : null;
      if (until === null) delete client.previous_secret;
      else client.previous_secret = { secret: client.client_secret, until };
      client.client_secret = randomBase64url(32);
      audit(ctx, client, actor, "secret.rotated", { previous_secret_valid_until: until === null ? null : new Date(until).toISOString() });
      return { success: true, ...publicClient(client, ctx.now()), client_secret: client.client_secret };
    }),
    ...toggle(ENDPOINTS.disableClient, true),
    ...toggle(ENDPOINTS.enableClient, false),
    ...mockEndpoint(
      ctx,
      ENDPOINTS.clientAudit,
      {},
      async (input, caller): Promise<Answer<"clientAudit">> => ({ success: true, entries: [...(owned(input, caller).client.audit ?? [])].reverse() }),
    ),
    ...mockEndpoint(ctx, ENDPOINTS.clientDeliveries, {}, async (input, caller): Promise<Answer<"clientDeliveries">> => {
      owned(input, caller);
      return { success: true, deliveries: [] };
    }),
    ...mockEndpoint(ctx, ENDPOINTS.retryDelivery, {}, async (input, caller): Promise<Answer<"retryDelivery">> => {
      owned(input, caller);
      throw new HttpError("delivery_not_found");
    }),
  ];
}
