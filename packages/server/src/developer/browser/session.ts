import type { ErrorBody } from "@slotgate/protocol";
import { errorText } from "./messages.js";

/** Where the developer token is kept: sessionStorage, never a cookie (no ambient credential). */
const TOKEN_KEY = "slotgate_dev_token";

/** A method of the developer-center JSON API. */
export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * The developer's session: the token of sign-in or sign-up, sent as `Authorization: Bearer` on every call.
 * A 401 while signed in ends the session (`onSignedOut` shows the sign-in form again).
 *
 * @example
 * ```ts
 * const session = new Session(() => render());
 * const { clients } = await session.call<{ clients: ClientApplication[] }>("GET", PATHS.clients);
 * ```
 */
export class Session {
  #token: string | null = sessionStorage.getItem(TOKEN_KEY);
  readonly #onSignedOut: () => void;

  constructor(onSignedOut: () => void) {
    this.#onSignedOut = onSignedOut;
  }

  /** Whether a developer is signed in. */
  get signedIn(): boolean {
    return this.#token !== null;
  }

  /** Keeps the token of a sign-in or sign-up. */
  signIn(token: string): void {
    this.#token = token;
    sessionStorage.setItem(TOKEN_KEY, token);
  }

  /** Forgets the token. */
  signOut(): void {
    this.#token = null;
    sessionStorage.removeItem(TOKEN_KEY);
  }

  /** Calls the API with a JSON body; an error answer rejects with `error: message` (the message in the page's language when it has one, `errorText`). */
  async call<T>(method: Method, path: string, body?: object): Promise<T> {
    const response = await fetch(path, { method, headers: this.#headers(true), body: body ? JSON.stringify(body) : undefined });
    const answer = (await response.json()) as T | ErrorBody;
    if (!response.ok) {
      const error = answer as ErrorBody;
      if (response.status === 401 && this.signedIn) {
        this.signOut();
        this.#onSignedOut();
      }
      throw new Error(errorText(error.error, error.message));
    }
    return answer as T;
  }

  /** A GET whose error answer means "not offered here" (null), not a failure. */
  async optional<T>(path: string): Promise<T | null> {
    const response = await fetch(path, { headers: this.#headers(false) });
    return response.ok ? ((await response.json()) as T) : null;
  }

  #headers(json: boolean): Record<string, string> {
    const headers: Record<string, string> = json ? { "Content-Type": "application/json" } : {};
    if (this.#token !== null) headers["Authorization"] = `Bearer ${this.#token}`;
    return headers;
  }
}
