/** A browser's cookie jar against one marketplace: JSON calls with its session cookie. */
export interface BrowserSession {
  call(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** The marketplace's session cookie (`name=value`), to hand to a real browser; "" before sign-in. */
  cookie(): string;
}

/**
 * A fetch-based browser stand-in that keeps the marketplace's session cookie.
 *
 * @example
 * ```ts
 * const seller = browserSession(market.origin);
 * await seller.call("POST", "/api/session", { jwt });
 * ```
 */
export function browserSession(origin: string): BrowserSession {
  let cookie = "";
  return {
    async call(method, path, body) {
      const res = await fetch(origin + path, {
        method,
        headers: { ...(cookie ? { cookie } : {}), ...(method === "POST" ? { "content-type": "application/json" } : {}) },
        ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {}),
      });
      const set = res.headers.get("set-cookie");
      if (set) cookie = set.split(";")[0]!;
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    },
    cookie: () => cookie,
  };
}
