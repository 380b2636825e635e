import { endpointTable } from "./define.js";
import { contentTokenEndpoints } from "./rows/content-tokens.js";
import { developerEndpoints } from "./rows/developer.js";
import { oauthEndpoints, oauthPages } from "./rows/oauth.js";
import { platformEndpoints } from "./rows/platform.js";
import { walletEndpoints } from "./rows/wallet.js";
import { walletWindowEndpoints, walletWindowPages } from "./rows/wallet-window.js";

/**
 * Every endpoint of the Slotgate HTTP service, by name: method, path, who may call it and how, the
 * request and answer schemas, whether it is an idempotent chain write, its error codes. The server
 * mounts every `json` row from it; `/openapi.json` is generated from it (`buildOpenApi`); SDK
 * clients are made from it (`fillPath`, `placeInput`).
 *
 * @example
 * ```ts
 * import { ENDPOINTS } from "@slotgate/protocol/endpoints";
 * const row = ENDPOINTS.activateSlot;
 * row.method; // "post"
 * row.input.body.parse({ cu_id: "game-1", meta_idx: 2 });
 * ```
 */
export const ENDPOINTS = endpointTable(
  ...oauthPages,
  ...oauthEndpoints,
  ...developerEndpoints,
  ...walletEndpoints,
  ...walletWindowEndpoints,
  ...walletWindowPages,
  ...contentTokenEndpoints,
  ...platformEndpoints,
);

/** Name of an endpoint in {@link ENDPOINTS}. */
export type EndpointName = keyof typeof ENDPOINTS;
