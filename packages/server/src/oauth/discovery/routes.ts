import { buildOpenApi, ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";
import { authorizationServerMetadata } from "./metadata.js";

/** JWKS, RFC 8414 metadata, the OpenAPI document (generated from the endpoint table) and the health check. */
export function discoveryRoutes(services: Services): Router {
  const router = Router();
  const metadata = authorizationServerMetadata(services.issuer);
  const openapi = buildOpenApi(services.issuer);
  const publicCache = { headers: { "Cache-Control": "public, max-age=300" } };
  mountEndpoint(router, services, ENDPOINTS.jwks, publicCache, async () => services.keys.jwks() as { keys: Array<Record<string, unknown>> });
  mountEndpoint(router, services, ENDPOINTS.metadata, publicCache, async () => metadata);
  mountEndpoint(router, services, ENDPOINTS.openapi, publicCache, async () => openapi);
  mountEndpoint(router, services, ENDPOINTS.health, {}, async () => {
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
    return { success: true as const, status: "ok" as const, database: services.db.kind, chain: services.chain?.mode ?? "off" };
  });
  return router;
}
