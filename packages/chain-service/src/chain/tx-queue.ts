import type { Provider, TransactionReceipt, TransactionRequest, Wallet } from "ethers";
import { decodeContractError } from "@slotgate/contracts";
import { ChainServiceError } from "../errors.js";

/**
 * Sends one EOA's transactions strictly one after another with a locally tracked nonce, so
 * concurrent callers never collide on a nonce. A send that fails re-reads the nonce from the chain
 * (`pending`) before the next one.
 *
 * @example
 * ```ts
 * const queue = new SerialTxSender(operatorWallet);
 * const receipt = await queue.sendAndWait({ to, data });
 * ```
 */
export class SerialTxSender {
  readonly #signer: Wallet;
  #nonce: number | undefined;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(signer: Wallet) {
    if (signer.provider == null) throw new ChainServiceError("internal_error", "transaction signer has no provider");
    this.#signer = signer;
  }

  /** The sender's address. */
  get address(): string {
    return this.#signer.address;
  }

  /** The provider the sender is connected to. */
  get provider(): Provider {
    return this.#signer.provider as Provider;
  }

  /**
   * Estimates (inside the queue, after the earlier transactions were sent), signs with the next nonce,
   * sends, and waits for the receipt. A revert during estimation or on chain throws `chain_reverted`
   * carrying the decoded custom error name in `details.reason`.
   */
  async sendAndWait(tx: TransactionRequest): Promise<TransactionReceipt> {
    const response = await this.#enqueue(async () => {
      let gasLimit = tx.gasLimit;
      if (gasLimit == null) {
        try {
          gasLimit = ((await this.#signer.estimateGas({ ...tx, from: this.#signer.address, gasLimit: 16_777_216n })) * 12n) / 10n;
        } catch (cause) {
          throw revertError(cause);
        }
      }
      for (let attempt = 0; ; attempt++) {
        this.#nonce ??= await this.provider.getTransactionCount(this.#signer.address, "pending");
        try {
          const sent = await this.#signer.sendTransaction({ ...tx, gasLimit, nonce: this.#nonce });
          this.#nonce += 1;
          return sent;
        } catch (cause) {
          this.#nonce = undefined;
          // Another process used this key: the nonce is re-read from the chain and the send retried once.
          if (attempt === 0 && (cause as { code?: unknown })?.code === "NONCE_EXPIRED") continue;
          throw revertError(cause);
        }
      }
    });
    let receipt: TransactionReceipt | null;
    try {
      receipt = await response.wait();
    } catch (cause) {
      throw revertError(cause);
    }
    if (receipt === null) throw new ChainServiceError("chain_unavailable", "transaction was not mined");
    return receipt;
  }

  #enqueue<T>(step: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(step, step);
    this.#tail = run.catch(() => undefined);
    return run;
  }
}

/** Maps an ethers error to `chain_reverted` (with the custom error name) or `chain_unavailable`. */
export function revertError(cause: unknown): ChainServiceError {
  if (cause instanceof ChainServiceError) return cause;
  const decoded = decodeContractError(cause);
  if (decoded !== undefined) {
    return new ChainServiceError("chain_reverted", `the blockchain rejected the transaction (${decoded.name})`, {
      cause,
      details: { reason: decoded.name },
    });
  }
  const code = (cause as { code?: unknown })?.code;
  if (code === "CALL_EXCEPTION") {
    return new ChainServiceError("chain_reverted", undefined, { cause });
  }
  return new ChainServiceError("chain_unavailable", undefined, { cause });
}
