import type { ChainService } from "@slotgate/chain-service";
import type { ClientRegistrationResponse, ClientSecretRotationResponse, DevUserLoginResponse, PublicClientRegistrationResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { type Request, type Response, Router } from "express";
import type { Services } from "../platform/app/services.js";
import { SlotgateServerError } from "../platform/http/errors.js";
import { sendHtml } from "../platform/http/html.js";
import { mountEndpoint } from "../platform/http/mount-endpoint.js";
import { serviceRateLimit } from "../platform/http/rate-limit.js";
import { negotiateLocale, translator } from "../platform/i18n/translator.js";
import { listClients, toClientApplication } from "../oauth/clients/clients-store.js";
import type { DevUserRow } from "./dev-users-store.js";
import { authenticateDevUser, createDevUser, registerClient, registrationAnswer } from "./accounts.js";
import {
  type Actor,
  clientAudit,
  clientDeliveries,
  deleteClient,
  editClient,
  type ManageDeps,
  ownedClient,
  retryDelivery,
  rotateSecret,
  setDisabled,
} from "./manage.js";
import { brandAnswer, brandLogoRoutes, updateBrand } from "./brand.js";
import { renderDeveloperCenter } from "./page.js";
import { loadPageScript, servePageScript } from "./page-script.js";
import { providerOf, type ProviderDeps, registerCuid, rotateProviderKey, setReplayProtection } from "./provider.js";

/** Developer sign-up and login (spec 4.1), client registration API and the developer-center page. */
export function devCenterRoutes(services: Services): Router {
  const router = Router();
  const signInLimit = serviceRateLimit(services, "sign-in", services.config.rateLimit.signInPerMinute);
  const signIn = { before: [signInLimit] };

  mountEndpoint(router, services, ENDPOINTS.devUserSignup, signIn, async ({ email, password }): Promise<DevUserLoginResponse> => {
    const row = await createDevUser(services, email, password);
    return { success: true, token: await services.tokens.signDevToken(row.uuid), uuid: row.uuid };
  });
  mountEndpoint(router, services, ENDPOINTS.devUserLogin, signIn, async ({ email, password }): Promise<DevUserLoginResponse> => {
    const row = await authenticateDevUser(services, email, password);
    return { success: true, token: await services.tokens.signDevToken(row.uuid), uuid: row.uuid };
  });

  mountEndpoint(
    router,
    services,
    ENDPOINTS.registerClient,
    {},
    async (body, { developer }): Promise<ClientRegistrationResponse | PublicClientRegistrationResponse> => {
      const { row, secret } = await registerClient(services, developer!.id, body, developer!.email);
      return registrationAnswer(row, secret);
    },
  );
  mountEndpoint(router, services, ENDPOINTS.getDevUser, {}, async (_input, { developer }) => ({
    success: true as const,
    uuid: developer!.uuid,
    email: developer!.email,
  }));
  mountEndpoint(router, services, ENDPOINTS.listClients, {}, async (_input, { developer }) => ({
    success: true as const,
    clients: (await listClients(services.db, developer!.id)).map(toClientApplication),
  }));

  const deps: ManageDeps = {
    db: services.db,
    secrets: services.secrets,
    overlapSeconds: services.config.clientSecretOverlapSeconds,
    changed: (clientId) => services.clients.forget(clientId),
    revokeClient: (clientId, at) => services.revocations.revokeClient(clientId, at),
    kickOutbox: () => services.outbox.kick(),
  };
  /** The developer acting on one of their clients (the path's client_id; another's is 404 client_not_found). */
  const actor = (developer: DevUserRow | null): Actor => ({ devUserId: developer!.id, label: developer!.email });

  mountEndpoint(router, services, ENDPOINTS.getClient, {}, async ({ client_id }, { developer }) => ({
    success: true as const,
    ...toClientApplication(await ownedClient(deps, actor(developer), client_id)),
  }));
  mountEndpoint(router, services, ENDPOINTS.updateClient, {}, async ({ client_id, ...edit }, { developer }) => ({
    success: true as const,
    ...toClientApplication(await editClient(deps, actor(developer), client_id, edit)),
  }));
  mountEndpoint(router, services, ENDPOINTS.getClientBrand, {}, async ({ client_id }, { developer }) => ({
    success: true as const,
    brand: brandAnswer(services.issuer, await ownedClient(deps, actor(developer), client_id)),
  }));
  mountEndpoint(router, services, ENDPOINTS.updateClientBrand, {}, async ({ client_id, ...body }, { developer }) => ({
    success: true as const,
    brand: brandAnswer(services.issuer, await updateBrand(deps, actor(developer), client_id, body)),
  }));
  router.use(brandLogoRoutes(services));
  mountEndpoint(router, services, ENDPOINTS.deleteClient, {}, async ({ client_id }, { developer }) => {
    await deleteClient(deps, actor(developer), client_id);
    return { success: true as const, client_id, deleted: true as const };
  });
  mountEndpoint(router, services, ENDPOINTS.rotateClientSecret, {}, async ({ client_id }, { developer }): Promise<ClientSecretRotationResponse> => {
    const { row, secret } = await rotateSecret(deps, actor(developer), client_id);
    return { success: true, ...toClientApplication(row), client_secret: secret };
  });
  for (const [row, disabled] of [
    [ENDPOINTS.disableClient, true],
    [ENDPOINTS.enableClient, false],
  ] as const) {
    mountEndpoint(router, services, row, {}, async ({ client_id }, { developer }) => ({
      success: true as const,
      ...toClientApplication(await setDisabled(deps, actor(developer), client_id, disabled)),
    }));
  }
  mountEndpoint(router, services, ENDPOINTS.clientAudit, {}, async ({ client_id }, { developer }) => ({
    success: true as const,
    entries: await clientAudit(deps, actor(developer), client_id),
  }));
  mountEndpoint(router, services, ENDPOINTS.clientDeliveries, {}, async ({ client_id }, { developer }) => ({
    success: true as const,
    deliveries: await clientDeliveries(deps, actor(developer), client_id),
  }));
  mountEndpoint(router, services, ENDPOINTS.retryDelivery, {}, async ({ client_id, delivery_id }, { developer }) => ({
    success: true as const,
    delivery: await retryDelivery(deps, actor(developer), client_id, delivery_id),
  }));

  // The provider side (content tokens) of a client: chain-service calls, 503 service_unavailable with CHAIN=off.
  const provider = (chain: ChainService): ProviderDeps => ({ db: services.db, chain, keyOverlapSeconds: services.config.providerKeyOverlapSeconds });
  mountEndpoint(router, services, ENDPOINTS.clientProvider, {}, ({ client_id }, { developer, chain }) =>
    providerOf(provider(chain), actor(developer), client_id),
  );
  mountEndpoint(router, services, ENDPOINTS.registerProviderCuid, {}, ({ client_id, ...body }, { developer, chain, write }) =>
    registerCuid(provider(chain), actor(developer), client_id, body, write),
  );
  mountEndpoint(router, services, ENDPOINTS.setProviderReplayProtection, {}, ({ client_id, enabled }, { developer, chain }) =>
    setReplayProtection(provider(chain), actor(developer), client_id, enabled),
  );
  mountEndpoint(router, services, ENDPOINTS.rotateProviderKey, {}, ({ client_id }, { developer, chain }) =>
    rotateProviderKey(provider(chain), actor(developer), client_id),
  );

  mountEndpoint(router, services, ENDPOINTS.devMailbox, {}, async () => {
    const box = services.mailer.devMailbox;
    if (!box) throw new SlotgateServerError("not_found", { message: "Mail goes out over SMTP (SMTP_URL): there is no development mailbox." });
    return {
      success: true as const,
      warning: "DEVELOPMENT DEFAULT: mail is kept in the data directory instead of being sent; set SMTP_URL for production",
      messages: box.list({ limit: 50 }),
    };
  });

  const script = loadPageScript("developer-center", "/developer");
  router.get(script.path, servePageScript(script));
  router.get("/developer", (req: Request, res: Response) => {
    // The page's language: ?ui_locales= (like the sign-in pages), then Accept-Language, then English.
    const tr = translator(negotiateLocale(req.query["ui_locales"], req));
    sendHtml(res, 200, (nonce) => renderDeveloperCenter(nonce, script, tr), { connectSelf: true, imagesSelf: true });
  });
  return router;
}
