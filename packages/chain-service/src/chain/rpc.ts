import { FetchRequest, JsonRpcProvider } from "ethers";

/** Default time one JSON-RPC request may take, ms. */
export const DEFAULT_RPC_TIMEOUT_MS = 30_000;

/**
 * Connects to a JSON-RPC node. Each request fails after `timeoutMs` (the caller maps it to
 * `chain_unavailable`); requests made within 10 ms go as one batch unless `batch` is false; polling is set to 1 s; the URL is never logged or put in error messages (it
 * may carry an API key).
 *
 * @example
 * ```ts
 * const provider = connectRpc(process.env.RPC_URL!, 10_000);
 * ```
 */
export function connectRpc(url: string, timeoutMs: number = DEFAULT_RPC_TIMEOUT_MS, batch = true): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.timeout = timeoutMs;
  const provider = new JsonRpcProvider(request, undefined, { cacheTimeout: -1, ...(batch ? {} : { batchMaxCount: 1 }) });
  provider.pollingInterval = 1000;
  return provider;
}
