import { JsonRpcProvider } from "ethers";

/**
 * Connects to a JSON-RPC node (`RPC_URL`). Polling is set to 1 s; the URL is never logged or put in
 * error messages (it may carry an API key).
 *
 * @example
 * ```ts
 * const provider = connectRpc(process.env.RPC_URL!);
 * ```
 */
export function connectRpc(url: string): JsonRpcProvider {
  const provider = new JsonRpcProvider(url, undefined, { cacheTimeout: -1 });
  provider.pollingInterval = 1000;
  return provider;
}
