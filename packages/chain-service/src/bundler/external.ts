import { type UserOperation, getUserOpHash, userOperationToRpc } from "@slotgate/contracts";
import { ChainServiceError } from "../errors.js";
import type { UserOperationReceipt, UserOperationSubmitter } from "./submitter.js";

/** Options of {@link ExternalBundler}. */
export interface ExternalBundlerOptions {
  /** The bundler's JSON-RPC URL (never logged: it may carry an API key). */
  url: string;
  /** The EntryPoint the operations target. */
  entryPoint: string;
  /** Chain id (to compute operation hashes locally). */
  chainId: bigint;
  /** Interval between `eth_getUserOperationReceipt` polls, ms. @default 500 */
  pollIntervalMs?: number;
  /** Give up waiting for inclusion after this many ms. @default 120000 */
  timeoutMs?: number;
  /** Injectable fetch. @default globalThis.fetch */
  fetch?: typeof fetch;
}

interface RpcResponse<T> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * Submits operations to an external ERC-4337 v0.6 bundler: `eth_sendUserOperation(op, entryPoint)`,
 * then polls `eth_getUserOperationReceipt(hash)` until it is included.
 *
 * @example
 * ```ts
 * const bundler = new ExternalBundler({ url: process.env.BUNDLER_URL!, entryPoint, chainId: 8453n });
 * const { transactionHash } = await bundler.submit(signedOp);
 * ```
 */
export class ExternalBundler implements UserOperationSubmitter {
  readonly #options: ExternalBundlerOptions;
  readonly #fetch: typeof fetch;
  #id = 0;
  readonly pipelinesPerWallet = false;
  #closed = false;
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(options: ExternalBundlerOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  async #call<T>(method: string, params: unknown[]): Promise<T> {
    let response: Response;
    try {
      response = await this.#fetch(this.#options.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++this.#id, method, params }),
      });
    } catch (cause) {
      throw new ChainServiceError("chain_unavailable", "the external bundler did not answer", { cause });
    }
    if (!response.ok) throw new ChainServiceError("chain_unavailable", `the external bundler answered HTTP ${response.status}`);
    const body = (await response.json()) as RpcResponse<T>;
    if (body.error) {
      throw new ChainServiceError("chain_reverted", `the external bundler refused ${method}: ${String(body.error.message).slice(0, 200)}`, {
        details: { rpc_code: body.error.code },
      });
    }
    return body.result as T;
  }

  submit(op: UserOperation): Promise<UserOperationReceipt> {
    if (this.#closed) return Promise.reject(new ChainServiceError("service_unavailable", "the bundler is closed"));
    const work = this.#submit(op);
    this.#inFlight.add(work);
    void work.catch(() => undefined).finally(() => this.#inFlight.delete(work));
    return work;
  }

  async #submit(op: UserOperation): Promise<UserOperationReceipt> {
    const expected = getUserOpHash(op, this.#options.entryPoint, this.#options.chainId);
    const hash = await this.#call<string>("eth_sendUserOperation", [userOperationToRpc(op), this.#options.entryPoint]);
    if (typeof hash !== "string" || hash.toLowerCase() !== expected.toLowerCase()) {
      throw new ChainServiceError("chain_unavailable", "the external bundler answered an unexpected operation hash");
    }
    const deadline = Date.now() + (this.#options.timeoutMs ?? 120_000);
    while (Date.now() < deadline) {
      const receipt = await this.#call<{
        success: boolean;
        reason?: string;
        receipt?: { transactionHash: string };
      } | null>("eth_getUserOperationReceipt", [hash]);
      if (receipt) {
        return {
          userOpHash: hash,
          transactionHash: receipt.receipt?.transactionHash ?? "",
          success: Boolean(receipt.success),
          ...(receipt.reason ? { revertReason: receipt.reason } : {}),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, this.#options.pollIntervalMs ?? 500));
    }
    throw new ChainServiceError("chain_unavailable", "the operation was not included in time");
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#inFlight]);
  }
}
