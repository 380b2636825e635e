import { SlotgateApi, isSlotgateBackendError } from "@slotgate/backend-sdk";

/** Public developer API of the Slotgate service (spec 4.1): what a provider does once, before going live. */

/** A registered client application; the secret is shown once, at registration. */
export interface RegisteredClient {
  client_id: string;
  client_secret: string;
}

/**
 * Signs in as a developer (signing up when the account does not exist) and registers a blockchain
 * client application for this game backend with the given redirect URIs, through the backend SDK's
 * `SlotgateApi` (rows `devUserLogin`, `devUserSignup`, `registerClient` of the endpoint table).
 *
 * @example
 * ```ts
 * const client = await registerGameClient(url, { email, password }, ["http://127.0.0.1:8402/slotgate/callback"]);
 * ```
 */
export async function registerGameClient(base: string, developer: { email: string; password: string }, redirectUris: string[]): Promise<RegisteredClient> {
  const api = new SlotgateApi({ authServerUrl: base });
  const session = await api.call("devUserLogin", developer, null).catch((error: unknown) => {
    if (isSlotgateBackendError(error, "service_error") && error.serviceStatus === 401) return api.call("devUserSignup", developer, null);
    throw error;
  });
  const registered = await api.call(
    "registerClient",
    {
      name: "Example game backend",
      redirect_uris: redirectUris,
      download_url: "https://game.example/download",
      web_url: "https://game.example/",
      platform: "game",
      blockchain: true,
    },
    { bearer: session.token },
  );
  // A confidential client (the default registration) answers its secret; a public native client would have none.
  if (!("client_secret" in registered)) throw new Error("Slotgate registered a public client; the game backend needs a confidential one");
  return { client_id: registered.client_id, client_secret: registered.client_secret };
}
