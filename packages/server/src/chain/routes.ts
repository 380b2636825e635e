import { type ChainInfoResponse, PATHS } from "@slotgate/protocol";
import { Router } from "express";
import { z } from "zod";
import { primitives } from "@slotgate/protocol/schemas";
import type { Services } from "../app/services.js";
import { chainRoute } from "./chain-route.js";

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
  router.get(
    PATHS.chainInfo,
    ...chainRoute(services, { caller: "public", schema: z.strictObject({}), input: () => ({}) }, async ({ chain, res }) => {
      res.set({ "Access-Control-Allow-Origin": "*" });
      const { chainId, xotn, exchange, entryPoint, factory, paymaster } = chain.addresses;
      const answer: ChainInfoResponse = {
        success: true,
        chain_id: chainId.toString(),
        contracts: { xotn, exchange, entry_point: entryPoint, account_factory: factory, paymaster },
        ...(services.chain?.rpcUrl ? { rpc_url: services.chain.rpcUrl } : {}),
      };
      return answer;
    }),
  );
  router.get(
    PATHS.chainWrite,
    ...chainRoute(
      services,
      {
        caller: "client_or_user",
        schema: z.strictObject({ write_id: primitives.writeId }),
        input: (req) => ({ write_id: req.params["write_id"] }),
        acceptedWhenPending: false,
      },
      ({ chain, body, client, claims }) =>
        chain.lookupWrite(client ? { client_id: client.client_id } : { user_uuid: Number(claims!.sub) }, body.write_id),
    ),
  );
  return router;
}
