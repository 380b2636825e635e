/**
 * Login-state events of {@link Slotgate.on}:
 * - `login`: a JWT was stored (popup, redirect callback, or another tab of this origin logging in);
 * - `logout`: the session was cleared (`logout()` here or in another tab);
 * - `expired`: the stored JWT's `exp` passed while the page was open (`isLoggedIn()` is now false).
 *
 * @example
 * ```ts
 * const events: SlotgateEvent[] = ["login", "logout", "expired"];
 * ```
 */
export type SlotgateEvent = "login" | "logout" | "expired";

/** A listener of {@link Slotgate.on}. @internal */
export type Listener = () => void;

/** A minimal event emitter: a listener that throws does not stop the others. @internal */
export class Listeners {
  readonly #sets: Partial<Record<SlotgateEvent, Set<Listener>>> = {};

  on(type: SlotgateEvent, listener: Listener): () => void {
    const set = this.#sets[type] ?? new Set();
    this.#sets[type] = set;
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit(type: SlotgateEvent): void {
    for (const listener of [...(this.#sets[type] ?? [])]) {
      try {
        listener();
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  }
}
