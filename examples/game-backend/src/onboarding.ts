/** Public developer API of the Slotgate service (spec 4.1): what a provider does once, before going live. */

async function post(base: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

/** A registered client application; the secret is shown once, at registration. */
export interface RegisteredClient {
  client_id: string;
  client_secret: string;
}

/**
 * Signs in as a developer (signing up when the account does not exist) and registers a blockchain
 * client application for this game backend with the given redirect URIs.
 *
 * @example
 * ```ts
 * const client = await registerGameClient(url, { email, password }, ["http://127.0.0.1:8402/slotgate/callback"]);
 * ```
 */
export async function registerGameClient(base: string, developer: { email: string; password: string }, redirectUris: string[]): Promise<RegisteredClient> {
  let login = await post(base, "/v1/dev-user/login_devuser", developer);
  if (login.status === 401) login = await post(base, "/v1/dev-user/signup", developer);
  const token = login.body["token"];
  if (typeof token !== "string") throw new Error(`developer sign-in failed: ${String(login.body["error"] ?? login.status)}`);
  const r = await post(
    base,
    "/v1/dev-user/clients",
    { name: "Example game backend", redirect_uris: redirectUris, download_url: "https://game.example/download", web_url: "https://game.example/", platform: "game", blockchain: true },
    token,
  );
  if (r.status !== 201) throw new Error(`client registration failed: ${String(r.body["error"] ?? r.status)} ${String(r.body["message"] ?? "")}`);
  return { client_id: String(r.body["client_id"]), client_secret: String(r.body["client_secret"]) };
}
