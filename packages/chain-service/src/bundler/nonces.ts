import { Contract, type Provider, getAddress } from "ethers";
import { type EntryPointContract, type SlotgatePaymasterContract, entryPointAbi, slotgatePaymasterAbi } from "@slotgate/contracts";

/** The nonces the next operation of a wallet must carry. */
export interface NextNonces {
  /** EntryPoint nonce (key 0). */
  nonce: bigint;
  /** The paymaster's `senderNonce` the operation validates with. */
  paymasterNonce: bigint;
}

/**
 * Per-wallet nonce tracking: `EntryPoint.getNonce(sender, 0)` read once, plus the count of operations
 * queued locally since. Work for one wallet runs one at a time ({@link WalletNonces.withNext}), so two
 * operations never get the same nonce; the nonce advances only when the step succeeded (the operation
 * was handed to the bundler).
 *
 * @example
 * ```ts
 * const receipt = await nonces.withNext(wallet, async ({ nonce, paymasterNonce }) => {
 *   const signed = await buildSponsorSign(nonce, paymasterNonce);
 *   return { queued: bundler.submit(signed) };
 * });
 * ```
 */
export class WalletNonces {
  readonly #entryPoint: EntryPointContract;
  readonly #paymaster: SlotgatePaymasterContract;
  readonly #next = new Map<string, { nonce: bigint; offset: bigint }>();
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(provider: Provider, entryPoint: string, paymaster: string) {
    this.#entryPoint = new Contract(entryPoint, entryPointAbi, provider) as unknown as EntryPointContract;
    this.#paymaster = new Contract(paymaster, slotgatePaymasterAbi, provider) as unknown as SlotgatePaymasterContract;
  }

  /**
   * Runs `step` with the wallet's next nonces while holding the wallet's lock. When `step` resolves,
   * the nonce is consumed; when it throws, it is not.
   */
  async withNext<T>(sender: string, step: (next: NextNonces) => Promise<T>): Promise<T> {
    const key = getAddress(sender);
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const run = previous.then(async () => {
      let state = this.#next.get(key);
      if (state === undefined) {
        const [nonce, paymasterNonce] = await Promise.all([this.#entryPoint.getNonce(key, 0n), this.#paymaster.senderNonce(key)]);
        state = { nonce, offset: paymasterNonce - nonce };
        this.#next.set(key, state);
      }
      const result = await step({ nonce: state.nonce, paymasterNonce: state.nonce + state.offset });
      state.nonce += 1n;
      return result;
    });
    const settled = run.catch(() => undefined);
    this.#locks.set(key, settled);
    void settled.then(() => {
      if (this.#locks.get(key) === settled) this.#locks.delete(key);
    });
    return run;
  }

  /** Forgets what is known about a wallet; the next operation re-reads the chain. */
  reset(sender: string): void {
    this.#next.delete(getAddress(sender));
  }
}
