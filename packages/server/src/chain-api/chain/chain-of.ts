import type { ChainService } from "@slotgate/chain-service";
import type { Services } from "../../platform/app/services.js";
import { SlotgateServerError } from "../../platform/http/errors.js";

/**
 * The running chain service, or 503 service_unavailable when the server runs with `CHAIN=off`.
 *
 * @example
 * ```ts
 * const status = await chainOf(services).providerStatus(clientId);
 * ```
 */
export function chainOf(services: Services): ChainService {
  if (!services.chain) {
    throw new SlotgateServerError("service_unavailable", {
      message: "The chain service is off on this server (CHAIN=off); wallet, PIN and content-token endpoints are unavailable.",
    });
  }
  return services.chain.service;
}
