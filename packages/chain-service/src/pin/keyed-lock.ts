/**
 * @internal Runs tasks with the same key one after another (in this process). PIN checks of one user
 * go through it, so concurrent requests are counted against the lockout one by one: a burst of
 * correct requests all pass, a burst of guesses stops at the limit.
 */
export class KeyedLock<K> {
  readonly #tails = new Map<K, Promise<unknown>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
