import type { ClientRegistrationResponse, DevUserLoginResponse } from "@slotgate/protocol";
import { clientRegistrationSchema, devUserCredentialsSchema } from "@slotgate/protocol/schemas";
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
import { renderDeveloperCenter } from "./page.js";

/** Developer sign-up and login (spec 4.1), client registration API and the developer-center page. */
export function devCenterRoutes(services: Services): Router {
  const router = Router();
  const signInLimit = rateLimit("sign-in", services.config.rateLimit.signInPerMinute, services.config.rateLimit.enabled);

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
    const { row, secret } = await registerClient(services, owner.id, body);
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

  router.get("/developer", (_req: Request, res: Response) => {
    sendHtml(res, 200, (nonce) => renderDeveloperCenter(nonce), { connectSelf: true });
  });
  return router;
}
