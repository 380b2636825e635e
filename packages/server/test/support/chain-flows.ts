import { createHash, randomBytes } from "node:crypto";
import { Contract, JsonRpcProvider } from "ethers";
import { type SlotgateContracts, connectContracts } from "@slotgate/contracts";
import { expect } from "vitest";
import type { TestServer } from "./harness.js";
import { authorizeCode, call, exchange, type registerClient } from "./flows.js";

/** A PIN as a client sends it: pin_hash = SHA-256(pin ‖ salt), salt 64 hex. */
export function pinOf(pin: string, salt = randomBytes(32).toString("hex")) {
  return {
    pin_hash: createHash("sha256")
      .update(pin + salt)
      .digest("hex"),
    pin_salt: salt,
  };
}

/** An end user signed up through the authorize form, with an access token for `client`. */
export interface ChainUser {
  userId: string;
  uuid: number;
  token: string;
  email: string;
  password: string;
  contentAddress: string;
}

export type TestClient = Awaited<ReturnType<typeof registerClient>>;

/** Signs a user up on a blockchain client and exchanges the code. */
export async function newUser(server: { url: string }, client: TestClient): Promise<ChainUser> {
  const { code, email, password } = await authorizeCode(server.url, client);
  const res = await exchange(server.url, client, code);
  expect(res.status).toBe(200);
  const userId = String(res.json["user_id"]);
  return { userId, uuid: Number(userId), token: String(res.json["access_token"]), email, password, contentAddress: String(res.json["content_address"]) };
}

/** HTTP Basic header of a client. */
export function basic(client: { client_id: string; client_secret: string }): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}` };
}

/** POST JSON with HTTP Basic client credentials. */
export function postBasic(server: { url: string }, client: { client_id: string; client_secret: string }, path: string, body: unknown) {
  return call(server.url, "POST", path, { body, headers: basic(client) });
}

/** The chain service of a test server. */
export function chainOf(server: TestServer) {
  const handle = server.slotgate.services.chain;
  if (!handle) throw new Error("the test server runs without its chain");
  return handle.service;
}

/** XOTN balance of an address, read from the server's development chain over its JSON-RPC URL. */
export async function xotnBalance(server: TestServer, address: string): Promise<bigint> {
  const provider = new JsonRpcProvider(server.slotgate.services.chain?.rpcUrl as string, undefined, { cacheTimeout: -1, staticNetwork: true });
  try {
    const xotn = new Contract(chainOf(server).addresses.xotn, ["function balanceOf(address) view returns (uint256)"], provider);
    return (await xotn.getFunction("balanceOf")(address)) as bigint;
  } finally {
    provider.destroy();
  }
}

/**
 * The deployed contracts of a test server's development chain, read-only over its JSON-RPC URL (to check
 * what the chain says, or to write its state with Anvil's methods through `provider`); `close()` releases the connection.
 */
export function chainContracts(server: TestServer): SlotgateContracts & { provider: JsonRpcProvider; close(): void } {
  const provider = new JsonRpcProvider(server.slotgate.services.chain?.rpcUrl as string, undefined, { cacheTimeout: -1, staticNetwork: true });
  return { ...connectContracts(chainOf(server).addresses, provider), provider, close: () => provider.destroy() };
}

/** Digest of every chain-service record the HTTP layer can change (to assert that nothing changed). */
export async function chainSnapshot(server: TestServer): Promise<string> {
  const rows = await server.sql<{ digest: string }>(
    `SELECT md5(concat_ws('|',
       (SELECT string_agg(user_uuid::text || owner_eoa || coalesce(pin_salt, '-'), ',' ORDER BY user_uuid) FROM cs_wallets),
       (SELECT string_agg(key_id || b_key, ',' ORDER BY key_id) FROM cs_keys),
       (SELECT string_agg(user_uuid::text || ':' || failures, ',' ORDER BY user_uuid) FROM cs_pin_attempts),
       (SELECT string_agg(client_id || replay_protection::text, ',' ORDER BY client_id) FROM cs_providers),
       (SELECT string_agg(cuid || client_id, ',' ORDER BY cuid) FROM cs_provider_cuids),
       (SELECT string_agg(client_id || nonce, ',' ORDER BY client_id, nonce) FROM cs_spend_nonces),
       (SELECT string_agg(from_uuid || state_hash || coalesce(tx_hash, '-'), ',' ORDER BY from_uuid, state_hash) FROM cs_slot_exchange_states),
       (SELECT count(*)::text FROM cs_writes)
     )) AS digest`,
  );
  return rows[0]!.digest;
}
