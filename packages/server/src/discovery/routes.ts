import { PATHS } from "@slotgate/protocol";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { SlotgateServerError } from "../http/errors.js";
import { authorizationServerMetadata } from "./metadata.js";
import { buildOpenApi } from "./openapi.js";

/** JWKS, RFC 8414 metadata, OpenAPI document and health check. */
export function discoveryRoutes(services: Services): Router {
  const router = Router();
  const metadata = authorizationServerMetadata(services.issuer);
  const openapi = buildOpenApi(services.issuer);
  const publicCache = (res: Response) => {
    res.setHeader("Cache-Control", "public, max-age=300");
    res.setHeader("Access-Control-Allow-Origin", "*");
  };
  router.get(PATHS.jwks, (_req: Request, res: Response) => {
    publicCache(res);
    res.json(services.keys.jwks());
  });
  router.get(PATHS.metadata, (_req: Request, res: Response) => {
    publicCache(res);
    res.json(metadata);
  });
  router.get(PATHS.openapi, (_req: Request, res: Response) => {
    publicCache(res);
    res.json(openapi);
  });
  router.get(PATHS.health, async (_req: Request, res: Response) => {
    try {
      await services.db.query("SELECT 1");
    } catch (error) {
      throw new SlotgateServerError("service_unavailable", { cause: error });
    }
    try {
      await services.chain?.service.ready();
    } catch (error) {
      throw new SlotgateServerError("service_unavailable", { message: "The chain is not reachable yet.", cause: error });
    }
    res.setHeader("Cache-Control", "no-store");
    res.json({ success: true, status: "ok", database: services.db.kind, chain: services.chain?.mode ?? "off" });
  });
  return router;
}
