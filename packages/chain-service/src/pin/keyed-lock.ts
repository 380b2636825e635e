/**
 * @internal Runs tasks with the same key one after another (in this process). PIN checks of one user
 * go through it, so concurrent requests are counted against the lockout one by one: a burst of
 * correct requests all pass, a burst of guesses stops at the limit. A wallet's sponsored operations
 * take their turns with {@link KeyedLock.acquire}.
 */
export class KeyedLock<K> {
  readonly #tails = new Map<K, Promise<void>>();

  /**
   * Waits until the tasks of `key` before this one are done; answers the function that ends this
   * turn (calling it again does nothing).
   *
   * @example
   * ```ts
   * const release = await wallets.acquire(sender);
   * try {
   *   await signAndRecord();
   * } finally {
   *   release();
   * }
   * ```
   */
  async acquire(key: K): Promise<() => void> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let end!: () => void;
    const turn = new Promise<void>((resolve) => {
      end = resolve;
    });
    const tail = previous.then(() => turn);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    await previous;
    return () => end();
  }

  /** Runs `task` in its turn; answers what it answers. */
  async run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key);
    try {
      return await task();
    } finally {
      release();
    }
  }
}
