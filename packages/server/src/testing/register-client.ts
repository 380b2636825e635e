import { randomBytes } from "node:crypto";

/** Options of {@link registerWebClient}. */
export interface RegisterWebClientOptions {
  /** The exact redirect URIs (the browser's, and the backend SDK's callback when it is used). */
  redirectUris: string[];
  /** The app's origin. @default the origin of the first redirect URI */
  webUrl?: string;
  /** @default "web client" */
  name?: string;
  /** @default false */
  blockchain?: boolean;
  /** A developer's token to register under; a fresh developer account is signed up when absent. */
  devToken?: string;
}

/** What {@link registerWebClient} registered. */
export interface RegisteredWebClient {
  clientId: string;
  /** The client secret (for the backend SDK); shown once, as the developer center does. */
  clientSecret: string;
  /** The developer's token, to register more clients under the same account. */
  devToken: string;
}

async function post(baseUrl: string, path: string, body: object, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * Registers a web client application through the public API, as a developer does: signs up a fresh developer
 * (`POST /v1/dev-user/signup`) unless `devToken` is given, then `POST /v1/dev-user/clients` (platform `web`).
 *
 * @example
 * ```ts
 * const server = await startReferenceServer({ chain: "off" });
 * const { clientId, clientSecret } = await registerWebClient(server.url, {
 *   redirectUris: ["http://127.0.0.1:4000/auth/callback", "http://127.0.0.1:4000/api/slotgate/callback"],
 * });
 * ```
 */
export async function registerWebClient(baseUrl: string, options: RegisterWebClientOptions): Promise<RegisteredWebClient> {
  const devToken =
    options.devToken ??
    String(
      (
        await post(baseUrl, "/v1/dev-user/signup", {
          email: `dev-${randomBytes(6).toString("hex")}@example.test`,
          password: randomBytes(12).toString("base64url"),
        })
      )["token"],
    );
  const client = await post(
    baseUrl,
    "/v1/dev-user/clients",
    {
      name: options.name ?? "web client",
      redirect_uris: options.redirectUris,
      download_url: "https://game.example/download",
      web_url: options.webUrl ?? new URL(options.redirectUris[0] ?? "https://game.example").origin,
      platform: "web",
      blockchain: options.blockchain ?? false,
    },
    devToken,
  );
  return { clientId: String(client["client_id"]), clientSecret: String(client["client_secret"]), devToken };
}
