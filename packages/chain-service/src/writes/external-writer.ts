import { forgetWalletNonces } from "../storage/wallet-nonces.js";
import { type WriteRecord, markHandedOver, pendingWrites, submittedWrites, touchWrite } from "../storage/writes.js";
import { ChainServiceError } from "../errors.js";
import type { JsonRpcProvider } from "ethers";
import { getAddress } from "ethers";
import { failWrite } from "./effects.js";
import { LeasedLoop, type LeasedLoopOptions } from "./leased-loop.js";
import type { OperationPayload, OperationPlanner } from "./operation-planner.js";

/** Options of {@link ExternalOperationWriter}. */
export interface ExternalOperationWriterOptions extends LeasedLoopOptions {
  /** The bundler's JSON-RPC URL (never logged: it may carry an API key). */
  url: string;
  entryPoint: string;
  provider: JsonRpcProvider;
  /** Settles operations from the receipts of the bundles that carried them. */
  planner: OperationPlanner;
  onSettled: (ids: readonly string[]) => void;
  /** An operation without a receipt is handed over again after this long, ms. @default 30000 */
  resendMs?: number;
  /** Injectable fetch. @default globalThis.fetch */
  fetch?: typeof fetch;
}

interface RpcAnswer<T> {
  result?: T;
  error?: { code: number; message: string };
}

/** The bundler refused an operation (a JSON-RPC error): final for that operation. */
class Refused extends Error {
  constructor(
    readonly reason: string,
    readonly rpcCode: number,
  ) {
    super(reason);
  }
}

const payloadOf = (write: WriteRecord) => write.payload as unknown as OperationPayload;

/** The id of an external bundler's queue in `cs_writes.signer` and `cs_signers` (never its URL: it may carry a key). */
export function externalBundlerId(entryPoint: string): string {
  return `external-bundler:${getAddress(entryPoint)}`;
}

/**
 * @internal Hands the recorded UserOperations to an external ERC-4337 v0.6 bundler
 * (`eth_sendUserOperation`) and settles them from `eth_getUserOperationReceipt` and the bundle's
 * receipt. One instance does it at a time (a lease, like a signer's). A wallet has one operation at
 * the bundler at a time (bundlers keep one per unstaked sender); its next one is sent once the
 * previous one settled. An operation the bundler refuses fails with the bundler's reason, the
 * wallet's nonces are read from the chain again and its later operations fail too; an operation
 * without a receipt is handed over again until its sponsorship ends, then settled from its
 * `UserOperationEvent` if one is on chain, else failed.
 */
export class ExternalOperationWriter extends LeasedLoop {
  readonly #o: ExternalOperationWriterOptions & { resendMs: number; fetch: typeof fetch };
  #id = 0;

  constructor(options: ExternalOperationWriterOptions) {
    super(externalBundlerId(options.entryPoint), options);
    this.#o = { resendMs: 30_000, fetch: globalThis.fetch, ...options };
  }

  async #call<T>(method: string, params: unknown[]): Promise<T> {
    let response: Response;
    try {
      response = await this.#o.fetch(this.#o.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++this.#id, method, params }),
      });
    } catch (cause) {
      throw new ChainServiceError("chain_unavailable", "the external bundler did not answer", { cause });
    }
    if (!response.ok) throw new ChainServiceError("chain_unavailable", `the external bundler answered HTTP ${response.status}`);
    const body = (await response.json()) as RpcAnswer<T>;
    if (body.error) throw new Refused(String(body.error.message).slice(0, 200), body.error.code);
    return body.result as T;
  }

  protected async work(): Promise<boolean> {
    const settled: string[] = [];
    const inFlight = await submittedWrites(this.#o.db, this.address);
    const busy = new Set<string>();
    for (const write of inFlight) {
      if (await this.#follow(write)) settled.push(write.id);
      else busy.add(getAddress(payloadOf(write).sender));
    }
    const failedWallets = new Set<string>();
    for (const write of await pendingWrites(this.#o.db, this.address, 100)) {
      const sender = getAddress(payloadOf(write).sender);
      if (failedWallets.has(sender)) {
        await failWrite(this.#o.db, write, {
          code: "chain_reverted",
          message: "an earlier operation of this wallet was refused, so this one cannot land; send it again",
          details: { reason: "EarlierOperationRefused" },
        });
        settled.push(write.id);
        continue;
      }
      if (busy.has(sender)) continue;
      if (write.validUntil !== null && write.validUntil.getTime() <= Date.now()) {
        await this.#expire(write);
        settled.push(write.id);
        continue;
      }
      try {
        await this.#call("eth_sendUserOperation", [payloadOf(write).op, this.#o.entryPoint]);
      } catch (error) {
        if (!(error instanceof Refused)) break; // the bundler is unreachable: try again next cycle
        await failWrite(this.#o.db, write, {
          code: "chain_reverted",
          message: `the external bundler refused the operation: ${error.reason}`,
          details: { reason: "BundlerRefused", rpc_code: error.rpcCode },
        });
        await forgetWalletNonces(this.#o.db, sender);
        failedWallets.add(sender);
        settled.push(write.id);
        continue;
      }
      await markHandedOver(this.#o.db, [write.id], this.address);
      this.stats.transactions += 1;
      busy.add(sender);
    }
    if (settled.length > 0) this.#o.onSettled(settled);
    return busy.size > 0;
  }

  /** Looks for a handed-over operation's receipt; answers whether it was settled. */
  async #follow(write: WriteRecord): Promise<boolean> {
    const payload = payloadOf(write);
    const found = await this.#call<{ receipt?: { transactionHash?: string } } | null>("eth_getUserOperationReceipt", [payload.userOpHash]).catch(
      (error: unknown) => {
        if (error instanceof Refused) return null;
        throw error;
      },
    );
    const txHash = found?.receipt?.transactionHash;
    if (txHash) {
      const receipt = await this.#o.provider.getTransactionReceipt(txHash);
      if (receipt === null) return false;
      await this.#o.planner.settleOperation(write, receipt);
      return true;
    }
    if (write.validUntil !== null && write.validUntil.getTime() <= Date.now()) {
      await this.#expire(write);
      return true;
    }
    if (Date.now() - write.updatedAt.getTime() > this.#o.resendMs) {
      // The bundler may have lost it (a restart): hand the same operation over again.
      await this.#call("eth_sendUserOperation", [payload.op, this.#o.entryPoint]).catch(() => undefined);
      await touchWrite(this.#o.db, write.id);
      this.stats.rebroadcasts += 1;
    }
    return false;
  }

  /** An operation whose sponsorship ended: settled from its event if it landed, else failed. */
  async #expire(write: WriteRecord): Promise<void> {
    if (await this.#o.planner.findLanded(write)) return;
    await failWrite(this.#o.db, write, {
      code: "chain_reverted",
      message: "the operation's sponsorship ended before it landed; send it again",
      details: { reason: "SponsorshipExpired" },
    });
    await forgetWalletNonces(this.#o.db, getAddress(payloadOf(write).sender));
  }
}
