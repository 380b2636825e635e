import type { ChainInfoResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { mountEndpoint } from "../../platform/http/mount-endpoint.js";

/**
 * `GET /v1/chain` (Slotgate extension, public, CORS open): the chain id and the deployed contracts, and
 * on the development chain its JSON-RPC URL, so an integrator reads balances, slot ownership and
 * spending straight from the chain with their own client (viem, ethers, `cast`).
 *
 * `GET /v1/chain/writes/{write_id}` (Slotgate extension): the state of a chain write a money endpoint
 * answered 202 for, and its answer once it landed, for its owner only (the client by HTTP Basic, or
 * the user by bearer token); another's or an unknown id is 404 `write_not_found`.
 */
export function chainInfoRoutes(services: Services): Router {
  const router = Router();
  mountEndpoint(router, services, ENDPOINTS.chainInfo, { chain: true }, async (_input, { chain }): Promise<ChainInfoResponse> => {
    const { chainId, xotn, exchange, entryPoint, factory, paymaster } = chain.addresses;
    return {
      success: true,
      chain_id: chainId.toString(),
      contracts: { xotn, exchange, entry_point: entryPoint, account_factory: factory, paymaster },
      ...(services.chain?.rpcUrl ? { rpc_url: services.chain.rpcUrl } : {}),
    };
  });
  mountEndpoint(router, services, ENDPOINTS.chainWrite, { chain: true }, ({ write_id }, { chain, client, claims }) =>
    chain.lookupWrite(client ? { client_id: client.client_id } : { user_uuid: Number(claims!.sub) }, write_id),
  );
  return router;
}
