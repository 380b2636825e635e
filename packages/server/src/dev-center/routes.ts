import { z } from "zod";
import { type ClientRegistrationResponse, type ClientSecretRotationResponse, type DevUserLoginResponse, PATHS } from "@slotgate/protocol";
import { clientIdParamSchema, clientRegistrationSchema, clientUpdateSchema, deliveryParamSchema, devUserCredentialsSchema, providerCuidSchema, replayProtectionSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { jsonBody } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { sendHtml } from "../http/html.js";
import { rateLimit } from "../http/rate-limit.js";
import { parseInput } from "../http/validate.js";
import { bearerFrom } from "../keys/tokens.js";
import { listClients, toClientApplication } from "../storage/clients.js";
import { findDevUserByUuid } from "../storage/dev-users.js";
import { authenticateDevUser, createDevUser, registerClient } from "./accounts.js";
import { type Actor, clientAudit, clientDeliveries, deleteClient, editClient, type ManageDeps, retryDelivery, rotateSecret, setDisabled } from "./manage.js";
import { renderDeveloperCenter } from "./page.js";
import { providerOf, type ProviderDeps, registerCuid, rotateProviderKey, setReplayProtection } from "./provider.js";
import { chainOf, writeOptionsOf } from "../chain/chain-route.js";
import { isPendingWrite } from "@slotgate/protocol";

/** Bodies of the action endpoints (rotate, disable, enable, retry): nothing, or `{}`. */
const emptyBody = z.strictObject({});

/** Developer sign-up and login (spec 4.1), client registration API and the developer-center page. */
export function devCenterRoutes(services: Services): Router {
  const router = Router();
  const signInLimit = rateLimit("sign-in", services.config.rateLimit.signInPerMinute, services.config.rateLimit.enabled, services.redis, services.config.rateLimit.redisPrefix);

  const devUser = async (req: Request) => {
    const uuid = await services.tokens.verifyDevToken(bearerFrom(req.headers.authorization));
    const row = await findDevUserByUuid(services.db, uuid);
    if (!row) throw new SlotgateServerError("invalid_token");
    return row;
  };

  router.post("/v1/dev-user/signup", signInLimit, jsonBody, async (req: Request, res: Response) => {
    const body = parseInput(devUserCredentialsSchema, req.body);
    const row = await createDevUser(services, body.email, body.password);
    const answer: DevUserLoginResponse = { success: true, token: await services.tokens.signDevToken(row.uuid), uuid: row.uuid };
    res.status(201).json(answer);
  });

  router.post("/v1/dev-user/login_devuser", signInLimit, jsonBody, async (req: Request, res: Response) => {
    const body = parseInput(devUserCredentialsSchema, req.body);
    const row = await authenticateDevUser(services, body.email, body.password);
    const answer: DevUserLoginResponse = { success: true, token: await services.tokens.signDevToken(row.uuid), uuid: row.uuid };
    res.setHeader("Cache-Control", "no-store");
    res.json(answer);
  });

  router.post("/v1/dev-user/clients", jsonBody, async (req: Request, res: Response) => {
    const owner = await devUser(req);
    const body = parseInput(clientRegistrationSchema, req.body);
    const { row, secret } = await registerClient(services, owner.id, body, owner.email);
    const answer: ClientRegistrationResponse = { success: true, ...toClientApplication(row), client_secret: secret };
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json(answer);
  });

  router.get("/v1/dev-user/clients", async (req: Request, res: Response) => {
    const owner = await devUser(req);
    const rows = await listClients(services.db, owner.id);
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, clients: rows.map(toClientApplication) });
  });

  const deps: ManageDeps = {
    db: services.db,
    secrets: services.secrets,
    overlapSeconds: services.config.clientSecretOverlapSeconds,
    changed: (clientId) => services.clients.forget(clientId),
    revokeClient: (clientId, at) => services.revocations.revokeClient(clientId, at),
    kickOutbox: () => services.outbox.kick(),
  };
  /** The caller (developer token) and the client_id of the path; bad path input is 400 before anything else. */
  const target = async (req: Request): Promise<{ actor: Actor; clientId: string }> => {
    const owner = await devUser(req);
    const { client_id } = parseInput(clientIdParamSchema, { client_id: req.params["client_id"] });
    return { actor: { devUserId: owner.id, label: owner.email }, clientId: client_id };
  };
  const one = `${PATHS.clients}/:client_id`;

  router.patch(one, jsonBody, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    const body = parseInput(clientUpdateSchema, req.body);
    const row = await editClient(deps, actor, clientId, body);
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, ...toClientApplication(row) });
  });

  router.delete(one, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    await deleteClient(deps, actor, clientId);
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, client_id: clientId, deleted: true });
  });

  router.post(`${one}/secret`, jsonBody, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    parseInput(emptyBody, req.body);
    const { row, secret } = await rotateSecret(deps, actor, clientId);
    const answer: ClientSecretRotationResponse = { success: true, ...toClientApplication(row), client_secret: secret };
    res.setHeader("Cache-Control", "no-store");
    res.json(answer);
  });

  for (const [verb, disabled] of [["disable", true], ["enable", false]] as const) {
    router.post(`${one}/${verb}`, jsonBody, async (req: Request, res: Response) => {
      const { actor, clientId } = await target(req);
      parseInput(emptyBody, req.body);
      const row = await setDisabled(deps, actor, clientId, disabled);
      res.setHeader("Cache-Control", "no-store");
      res.json({ success: true, ...toClientApplication(row) });
    });
  }

  router.get(`${one}/audit`, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, entries: await clientAudit(deps, actor, clientId) });
  });

  router.get(`${one}/deliveries`, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, deliveries: await clientDeliveries(deps, actor, clientId) });
  });

  router.post(`${one}/deliveries/:delivery_id/retry`, jsonBody, async (req: Request, res: Response) => {
    const owner = await devUser(req);
    const params = parseInput(deliveryParamSchema, { client_id: req.params["client_id"], delivery_id: req.params["delivery_id"] });
    parseInput(emptyBody, req.body);
    const delivery = await retryDelivery(deps, { devUserId: owner.id, label: owner.email }, params.client_id, params.delivery_id);
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, delivery });
  });

  // The provider side (content tokens) of a client: chain-service calls, 503 service_unavailable with CHAIN=off.
  const provider = (): ProviderDeps => ({ db: services.db, chain: chainOf(services), keyOverlapSeconds: services.config.providerKeyOverlapSeconds });

  router.get(`${one}/provider`, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    res.setHeader("Cache-Control", "no-store");
    res.json(await providerOf(provider(), actor, clientId));
  });

  router.post(`${one}/provider/cuids`, jsonBody, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    const body = parseInput(providerCuidSchema, req.body);
    const write = writeOptionsOf(req);
    const answer = await registerCuid(provider(), actor, clientId, body, write);
    res.setHeader("Cache-Control", "no-store");
    if (isPendingWrite(answer)) res.status(202).setHeader("Retry-After", "2");
    res.json(answer);
  });

  router.post(`${one}/provider/replay_protection`, jsonBody, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    const body = parseInput(replayProtectionSchema, req.body);
    res.setHeader("Cache-Control", "no-store");
    res.json(await setReplayProtection(provider(), actor, clientId, body.enabled));
  });

  router.post(`${one}/provider/key`, jsonBody, async (req: Request, res: Response) => {
    const { actor, clientId } = await target(req);
    parseInput(emptyBody, req.body);
    res.setHeader("Cache-Control", "no-store");
    res.json(await rotateProviderKey(provider(), actor, clientId));
  });

  router.get(PATHS.devMailbox, async (req: Request, res: Response) => {
    await devUser(req);
    const box = services.mailer.devMailbox;
    if (!box) throw new SlotgateServerError("not_found", { message: "Mail goes out over SMTP (SMTP_URL): there is no development mailbox." });
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, warning: "DEVELOPMENT DEFAULT: mail is kept in the data directory instead of being sent; set SMTP_URL for production", messages: box.list({ limit: 50 }) });
  });

  router.get("/developer", (_req: Request, res: Response) => {
    sendHtml(res, 200, (nonce) => renderDeveloperCenter(nonce), { connectSelf: true });
  });
  return router;
}
